// The operator's stop intents, decided as pure functions of the state: which question to ask,
// or why there is nothing to ask. The store applies the answer and calls the core.
import {isActive, isFinal} from '../core/types.js';
import {bodyLayer, targetTaskId} from './overlay.js';
import type {BatchState} from './store-types.js';

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
