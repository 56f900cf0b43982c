// A grid that cannot show every pane says so: at 80×24 a forced grid of 8 tasks shows
// a page of them, and the footer's `+N more` tells the operator the rest are there.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {plannedTasks, render} from '../helpers/render.js';

afterEach(cleanup);

describe('panes off screen', () => {
	test('the footer says how many panes the grid does not show, wherever the focus is', async () => {
		const view = render({tasks: plannedTasks(8), columns: 80, rows: 24});
		view.store.getState().toggleLayout('list');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('t01 Goal number 1');
		});
		const footer = () => view.frame().split('\n').at(-1)!;
		const shown = () => plannedTasks(8).filter(task => view.frame().includes(`${task.id} Goal number`)).length;
		await vi.waitFor(() => {
			expect(footer()).toMatch(/^\+\d+ more {2}/);
		});
		expect(footer()).toContain(`+${8 - shown()} more`);
		expect(view.frame()).not.toContain('t08 Goal number 8');

		// On the last page the panes above are the ones off screen.
		view.store.getState().focus('t08');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('t08 Goal number 8');
		});
		expect(footer()).toContain(`+${8 - shown()} more`);
	});

	test('no sign when every pane is on screen', async () => {
		const view = render({tasks: plannedTasks(2), columns: 120, rows: 30});
		await vi.waitFor(() => {
			expect(view.frame()).toContain('t02 Goal number 2');
		});
		expect(view.frame().split('\n').at(-1)).not.toContain('more');
	});
});
