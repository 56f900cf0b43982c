// What a running batch writes into its run folder besides results: processes.jsonl (so `gc` can
// find what a killed batch left) and plan.json as re-plans change it. Neither may stop the batch:
// the first problem is kept and becomes a warning in the report.
import type {ProcessRecord, RunFolder} from './folder.js';
import {planOnDisk, writeJsonAtomic} from './folder.js';
import {recordProcessSafely} from './writes.js';
import type {RoutePlan} from '../types.js';
import {messageOf} from '../errors.js';

export class RunRecords {
	private firstProblem: string | undefined;
	/** plan.json rewrites, one after the other, so the last plan is the one on disk. */
	private planWrite: Promise<void> = Promise.resolve();

	constructor(private readonly folder: RunFolder) {}

	/** The first thing that could not be written, if any. */
	get problem(): string | undefined {
		return this.firstProblem;
	}

	record(record: ProcessRecord): void {
		this.firstProblem ??= recordProcessSafely(this.folder, record);
	}

	/** plan.json follows the plan, one write after the other so the last plan is the one on disk. */
	rewritePlan(current: RoutePlan): void {
		const plan = planOnDisk(current);
		this.planWrite = this.planWrite.then(async () => writeJsonAtomic(this.folder.planPath, plan)).catch((error: unknown) => {
			this.firstProblem ??= `plan.json could not be rewritten after a re-plan: ${messageOf(error)}; it shows an earlier plan`;
		});
	}

	/** Resolves when every plan.json rewrite asked for so far is done (or has failed). */
	async written(): Promise<void> {
		await this.planWrite;
	}
}
