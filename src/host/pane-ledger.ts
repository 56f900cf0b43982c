// What the runner host pushes of the panes to one client (wire/tail-delta.ts): the one place a
// pane's tail is cut (paneOf), and the one ledger per client of what it was last sent of each
// task, so that the next push sends only what changed.
import type {TaskOutput} from '../core/output/task-output.js';
import type {BatchRunner} from '../core/run/runner.js';
import type {OutputSnapshot} from '../wire/port.js';
import {applyDelta, type OutputDelta} from '../wire/tail-delta.js';

/** The tasks' outputs as they stand now, by task id. */
export type Outputs = Iterable<readonly [string, TaskOutput]>;

/** The runner's outputs, task by task (a task not started yet has none). */
export function * outputsOf(runner: Pick<BatchRunner, 'plan' | 'output'>): Generator<readonly [string, TaskOutput]> {
	for (const {id} of runner.plan.tasks) {
		const output = runner.output(id);
		if (output) yield [id, output];
	}
}

/**
 * What was last pushed of one task: of which output (its serial: a task run again has a new one,
 * counting its lines and versions from 0 again), at which version, and the complete lines up to
 * which the client holds it (undefined: it holds a whole tail, which says nothing of which lines
 * were unfinished, so the next delta replaces).
 */
type Sent = {output: number; version: number; lines: number | undefined};

/** A pane as a delta against what the client holds (`linesHeld`; undefined: nothing it can append to). */
export function paneOf(output: TaskOutput, linesHeld: number | undefined, tailLines: number): OutputDelta {
	const {display} = output;
	const {from, fresh, unfinished, kept} = display.since(linesHeld ?? Number.NEGATIVE_INFINITY, tailLines);
	return {version: output.version, totalLines: display.totalLines, from, fresh, unfinished, kept, errorLine: output.errorLine() ?? null, lastOutputAt: output.lastOutputAt};
}

/** A pane whole, as a snapshot carries it: the same cut, against nothing held. */
export function wholePane(output: TaskOutput, tailLines: number): OutputSnapshot {
	return applyDelta(undefined, paneOf(output, undefined, tailLines), tailLines).snapshot;
}

/** One client's ledger: `deltas` says whether it takes deltas (its hello said tailDelta) or whole tails. */
export class PaneLedger {
	private readonly sent = new Map<string, Sent>();

	constructor(private readonly tailLines: number, private readonly deltas: boolean) {}

	/** Every pane whole, for a snapshot: the ledger starts again from them. */
	snapshot(outputs: Outputs): Record<string, OutputSnapshot> {
		this.sent.clear();
		const panes: Record<string, OutputSnapshot> = {};
		for (const [id, output] of outputs) {
			panes[id] = wholePane(output, this.tailLines);
			this.sent.set(id, {output: output.serial, version: output.version, lines: undefined});
		}

		return panes;
	}

	/** The panes that changed since they were last sent, recorded as sent now; empty when none did. */
	changes(outputs: Outputs): Record<string, OutputDelta | OutputSnapshot> {
		const changes: Record<string, OutputDelta | OutputSnapshot> = {};
		for (const [id, output] of outputs) {
			const last = this.sent.get(id);
			const same = last?.output === output.serial;
			if (same && last.version === output.version) continue;
			// A client of whole tails holds nothing a delta could append to: its tail is cut against nothing.
			const delta = paneOf(output, this.deltas && same ? last.lines : undefined, this.tailLines);
			this.sent.set(id, {output: output.serial, version: delta.version, lines: delta.totalLines});
			changes[id] = this.deltas ? delta : applyDelta(undefined, delta, this.tailLines).snapshot;
		}

		return changes;
	}
}
