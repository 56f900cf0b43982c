// The operator's stop intents, decided as pure functions of the state: which question to ask,
// or why there is nothing to ask. The store applies the answer and calls the core.
import {isFinal} from '../core/types.js';
import {bodyLayer, zoomOf} from './overlay.js';
import type {BatchState} from './store-types.js';

/** c (kill: false) or K (kill: true) on the focused or zoomed task; while quitting, K kills everything now. */
export function cancelRequest(state: BatchState, kill: boolean): Partial<BatchState> | 'kill-all' | undefined {
	if (state.quitting) {
		return kill ? 'kill-all' : undefined;
	}

	const id = zoomOf(state.overlay)?.taskId ?? state.focusedId;
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
 * q: ask first, whether tasks still run or the batch has finished. Quitting a finished batch at
 * once made "q then y" (the habit from a running batch) leave the y to the shell, typed into
 * whatever ran next; asking in both states makes q y the one way out, and q alone never leaves.
 */
export function quitRequest(state: BatchState): Partial<BatchState> | undefined {
	if (state.quitting) {
		return undefined;
	}

	// Asked over whatever is open (a question asked before it gives way to this one).
	return {overlay: {kind: 'confirm', question: {action: 'quit'}, under: bodyLayer(state.overlay)}};
}
