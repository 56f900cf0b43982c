// d: a dashboard attached to a runner host leaves and the batch runs on; q's question offers it
// too. Without a runner host (the in-process store) there is nothing to detach from.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {finishBatch, finishTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';
import {questionOf} from '../helpers/overlay.js';
import {confirmQuestion, confirmText} from '../../src/ui/components/ConfirmBar.js';
import {defaultBindings} from '../../src/ui/keys/keys.js';

afterEach(cleanup);

const escape = '\u001B';

/** A dashboard as the runner host's client sets it up (commands/dashboard.tsx). */
function attached(options: Parameters<typeof render>[0]) {
	const view = render(options);
	view.store.setState({canDetach: true});
	return view;
}

describe('detach', () => {
	test('d leaves the batch running: the dashboard asks to go, nothing is stopped', async () => {
		const view = attached({tasks: plannedTasks(2), columns: 120, rows: 24});
		startTask(view.store, 't01', t0);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('detach');
		});
		view.stdin.write('d');
		await vi.waitFor(() => {
			expect(view.store.getState().detachRequested).toBe(true);
		});
		expect(view.control.calls).toEqual([]);
		expect(view.store.getState().quitting).toBe(false);
	});

	test('at the quit question, d detaches instead of stopping, and the question says so', async () => {
		const view = attached({tasks: plannedTasks(2), columns: 120, rows: 24});
		startTask(view.store, 't01', t0);
		view.stdin.write('q');
		await vi.waitFor(() => {
			expect(questionOf(view.store.getState())?.action).toBe('quit');
		});
		await vi.waitFor(() => {
			// The question wraps over the bar's lines: read it as one text.
			expect(view.frame().replaceAll(/\s+/g, ' ')).toContain('Or detach: the batch runs on.');
		});
		view.stdin.write('d');
		await vi.waitFor(() => {
			expect(view.store.getState().detachRequested).toBe(true);
		});
		expect(view.control.calls).toEqual([]);
	});

	test('at another question d is no answer; n there still backs out', async () => {
		const view = attached({tasks: plannedTasks(2), columns: 120, rows: 24});
		startTask(view.store, 't01', t0);
		view.stdin.write('c');
		await vi.waitFor(() => {
			expect(questionOf(view.store.getState())?.action).toBe('cancel');
		});
		view.stdin.write('d');
		view.stdin.write(escape);
		await vi.waitFor(() => {
			expect(questionOf(view.store.getState())).toBeNull();
		});
		expect(view.store.getState().detachRequested).toBe(false);
		expect(view.control.calls).toEqual([]);
	});

	test('without a runner host d does nothing and is not offered', async () => {
		const view = render({tasks: plannedTasks(2), columns: 120, rows: 24});
		startTask(view.store, 't01', t0);
		view.stdin.write('q');
		await vi.waitFor(() => {
			expect(questionOf(view.store.getState())?.action).toBe('quit');
		});
		expect(view.frame()).not.toContain('detach');
		view.stdin.write('d');
		view.stdin.write(escape);
		await vi.waitFor(() => {
			expect(questionOf(view.store.getState())).toBeNull();
		});
		expect(view.store.getState().detachRequested).toBe(false);
	});

	test('once nothing runs any more, the quit question no longer offers detaching', async () => {
		const view = attached({tasks: plannedTasks(1), columns: 120, rows: 24});
		startTask(view.store, 't01', t0);
		view.stdin.write('q');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('Or detach');
		});
		finishTask(view.store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000});
		finishBatch(view.store, t0 + 1000);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('Quit? Nothing is running any more.');
		});
		expect(view.frame()).not.toContain('Or detach');
	});

	test('with nothing left running, q quits at once: no question, no detach', async () => {
		const view = attached({tasks: plannedTasks(1), columns: 120, rows: 24});
		startTask(view.store, 't01', t0);
		finishTask(view.store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000});
		finishBatch(view.store, t0 + 1000);
		view.stdin.write('q');
		await vi.waitFor(() => {
			expect(view.store.getState().exitRequested).toBe(true);
		});
		expect(view.frame()).not.toContain('Quit?');
		expect(view.store.getState().detachRequested).toBe(false);
	});

	test('the frame keeps room for the quit question\'s third answer where /d takes the bar onto another line', async () => {
		const first = attached({tasks: plannedTasks(2), columns: 120, rows: 24});
		startTask(first.store, 't01', t0);
		first.stdin.write('q');
		await vi.waitFor(() => {
			expect(questionOf(first.store.getState())?.action).toBe('quit');
		});
		const question = confirmQuestion(first.store.getState());
		cleanup();
		// A width where y/n fits the question's last line and y/n/d does not.
		const columns = Array.from({length: 160}, (_, index) => 40 + index)
			.find(width => confirmText(question, width, defaultBindings, true).length > confirmText(question, width, defaultBindings).length);
		expect(columns).toBeDefined();
		const view = attached({tasks: plannedTasks(2), columns, rows: 24});
		startTask(view.store, 't01', t0);
		view.stdin.write('q');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('y/n/d');
		});
		const lines = view.frame().split('\n');
		// The layout keeps one row spare (ui/layout.ts): a frame as tall as the terminal makes Ink repaint it whole.
		expect(lines.length).toBeLessThanOrEqual(23);
		expect(lines.at(-1)).toMatch(/detach/);
	});
});
