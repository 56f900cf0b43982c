// Which tasks the grid and the list show, in which order (sort and a status filter, as
// k9s and process-compose users reach for). Pure: the layouts, focus moves and the footer's
// "+N more" all ask this one function, so what is on screen and where focus goes agree.
import type {TaskStatus} from '../core/types.js';
import type {Overlay} from './overlay.js';
import type {TaskView} from './task-view.js';

export const sortKeys = ['plan', 'status', 'elapsed', 'spend'] as const;
export type SortKey = (typeof sortKeys)[number];

export const statusFilters = ['all', 'active', 'failed', 'finished'] as const;
export type StatusFilter = (typeof statusFilters)[number];

/** What needs the operator first: what runs, then what went wrong, then what waits, then what is done. */
const statusRank: Readonly<Record<string, number>> = {
	running: 0, cancelling: 1, failed: 2, timed_out: 3, lost: 4, queued: 5, cancelled: 6, succeeded: 7, refused: 8,
};

const failedStatuses: ReadonlySet<TaskStatus | string> = new Set(['failed', 'timed_out', 'lost', 'cancelled', 'refused']);
const activeStatuses: ReadonlySet<TaskStatus | string> = new Set(['running', 'cancelling', 'queued']);

export function passesFilter(status: TaskStatus, filter: StatusFilter): boolean {
	switch (filter) {
		case 'all': {
			return true;
		}

		case 'active': {
			return activeStatuses.has(status);
		}

		case 'failed': {
			return failedStatuses.has(status);
		}

		case 'finished': {
			return !activeStatuses.has(status);
		}
	}
}

type Ordered = {
	order: readonly string[];
	tasks: Readonly<Record<string, TaskView>>;
	sortBy: SortKey;
	statusFilter: StatusFilter;
	textFilter: string;
	/** While the filter's prompt is open, what is typed filters at once. */
	overlay: Overlay | null;
};

/** The text filter in force: the prompt's while it is typed, else the one kept. */
export function textFilterOf(state: Pick<Ordered, 'textFilter' | 'overlay'>): string {
	return (state.overlay?.kind === 'filter' ? state.overlay.field.value : state.textFilter).trim().toLowerCase();
}

/** What `/` matches in: what the pane shows of the task, and where it runs. */
function matchesText(task: TaskView, text: string): boolean {
	return [task.id, task.title, task.goal, task.routeName, task.model, task.provider, task.profile, task.host]
		.some(value => value !== null && value.toLowerCase().includes(text));
}

/** The ids on screen, in screen order: the filters applied, then the sort (ties keep the plan's order). */
export function shownOrder(state: Ordered): string[] {
	const {order, tasks, sortBy, statusFilter} = state;
	const text = textFilterOf(state);
	const kept = statusFilter === 'all' && text === '' ? [...order] : order.filter(id => {
		const task = tasks[id];
		return task !== undefined && passesFilter(task.status, statusFilter) && (text === '' || matchesText(task, text));
	});
	if (sortBy === 'plan') {
		return kept;
	}

	const key = (id: string): number => {
		const task = tasks[id];
		if (!task) return Number.POSITIVE_INFINITY;
		// Longest running first (the earliest start); never started last.
		if (sortBy === 'elapsed') return task.startedAt ?? Number.POSITIVE_INFINITY;
		// Most spent first; unknown last.
		if (sortBy === 'spend') return -(task.spend?.cost_usd ?? Number.NEGATIVE_INFINITY);
		return statusRank[task.status] ?? 9;
	};

	const place = new Map(order.map((id, index) => [id, index]));
	return kept.sort((a, b) => key(a) - key(b) || (place.get(a) ?? 0) - (place.get(b) ?? 0));
}

/** The focus after a filter changed: kept when its pane is still shown, else the first shown pane. */
export function keptFocus(state: Ordered & {focusedId: string | null}): {focusedId: string | null} {
	const shown = shownOrder(state);
	const {focusedId} = state;
	return {focusedId: focusedId !== null && shown.includes(focusedId) ? focusedId : shown[0] ?? focusedId};
}

export function nextOf<T>(values: readonly T[], current: T): T {
	return values[(values.indexOf(current) + 1) % values.length]!;
}
