// `hermes-delegate cancel RUN [TASK…] [--kill]`: the dashboard's cascade from the command line,
// through the run's host: each named task (or, none named, the whole batch: every running task
// stopped and the queue dropped, as quitting the dashboard does). Says on stderr exactly what the
// dashboard's confirm bar says will be sent to whom, then waits until those tasks have ended and
// says how each ended. Exit codes: 0 every named task was stopped (or was already stopping) ·
// 1 a named task had ended already · 2 no such live run or task.
import {exitCodes, InputError} from '../core/errors.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {storeFromSnapshot} from '../client/attach-store.js';
import {endedEvents, type Ends} from '../client/task-ends.js';
import {chooseRun, connectToRun, runHomes} from '../client/live-runs.js';
import type {ConfirmQuestion} from '../state/overlay.js';
import type {BatchState} from '../state/store-types.js';
import {confirmQuestion} from '../ui/components/ConfirmBar.js';
import type {CancelOptions} from './flags.js';
import type {CommandIO} from './io.js';

export async function cancelCommand(runArg: string, taskArgs: readonly string[], options: CancelOptions, io: Pick<CommandIO, 'stderr' | 'env'>): Promise<number> {
	const run = chooseRun(runHomes(io.env), runArg, {needLive: true, command: 'cancel'});
	const connection = await connectToRun(run, 'cancel');
	try {
		const state = storeFromSnapshot(connection).getState();
		const ids = taskArgs.map(wanted => taskId(state, wanted, run.runId));
		const say = (text: string) => io.stderr.write(`hermes-delegate: ${terminalSafe(text)}\n`);
		const ended = endedEvents(connection);
		if (ids.length === 0) {
			say(`run ${run.runId}: cancelling all: ${statement(question(state, {action: 'quit'}), options.kill ?? false)}`);
			const waiting = unfinished(state);
			await connection.control.shutdown({skipGrace: options.kill ?? false});
			await reportEnds(waiting, ended, say);
			return exitCodes.ok;
		}

		let code: number = exitCodes.ok;
		const stopping: string[] = [];
		for (const id of new Set(ids)) {
			say(statement(question(state, {action: options.kill ? 'kill' : 'cancel', taskId: id}), options.kill ?? false));
			// Refused while it runs: a stop is under way already (another client's, or a dashboard's `c`;
			// a task on a worker host is cancelling only once its worker says so), so this one waits for it.
			if (await connection.control.cancel(id, {skipGrace: options.kill ?? false}) || ['running', 'cancelling'].includes(state.tasks[id]?.status ?? '')) {
				stopping.push(id);
			} else {
				say(`${id} was not stopped: it is ${state.tasks[id]?.status ?? 'unknown'} already`);
				code = exitCodes.taskFailed;
			}
		}

		await reportEnds(stopping, ended, say);
		return code;
	} finally {
		await connection.leave('done');
	}
}

/** The confirm bar's question for this state (ui/components/ConfirmBar.tsx), without the bar. */
function question(state: BatchState, asked: ConfirmQuestion): string {
	return confirmQuestion({...state, overlay: {kind: 'confirm', question: asked, under: null}}) ?? '';
}

/**
 * The confirm bar's question as what is being done: nobody is asked here.
 * "Cancel t01 'x'? SIGTERM to …" → "cancelling t01 'x': SIGTERM to …"; with --kill every stop
 * is SIGKILL at once.
 */
export function statement(asked: string, kill: boolean): string {
	const said = asked
		.replace(/^Quit\? /, '')
		.replace(/^Cancel (.*?)\? It is/, 'cancelling $1: it is')
		.replace(/^Cancel (.*?)\? /, 'cancelling $1: ')
		.replace(/^Kill (.*?) now\? /, 'killing $1 now: ')
		.replace(/^Stops /, 'stopping ');
	return kill ? said.replace(/SIGTERM to each process group, SIGKILL after [^;.]+/, 'SIGKILL to each process group, no grace period') : said;
}

function unfinished(state: BatchState): string[] {
	return state.order.filter(id => ['queued', 'running', 'cancelling'].includes(state.tasks[id]?.status ?? ''));
}

/** A task by id (`t03`, also `3` or `T03`) or by its name, as `logs` finds one. */
function taskId(state: BatchState, wanted: string, runId: string): string {
	const byId = state.order.find(id => id === wanted.toLowerCase() || id === `t${wanted.padStart(2, '0')}`);
	const byName = state.order.filter(id => state.tasks[id]?.title === wanted);
	const found = byId ?? (byName.length === 1 ? byName[0] : undefined);
	if (found) return found;
	throw new InputError(
		byName.length > 1 ? `${byName.length} tasks of run ${runId} are named ${JSON.stringify(wanted)}` : `run ${runId} has no task ${JSON.stringify(wanted)}`,
		{},
		`name the task by id (${state.order.join(', ')})`,
	);
}

async function reportEnds(ids: readonly string[], ended: Ends, say: (text: string) => void): Promise<void> {
	const left = new Set(ids);
	while (left.size > 0) {
		const events = await ended.next(left);
		if (events.length === 0) {
			say(`the runner host went away before ${[...left].join(', ')} ended`);
			return;
		}

		for (const event of events) {
			left.delete(event.id);
			say(`${event.id} ${event.result.status.replace('_', ' ')}`);
		}
	}
}
