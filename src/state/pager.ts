// o: the focused (or zoomed) task's whole log in the operator's $PAGER (docs/dashboard.md). The store only
// asks; commands/mount-dashboard.tsx hands the terminal to the pager and back, and says how it went.
import type {BatchState} from './store-types.js';
import {zoomOf} from './overlay.js';

export type PagerRequest = {taskId: string; serial: number};

export function pagerRequest(state: BatchState): {request: PagerRequest} | {notice: string} {
	const id = zoomOf(state.overlay)?.taskId ?? state.focusedId;
	const task = id ? state.tasks[id] : undefined;
	if (!id || !task) {
		return {notice: 'no task to open'};
	}

	// A task that never started has no log (a re-queued one keeps its earlier attempts' logs).
	if (task.startedAt === null && task.attempt <= 1) {
		return {notice: `${id} has no log yet (${task.status}): it has not started`};
	}

	return {request: {taskId: id, serial: (state.pager?.serial ?? 0) + 1}};
}
