// The run's own record of what happened: events.jsonl, one batch event a line, appended as the
// runner announces them, so that a finished run is read back as its live runner host told it
// (`attach` on a finished run replays it; `wait --jsonl` prints it). What is kept: every event that
// says where the batch or a task stands (its lifecycle); not the snapshots that come dozens a
// second (telemetry, live spend, the fleet) nor passing states (waiting for a slot, stuck). A
// task's newest telemetry is written once, just before its task.finished, so that its pane reads as
// it last stood. No api_key of config.yaml is written, as in plan.json.
import {appendFileSync} from 'node:fs';
import path from 'node:path';
import type {BatchEvent, BatchReport, RoutePlan} from '../types.js';
import {messageOf} from '../errors.js';
import {readRegularText} from '../regular-file.js';

export const eventsFileName = 'events.jsonl';

/** The events `wait --jsonl` prints, live or finished: the record without its telemetry. */
const lifecycle = new Set<BatchEvent['type']>(['batch.planned', 'batch.replanned', 'task.requeued', 'task.started', 'task.cancelling', 'task.killed', 'task.finished', 'batch.budget', 'batch.finished', 'batch.reopened']);

export function isLifecycleEvent(event: BatchEvent): boolean {
	return lifecycle.has(event.type);
}

/** Appends the batch's events to its run folder; the first write that fails ends the record and is kept as a problem. */
export class EventRecord {
	private readonly file: string;
	private readonly telemetry = new Map<string, BatchEvent & {type: 'task.telemetry'}>();
	private failed: string | undefined;

	constructor(runDir: string) {
		this.file = path.join(runDir, eventsFileName);
	}

	/** What could not be written, if anything. */
	get problem(): string | undefined {
		return this.failed;
	}

	add(event: BatchEvent): void {
		if (this.failed !== undefined) return;
		if (event.type === 'task.telemetry') {
			this.telemetry.set(event.id, event);
			return;
		}

		if (!isLifecycleEvent(event)) return;
		const lines: BatchEvent[] = [];
		if (event.type === 'task.finished') {
			const last = this.telemetry.get(event.id);
			this.telemetry.delete(event.id);
			if (last) lines.push(last);
		}

		lines.push(event);
		try {
			appendFileSync(this.file, lines.map(line => `${JSON.stringify(line, withoutApiKeys)}\n`).join(''));
		} catch (error) {
			this.failed = `the run's events could not be written to ${this.file}: ${messageOf(error)}; \`attach\` and \`wait --jsonl\` on the finished run show less`;
		}
	}
}

function withoutApiKeys(key: string, value: unknown): unknown {
	return key === 'api_key' && value !== undefined ? '<set in config.yaml; not written here>' : value;
}

export type RecordedRun = {
	events: BatchEvent[];
	/** Where the events came from: the run's record, or (a run from before it, or one whose record failed) plan.json and results.json alone. */
	from: 'events.jsonl' | 'plan and results';
};

/**
 * The run's events as recorded, in order, ending with the last batch.finished when its results
 * were written (from results.json when the record has none: its last write may have failed).
 * Undefined when the folder has neither a record nor a readable plan.
 */
export function readRecordedRun(runDir: string): RecordedRun | undefined {
	const recorded = readEvents(path.join(runDir, eventsFileName));
	const report = readJson<BatchReport>(path.join(runDir, 'results.json'));
	if (recorded !== undefined && recorded[0]?.type === 'batch.planned') {
		const finished = recorded.findLastIndex(event => event.type === 'batch.finished');
		const reopened = recorded.findLastIndex(event => event.type === 'batch.reopened');
		if (report && finished <= reopened) recorded.push({type: 'batch.finished', report, at: finishedAt(report)});
		return {events: recorded, from: 'events.jsonl'};
	}

	const plan = readJson<RoutePlan>(path.join(runDir, 'plan.json'));
	if (plan === undefined || !Array.isArray(plan.tasks)) return undefined;
	const at = report ? finishedAt(report) : Date.now();
	const events: BatchEvent[] = [{type: 'batch.planned', runId: path.basename(runDir), runDir, plan, at: startedAt(report) ?? at}];
	for (const result of report?.results ?? []) {
		events.push({type: 'task.finished', id: result.id, result, at: Date.parse(result.finished_at ?? '') || at});
	}

	if (report) events.push({type: 'batch.finished', report, at});
	return {events, from: 'plan and results'};
}

/** The report names no time of its own: its last task's end (its first task's start, below). */
function finishedAt(report: BatchReport): number {
	const ends = report.results.map(result => Date.parse(result.finished_at ?? '')).filter(Number.isFinite);
	return ends.length > 0 ? Math.max(...ends) : Date.now();
}

function startedAt(report: BatchReport | undefined): number | undefined {
	const starts = (report?.results ?? []).map(result => Date.parse(result.started_at ?? '')).filter(Number.isFinite);
	return starts.length > 0 ? Math.min(...starts) : undefined;
}

/** The complete lines of the record; a last line without its line break is still being written. */
function readEvents(file: string): BatchEvent[] | undefined {
	let text: string;
	try {
		text = readRegularText(file);
	} catch {
		return undefined;
	}

	const lines = text.split('\n').slice(0, -1);
	return lines.flatMap(line => {
		try {
			const event = JSON.parse(line) as unknown;
			return typeof event === 'object' && event !== null && typeof (event as {type?: unknown}).type === 'string' ? [event as BatchEvent] : [];
		} catch {
			return [];
		}
	});
}

function readJson<T>(file: string): T | undefined {
	try {
		return JSON.parse(readRegularText(file)) as T;
	} catch {
		return undefined;
	}
}
