// o asks for the focused task's log in $PAGER: offered once the task has a log; the
// dashboard command does the rest (test/e2e/pager-pty.test.ts).
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

describe('o: open the log', () => {
	test('a started task: offered in the footer, and o asks for its log', async () => {
		const view = render({tasks: plannedTasks(2), columns: 160, rows: 30});
		startTask(view.store, 't01', t0);
		await vi.waitFor(() => {
			expect(view.frame().split('\n').at(-1)).toContain('o open log');
		});
		view.stdin.write('o');
		await vi.waitFor(() => {
			expect(view.store.getState().pager).toEqual({taskId: 't01', serial: 1});
		});
	});

	test('a task that never started: not offered, and pressed anyway says why', async () => {
		const view = render({tasks: plannedTasks(2), columns: 160, rows: 30});
		await vi.waitFor(() => {
			expect(view.frame()).toContain('t02');
		});
		expect(view.frame().split('\n').at(-1)).not.toContain('open log');
		view.stdin.write('o');
		await vi.waitFor(() => {
			expect(view.store.getState().notice).toBe('t01 has no log yet (queued): it has not started');
		});
		expect(view.store.getState().pager).toBeNull();
	});
});
