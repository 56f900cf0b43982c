// Tail deltas: how the runner host keeps a client's panes current by sending what changed in
// them, not whole tails. A pane shows a task's last N complete lines and its unfinished ones;
// complete lines never change once counted, so a client that holds them up to line k needs only
// the lines after k and the unfinished ones. The host makes them (host/pane-ledger.ts), a client
// rebuilds its panes from them (client/panes.ts); docs/protocol.md, "Output pushes".
import type {OutputSnapshot} from './port.js';

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
 * The pane a delta leaves, as a whole OutputSnapshot of `tailLines` lines (what the host's full
 * tail would have been), and the complete lines to hold for the next delta. The client rebuilds
 * its panes with it; the host makes whole tails (snapshots, clients that take no deltas) with it
 * from a delta against nothing held, so that one function (host/pane-ledger.ts paneOf) cuts a
 * pane's tail for both.
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
