// s sorts the grid and the list, f shows only some statuses (as k9s and process-compose
// users expect); the footer says the order and the filter while they are not the default, and
// focus moves through the panes as they are shown.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {finishTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

function batch() {
	const view = render({tasks: plannedTasks(4), columns: 160, rows: 40});
	startTask(view.store, 't01', t0);
	finishTask(view.store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0});
	startTask(view.store, 't02', t0 + 2000);
	startTask(view.store, 't03', t0 + 1000);
	finishTask(view.store, 't03', 'failed', {startedAt: t0 + 1000, finishedAt: t0 + 3000, exitCode: 1});
	return view;
}

/** The task ids in the order the frame shows their panes. */
function shown(frame: string): string[] {
	return ['t01', 't02', 't03', 't04']
		.map(id => ({id, at: frame.search(new RegExp(`${id} Goal number`))}))
		.filter(entry => entry.at !== -1)
		.sort((a, b) => a.at - b.at)
		.map(entry => entry.id);
}

describe('sort and filter', () => {
	test('s sorts by status: running, failed, queued, done; the footer says so', async () => {
		const view = batch();
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t01', 't02', 't03', 't04']);
		});
		view.stdin.write('s');
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t02', 't03', 't04', 't01']);
		});
		expect(view.frame().split('\n').at(-1)).toContain('s sorted by status');
	});

	test('f shows only the active tasks, then only the failed ones; focus stays on a shown pane and moves among them', async () => {
		const view = batch();
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t01', 't02', 't03', 't04']);
		});
		view.stdin.write('f');
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t02', 't04']);
		});
		expect(view.frame().split('\n').at(-1)).toContain('f only active');
		// The header still counts every task.
		expect(view.frame()).toContain('4 tasks');
		expect(view.store.getState().focusedId).toBe('t02');
		view.store.getState().moveFocus('next', 2);
		expect(view.store.getState().focusedId).toBe('t04');

		view.stdin.write('f');
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t03']);
		});
		expect(view.store.getState().focusedId).toBe('t03');
	});
});
