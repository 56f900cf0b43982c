// `wait --jsonl`'s events: the same on a live run as on a finished one, so that a script can rely
// on them. They are the run's record (core/run-folder/events.ts: what the batch and each task did,
// no telemetry), printed from the run folder first, then, on a live run, the host's events of the
// same kinds. The record and the host's stream are one sequence (the runner writes each event down
// before any client hears it), so what the record already printed is counted off the host's.
import type {BatchEvent} from '../core/types.js';
import {isLifecycleEvent, readRecordedRun} from '../core/run-folder/events.js';

export class RecordPrinter {
	/** Lifecycle events printed so far, from either source. */
	private printed = 0;
	/** Lifecycle events heard from the host so far. */
	private heard = 0;
	private finished = false;
	/** The record was read from plan.json and results.json alone (a run from before events.jsonl). */
	partial = false;

	constructor(private readonly runDir: string, private readonly print: (event: BatchEvent) => void) {}

	/**
	 * What the run folder's record holds beyond what was printed. `fallback`: a run without a record
	 * may be read from plan.json and results.json; not a run that may still be starting (its record
	 * is written just after plan.json), whose host then tells everything.
	 */
	fromRecord(options: {fallback: boolean}): void {
		const recorded = readRecordedRun(this.runDir);
		if (!recorded || (recorded.from !== 'events.jsonl' && !options.fallback)) return;
		this.partial = recorded.from !== 'events.jsonl';
		const events = recorded.events.filter(event => isLifecycleEvent(event));
		for (const event of events.slice(this.printed)) this.take(event);
		this.printed = Math.max(this.printed, events.length);
	}

	/** An event of the live host: printed unless the record printed it already. */
	live(event: BatchEvent): void {
		if (!isLifecycleEvent(event)) return;
		this.heard++;
		if (this.heard <= this.printed) return;
		this.take(event);
		this.printed = this.heard;
	}

	/** A batch.finished was printed last (a re-opened batch finishes again). */
	get endedWithFinish(): boolean {
		return this.finished;
	}

	private take(event: BatchEvent): void {
		this.finished = event.type === 'batch.finished';
		this.print(event);
	}
}
