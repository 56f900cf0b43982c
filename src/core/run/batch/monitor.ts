// "Slow or stuck" for a running batch: one timer for the whole batch (not one per task) visits
// the running attempts and applies the one stuck rule (stuck.ts) to each: quiet since the newest
// of its start, its last output (its output's last-output mark moved, displayed or not: a headless
// `run` displays nothing, and its tasks print all the same) and its last tool activity
// (the tool-call count of task.spend or telemetry moved). A change of verdict is a task.stuck
// event; with --stuck-timeout, quiet that long is a stop (StopReason stuck → timed_out). The
// clock is injected so tests step it; the real timer is unref'd so it never keeps the process up.
import {isStuck, quietSince} from '../stuck.js';
import type {BatchEvent} from '../../types.js';

export type MonitorClock = {now: () => number; every: (ms: number, visit: () => void) => {stop: () => void}};

export const realClock: MonitorClock = {
	now: () => Date.now(),
	every(ms, visit) {
		const timer = setInterval(visit, ms);
		timer.unref();
		return {stop: () => clearInterval(timer)};
	},
};

export type MonitorOptions = {
	stuckAfterMs: number;
	stuckTimeoutMs?: number | undefined;
	clock?: MonitorClock | undefined;
	/** When the attempt's output last arrived (TaskOutput.lastOutputAt): only whether it moved is read, so it may be on another clock than this one. */
	lastOutputAt: (id: string) => number | null;
	emit: (event: BatchEvent) => void;
	stop: (id: string) => void;
};

type Watched = {attempt: number; startedAt: number; outputMark: number | null; lastOutputAt: number | null; toolCalls: number | null; lastToolAt: number | null; stuck: boolean; stopped: boolean};

export class BatchMonitor {
	private readonly watched = new Map<string, Watched>();
	private timer: {stop: () => void} | undefined;
	private readonly clock: MonitorClock;

	constructor(private readonly options: MonitorOptions) {
		this.clock = options.clock ?? realClock;
	}

	started(id: string, attempt: number): void {
		this.watched.set(id, {attempt, startedAt: this.clock.now(), outputMark: this.options.lastOutputAt(id), lastOutputAt: null, toolCalls: null, lastToolAt: null, stuck: false, stopped: false});
		// A tenth of the shortest period: a verdict is at most that late, and a visit is cheap.
		const shortest = Math.min(this.options.stuckAfterMs, this.options.stuckTimeoutMs ?? Number.POSITIVE_INFINITY);
		this.timer ??= this.clock.every(Math.max(250, Math.min(10_000, shortest / 10)), () => this.visit());
	}

	/** The attempt's tool-call count as task.spend or telemetry now says it. */
	tools(id: string, count: number | null): void {
		const watched = this.watched.get(id);
		if (!watched || count === null || count === watched.toolCalls) return;
		if (watched.toolCalls !== null) watched.lastToolAt = this.clock.now();
		watched.toolCalls = count;
	}

	ended(id: string): void {
		this.watched.delete(id);
		if (this.watched.size === 0) {
			this.timer?.stop();
			this.timer = undefined;
		}
	}

	visit(): void {
		const now = this.clock.now();
		for (const [id, watched] of this.watched) {
			const mark = this.options.lastOutputAt(id);
			if (mark !== watched.outputMark) {
				watched.outputMark = mark;
				watched.lastOutputAt = now;
			}

			const since = quietSince(watched.startedAt, watched.lastOutputAt, watched.lastToolAt);
			const stuck = isStuck(since, now, this.options.stuckAfterMs);
			if (stuck !== watched.stuck) {
				watched.stuck = stuck;
				this.options.emit({type: 'task.stuck', id, attempt: watched.attempt, stuck, quietSince: since, at: now});
			}

			const {stuckTimeoutMs} = this.options;
			if (stuckTimeoutMs !== undefined && !watched.stopped && isStuck(since, now, stuckTimeoutMs)) {
				watched.stopped = true;
				this.options.stop(id);
			}
		}
	}
}
