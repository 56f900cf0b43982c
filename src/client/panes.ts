// A client's side of the output pushes (wire/tail-delta.ts): each `output` message becomes whole
// panes at once, for the store to take as it arrives. What it keeps is only what the next delta
// appends to: the complete lines it holds of each pane rebuilt from deltas.
import type {OutputSnapshot} from '../wire/port.js';
import {applyDelta, type HeldTail, type OutputDelta} from '../wire/tail-delta.js';

export class ClientPanes {
	/** The complete lines held of each pane that deltas rebuilt (a whole tail says nothing of which lines were unfinished: the host's next delta replaces it). */
	private readonly held = new Map<string, HeldTail>();

	/** `tailLines`: the lines of each pane the client asked for in its hello. */
	constructor(private readonly tailLines: number) {}

	/** A snapshot's panes replace everything held. */
	reset(): void {
		this.held.clear();
	}

	/** An `output` message's changes, as whole panes. */
	take(changes: Readonly<Record<string, OutputSnapshot | OutputDelta>>): Record<string, OutputSnapshot> {
		const panes: Record<string, OutputSnapshot> = {};
		for (const [id, change] of Object.entries(changes)) {
			if ('tail' in change) {
				this.held.delete(id);
				panes[id] = change;
			} else {
				const next = applyDelta(this.held.get(id), change, this.tailLines);
				this.held.set(id, next.held);
				panes[id] = next.snapshot;
			}
		}

		return panes;
	}
}
