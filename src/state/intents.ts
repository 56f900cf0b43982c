// The operator's stop intents, decided as pure functions of the state: which question to ask,
// or why there is nothing to ask. The store applies the answer and calls the core.
import {isActive, isFinal} from '../core/types.js';
import {bodyLayer, targetTaskId} from './overlay.js';
import type {BatchState} from './store-types.js';
import type {TaskView} from './task-view.js';

/** c (kill: false) or K (kill: true) on the focused or zoomed task; while quitting, K kills everything now. */
export function cancelRequest(state: BatchState, kill: boolean): Partial<BatchState> | 'kill-all' | undefined {
	if (state.quitting) {
		return kill ? 'kill-all' : undefined;
	}

	const id = targetTaskId(state);
	const task = id ? state.tasks[id] : undefined;
	if (!task || !id) {
		return undefined;
	}

	if (isFinal(task.status)) {
		return {notice: `${task.title} has already ${task.status.replace('_', ' ')}`};
	}

	if (task.status === 'cancelling' && !kill) {
		return {notice: `${task.title} is already being cancelled; K kills it now`};
	}

	return {overlay: {kind: 'confirm', question: {action: kill ? 'kill' : 'cancel', taskId: id}, under: bodyLayer(state.overlay)}, notice: null};
}

/**
 * q: with nothing left to stop (no task running, being cancelled or queued), it quits at once (the
 * dashboard leaves once the batch's report is in). Otherwise it asks: y cancels all, n stays, d
 * detaches (with a runner host), since quitting then would stop work or drop the queue.
 */
export function quitRequest(state: BatchState): Partial<BatchState> | undefined {
	if (state.quitting) {
		return undefined;
	}

	if (!state.order.some(id => {
		const status = state.tasks[id]?.status;
		return status !== undefined && isActive(status);
	})) {
		return {exitRequested: true, notice: null};
	}

	// Asked over whatever is open (a question asked before it gives way to this one).
	return {overlay: {kind: 'confirm', question: {action: 'quit'}, under: bodyLayer(state.overlay)}};
}

/**
 * y to a cancel or a kill of a running task: its pane says cancelling at once, in the frame that
 * closes the question, instead of a socket's round trip later; the runner's task.cancelling then
 * fills in the countdown. Until then the stop is pending (stopPending), and taken back if the
 * runner host refuses it or never answers (stopRefused). Any other task waits for the runner.
 */
export function stopAsked(state: BatchState, id: string): Partial<BatchState> {
	const task = state.tasks[id];
	return task?.status === 'running' ? {tasks: {...state.tasks, [id]: {...task, status: 'cancelling', cancelling: null}}} : {};
}

/** Shown as cancelling on this dashboard's word alone: the runner has not said so (yet). */
export function stopPending(task: Pick<TaskView, 'status' | 'cancelling'>): boolean {
	return task.status === 'cancelling' && task.cancelling === null;
}

/**
 * The runner host answered that there was nothing to stop, or the request failed: a stop still
 * pending goes back to running (the dashboard never claims a cancel the host refused). One the
 * runner confirmed or that finished meanwhile is left as its events made it.
 */
export function stopRefused(state: BatchState, id: string): Partial<BatchState> {
	const task = state.tasks[id];
	return task && stopPending(task) ? {tasks: {...state.tasks, [id]: {...task, status: 'running'}}} : {};
}
