// Which tasks the grid and the list show, in which order (issue 38: sort and a status filter, as
// k9s and process-compose users reach for). Pure: the layouts, focus moves and the footer's
// "+N more" all ask this one function, so what is on screen and where focus goes agree.
import type {TaskStatus} from '../core/types.js';
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

type Ordered = {order: readonly string[]; tasks: Readonly<Record<string, TaskView>>; sortBy: SortKey; statusFilter: StatusFilter};

/** The ids on screen, in screen order: the status filter applied, then the sort (ties keep the plan's order). */
export function shownOrder(state: Ordered): string[] {
	const {order, tasks, sortBy, statusFilter} = state;
	const kept = statusFilter === 'all' ? [...order] : order.filter(id => {
		const task = tasks[id];
		return task !== undefined && passesFilter(task.status, statusFilter);
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

export function nextOf<T>(values: readonly T[], current: T): T {
	return values[(values.indexOf(current) + 1) % values.length]!;
}
