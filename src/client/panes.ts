// A client's side of tail deltas (wire/tail-delta.ts): its panes as the host pushed them, whole
// tails or rebuilt from deltas, so that the store reads the same OutputSnapshots either way.
import type {OutputSnapshot} from '../wire/port.js';
import type {OutputDelta} from '../wire/tail-delta.js';

/** The complete lines a client holds of one pane, ending at line `end` (exclusive). */
export type HeldTail = {end: number; complete: readonly string[]};

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

/** A client's panes as the host pushed them: whole tails (a snapshot, an older host) or rebuilt from deltas. */
export class ClientPanes {
	private readonly panes = new Map<string, OutputSnapshot>();
	/** The complete lines held of each pane that deltas rebuilt (a whole tail says nothing of which lines were unfinished: the host's next delta replaces it). */
	private readonly held = new Map<string, HeldTail>();

	/** `tailLines`: the lines of each pane the client asked for in its hello. */
	constructor(private readonly tailLines: number) {}

	/** A snapshot's panes replace everything. */
	reset(outputs: Readonly<Record<string, OutputSnapshot>>): void {
		this.panes.clear();
		this.held.clear();
		for (const [id, output] of Object.entries(outputs)) this.panes.set(id, output);
	}

	/** An `output` message's changes. */
	take(changes: Readonly<Record<string, OutputSnapshot | OutputDelta>>): void {
		for (const [id, change] of Object.entries(changes)) {
			if ('tail' in change) {
				this.panes.set(id, change);
				this.held.delete(id);
			} else {
				const next = applyDelta(this.held.get(id), change, this.tailLines);
				this.held.set(id, next.held);
				this.panes.set(id, next.snapshot);
			}
		}
	}

	/** The panes whose version is other than `versions` says, with their last `tailLines` lines: BatchControl.outputChanges. */
	changes(versions: Readonly<Record<string, number>>, tailLines: number): Record<string, OutputSnapshot> {
		const changes: Record<string, OutputSnapshot> = {};
		for (const [id, output] of this.panes) {
			if (output.version !== versions[id]) changes[id] = {...output, tail: tailLines === 0 ? [] : output.tail.slice(-tailLines)};
		}

		return changes;
	}
}

/** The last `count` items (none for 0, where slice(-0) would give all). */
function newest<T>(items: readonly T[], count: number): readonly T[] {
	if (count <= 0) return [];
	return items.length <= count ? items : items.slice(items.length - count);
}
