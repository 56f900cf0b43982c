// What a worker keeps on its own disk so that a result survives the worker: each attempt's final
// report is written to the batch's run folder on this host (`outcomes/<task>.<attempt>.json`)
// before it is published, and removed once the batch's stream has it. A worker started again under
// the same name and home finds the ones still there (its run folders say whose and which batch's
// they are, in worker.json) and publishes them: a task that finished while its worker was cut off
// from NATS, or killed before its result got out, then gets that result instead of `lost`.
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import {runsDir} from '../core/hermes/home.js';
import type {RunFolder} from '../core/run-folder/folder.js';
import {messageOf} from '../core/errors.js';
import {reportSchema, type AttemptReport, type FinishedReport} from './messages.js';

const markerName = 'worker.json';
const markerSchema = z.strictObject({worker: z.string(), batch: z.string()});

/** The run folder on this host holds `worker`'s attempts of `batch`. */
export function markWorkerFolder(folder: RunFolder, worker: string, batch: string): void {
	writeFileSync(path.join(folder.dir, markerName), `${JSON.stringify({worker, batch})}\n`, {mode: 0o600});
}

export type Outcome = {batch: string; taskId: string; attempt: number; report: FinishedReport; file: string};

function outcomeFile(dir: string, taskId: string, attempt: number): string {
	return path.join(dir, 'outcomes', `${taskId}.${attempt}.json`);
}

/** Written before the report is published; a failure to write costs only what a restart could recover. */
export function keepOutcome(folder: RunFolder, taskId: string, attempt: number, report: AttemptReport, log: (line: string) => void): () => void {
	const file = outcomeFile(folder.dir, taskId, attempt);
	try {
		mkdirSync(path.dirname(file), {recursive: true, mode: 0o700});
		writeFileSync(file, JSON.stringify(report), {mode: 0o600});
	} catch (error) {
		log(`could not keep the result of task ${taskId} in ${file} (${messageOf(error)}): a restart of this worker could not report it`);
	}

	return () => rmSync(file, {force: true});
}

/** The results `worker` kept in this home that no batch stream has confirmed yet. */
export function pendingOutcomes(hermesHome: string, worker: string, log: (line: string) => void): Outcome[] {
	let runs: string[];
	try {
		runs = readdirSync(runsDir(hermesHome));
	} catch {
		return [];
	}

	return runs.flatMap(run => {
		const dir = path.join(runsDir(hermesHome), run);
		const marker = readJson(path.join(dir, markerName), markerSchema);
		if (!marker || marker.worker !== worker || !existsSync(path.join(dir, 'outcomes'))) return [];
		return readdirSync(path.join(dir, 'outcomes')).flatMap(name => {
			const match = /^([\w-]+)\.(\d+)\.json$/.exec(name);
			const file = path.join(dir, 'outcomes', name);
			const report = match ? readJson(file, reportSchema) : undefined;
			if (!match || report?.kind !== 'finished') {
				log(`ignored ${file}: not a result this worker kept`);
				return [];
			}

			return [{batch: marker.batch, taskId: match[1]!, attempt: Number(match[2]), report, file}];
		});
	});
}

function readJson<T extends z.ZodType>(file: string, schema: T): z.output<T> | undefined {
	try {
		const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
		return parsed.success ? parsed.data : undefined;
	} catch {
		return undefined;
	}
}
