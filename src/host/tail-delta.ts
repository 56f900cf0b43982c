// Tail deltas: how the runner host keeps a client's panes current by sending what changed in
// them, not whole tails. A pane shows a task's last N complete lines and its unfinished ones;
// complete lines never change once counted, so a client that holds them up to line k needs only
// the lines after k and the unfinished ones. Whole 40-line tails of every changed pane, 12 times
// a second, were most of what the host wrote and the dashboard parsed under 32 trickling agents,
// each adding a line or two between pushes. Both sides of the exchange are here: what the host
// sends (tailDeltas) and how a client rebuilds the pane from it (applyDelta).
import type {BatchRunner} from '../core/run/runner.js';
import type {TaskOutput} from '../core/output/task-output.js';
import type {OutputSnapshot} from '../state/store-types.js';

/**
 * One pane's change for a client that takes deltas (its hello said tailDelta): the complete lines
 * from line `from` to `totalLines` (at most the client's tailLines, the newest), then the
 * unfinished lines as they stand. When `from` is where the client's held lines end, it appends;
 * otherwise `fresh` replaces what it holds (the host sends that after a snapshot, and when more
 * lines came than a tail holds).
 */
export type OutputDelta = {
	version: number;
	totalLines: number;
	from: number;
	fresh: string[];
	unfinished: string[];
	/** The complete lines the host keeps of this task: a tail never shows more (the client trims what it holds to it). */
	kept: number;
	errorLine: string | null;
	lastOutputAt: number | null;
};

/** The complete lines a client holds of one pane, ending at line `end` (exclusive). */
export type HeldTail = {end: number; complete: readonly string[]};

/**
 * Host side: the changed panes (output version other than `versions` says) as deltas, for a
 * client that holds each task's complete lines up to `linesSent[id]` (absent: nothing it can
 * append to, so the delta replaces).
 */
export function tailDeltas(runner: Pick<BatchRunner, 'plan' | 'output'>, versions: Readonly<Record<string, number>>, linesSent: Readonly<Record<string, number>>, tailLines: number): Record<string, OutputDelta> {
	const changes: Record<string, OutputDelta> = {};
	for (const {id} of runner.plan.tasks) {
		const output = runner.output(id);
		if (output && output.version !== versions[id]) {
			changes[id] = deltaOf(output, linesSent[id], tailLines);
		}
	}

	return changes;
}

export function deltaOf(output: TaskOutput, linesSent: number | undefined, tailLines: number): OutputDelta {
	const version = output.version;
	const {display} = output;
	const {from, fresh, unfinished, kept} = display.since(linesSent ?? Number.NEGATIVE_INFINITY, tailLines);
	return {version, totalLines: display.totalLines, from, fresh, unfinished, kept, errorLine: output.errorLine() ?? null, lastOutputAt: output.lastOutputAt};
}

/**
 * Client side: the pane a delta leaves, as a whole OutputSnapshot of `tailLines` lines (what the
 * host's full tail would have been), and the complete lines to hold for the next delta.
 */
export function applyDelta(held: HeldTail | undefined, delta: OutputDelta, tailLines: number): {held: HeldTail; snapshot: OutputSnapshot} {
	const appends = held !== undefined && held.end === delta.from;
	const joined = appends ? [...held.complete, ...delta.fresh] : delta.fresh;
	const complete = newest(joined, Math.min(tailLines, delta.kept));
	const {unfinished} = delta;
	const tail = [...newest(complete, tailLines - Math.min(unfinished.length, tailLines)), ...newest(unfinished, tailLines)];
	return {
		held: {end: delta.totalLines, complete},
		snapshot: {version: delta.version, totalLines: delta.totalLines, tail, errorLine: delta.errorLine, lastOutputAt: delta.lastOutputAt},
	};
}

/** The last `count` items (none for 0, where slice(-0) would give all). */
function newest<T>(items: readonly T[], count: number): readonly T[] {
	if (count <= 0) return [];
	return items.length <= count ? items : items.slice(items.length - count);
}
