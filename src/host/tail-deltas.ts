// The host's side of tail deltas (wire/tail-delta.ts): for each client that takes them, the panes
// that changed since its last push, recorded so the next push sends only what is new.
import type {BatchRunner} from '../core/run/runner.js';
import type {TaskOutput} from '../core/output/task-output.js';
import type {OutputDelta} from '../wire/tail-delta.js';

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
