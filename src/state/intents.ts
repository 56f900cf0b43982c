// The operator's stop intents, decided as pure functions of the state: which question to ask,
// or why there is nothing to ask. The store applies the answer and calls the core.
import {isActive, isFinal} from '../core/types.js';
import {bodyLayer, zoomOf} from './overlay.js';
import type {BatchState} from './store.js';

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

/** q: exit at once when nothing holds a process, else ask first. */
export function quitRequest(state: BatchState): Partial<BatchState> | undefined {
	if (state.quitting) {
		return undefined;
	}

	const active = state.order.some(id => {
		const status = state.tasks[id]?.status;
		return status !== undefined && isActive(status);
	});
	// Asked over whatever is open (a question asked before it gives way to this one).
	return active ? {overlay: {kind: 'confirm', question: {action: 'quit'}, under: bodyLayer(state.overlay)}} : {exitRequested: true};
}
