// A task's status as the pane and the zoom view show it. Selected as strings, not the clock: the
// component re-renders when what it shows changes, not on every tick.
import {statusBadge, statusDetail} from '../text/format.js';
import {useBatch} from '../store-context.js';

/** The badge (`running 12s`, `failed exit 1`); '' for no such task. */
export function useBadge(id: string | undefined): string {
	return useBatch(state => {
		const view = id === undefined ? undefined : state.tasks[id];
		return view ? statusBadge(view, state.now) : '';
	});
}

/** The line under the route (a countdown, the error); null when there is none. */
export function useStatusDetail(id: string | undefined): string | null {
	return useBatch(state => {
		const view = id === undefined ? undefined : state.tasks[id];
		return view ? statusDetail(view, state.now) : null;
	});
}
