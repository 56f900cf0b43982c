// What a running batch writes into its run folder besides results: processes.jsonl (so `gc` can
// find what a killed batch left), plan.json as re-plans change it, and its events (events.ts).
// None may stop the batch: the first problem is kept and becomes a warning in the report.
import type {ProcessRecord, RunFolder} from './folder.js';
import {planOnDisk, writeJsonAtomic} from './folder.js';
import {recordProcessSafely} from './writes.js';
import {EventRecord} from './events.js';
import type {BatchEvent, RoutePlan} from '../types.js';
import {messageOf} from '../errors.js';

export class RunRecords {
	private firstProblem: string | undefined;
	/** plan.json rewrites, one after the other, so the last plan is the one on disk. */
	private planWrite: Promise<void> = Promise.resolve();

	/** events.jsonl: what a finished run is read back from (events.ts). */
	private readonly events: EventRecord;

	constructor(private readonly folder: RunFolder) {
		this.events = new EventRecord(folder.dir);
	}

	/** The first thing that could not be written, if any. */
	get problem(): string | undefined {
		return this.firstProblem ?? this.events.problem;
	}

	/** Every event the runner announces; the record keeps those it is for. */
	event(event: BatchEvent): void {
		this.events.add(event);
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
