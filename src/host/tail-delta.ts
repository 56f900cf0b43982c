// Tail deltas: how the runner host keeps a client's panes current by sending what changed in
// them, not whole tails. A pane shows a task's last N complete lines and its unfinished ones;
// complete lines never change once counted, so a client that holds them up to line k needs only
// the lines after k and the unfinished ones. Whole 40-line tails of every changed pane, 12 times
// a second, were most of what the host wrote and the dashboard parsed under 32 trickling agents,
// each adding a line or two between pushes. Both sides of the exchange are here: what the host
// sends (tailDeltas), how a client rebuilds a pane from it (applyDelta), and the client's panes
// (ClientPanes).
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
 * What the host last pushed of one task to a delta client: of which output (its serial: a task
 * run again has a new one, counting its lines and versions from 0 again), at which version, and
 * the complete lines up to which the client holds it.
 */
export type TailSent = {output: number; version: number; lines: number};

/**
 * Host side: the changed panes as deltas, recording each in `sent`. A task with nothing in
 * `sent` (none pushed since the client's snapshot) has changed when its version is other than
 * `versions` (the snapshot's) says, and its delta replaces; so does the first delta of an output
 * other than the one last pushed.
 */
export function tailDeltas(runner: Pick<BatchRunner, 'plan' | 'output'>, versions: Readonly<Record<string, number>>, sent: Record<string, TailSent>, tailLines: number): Record<string, OutputDelta> {
	const changes: Record<string, OutputDelta> = {};
	for (const {id} of runner.plan.tasks) {
		const output = runner.output(id);
		if (!output) continue;
		const last = sent[id];
		const same = last?.output === output.serial;
		if (last === undefined ? output.version === versions[id] : same && output.version === last.version) continue;
		const delta = deltaOf(output, same ? last.lines : undefined, tailLines);
		sent[id] = {output: output.serial, version: delta.version, lines: delta.totalLines};
		changes[id] = delta;
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
