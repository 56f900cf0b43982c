// The keyboard, end to end through the binding table: focus moves, and nothing is stopped
// without the operator saying yes to a question that names what will happen.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {resolveBindings} from '../../src/ui/keys/keys.js';
import {finishBatch, finishTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';
import {questionOf, zoomOf} from '../helpers/overlay.js';

afterEach(cleanup);

const keys = {up: '\u001B[A', down: '\u001B[B', right: '\u001B[C', left: '\u001B[D', tab: '\t', shiftTab: '\u001B[Z', enter: '\r', escape: '\u001B'};

/** The focused pane is the one drawn with the heavy border. */
function focusedPane(frame: string): string | undefined {
	return /┃ (t\d\d) /.exec(frame)?.[1];
}

describe('focus', () => {
	test('arrows, hjkl and tab move the focus through the grid', async () => {
		// 6 tasks at 120x20 are a 3-column grid (two rows of three 40-column panes).
		const {frame, stdin} = render({tasks: plannedTasks(6), columns: 120, rows: 20});
		await vi.waitFor(() => {
			expect(focusedPane(frame())).toBe('t01');
		});

		const steps: Array<[string, string]> = [
			[keys.right, 't02'],
			['l', 't03'],
			[keys.down, 't06'],
			['k', 't03'],
			['h', 't02'],
			[keys.left, 't01'],
			['j', 't04'],
			[keys.up, 't01'],
			[keys.tab, 't02'],
			[keys.shiftTab, 't01'],
			// Tab wraps around; arrows stop at the edge.
			[keys.shiftTab, 't06'],
			[keys.down, 't06'],
		];
		for (const [key, expected] of steps) {
			stdin.write(key);
			await vi.waitFor(() => {
				expect(focusedPane(frame())).toBe(expected);
			});
		}
	});

	test('keys that arrive together in one read each act, in order', async () => {
		// 6 tasks at 120x20 are a 3-column grid.
		const {frame, stdin, store} = render({tasks: plannedTasks(6), columns: 120, rows: 20});
		stdin.write('ll');
		await vi.waitFor(() => {
			expect(focusedPane(frame())).toBe('t03');
		});
		stdin.write('jh');
		await vi.waitFor(() => {
			expect(focusedPane(frame())).toBe('t05');
		});
		// `tmux send-keys k h Enter`: Enter in the same read as the letters.
		stdin.write('kh\r');
		await vi.waitFor(() => {
			expect(frame()).toContain('why: characteristic quick');
		});
		expect(zoomOf(store.getState().overlay)?.taskId).toBe('t01');
	});

	test('Esc and a key typed right after it (one sequence, as for Alt+key) act as Esc, then the key', async () => {
		const {frame, stdin, store} = render({tasks: plannedTasks(6), columns: 100, rows: 30});
		startTask(store, 't02', t0);
		stdin.write(keys.enter);
		await vi.waitFor(() => {
			expect(zoomOf(store.getState().overlay)?.taskId).toBe('t01');
		});
		// Out of the zoom, then one step right in the grid.
		stdin.write(`${keys.escape}l`);
		await vi.waitFor(() => {
			expect(focusedPane(frame())).toBe('t02');
		});
		expect(zoomOf(store.getState().overlay)).toBeNull();
		// A capital keeps its shift: K (kill) asks about the focused task.
		stdin.write(`${keys.escape}K`);
		await vi.waitFor(() => {
			expect(frame()).toContain("Kill t02 'Goal number 2' now?");
		});
	});

	test('in the list, up and down move one task', async () => {
		const {frame, stdin, store} = render({tasks: plannedTasks(8), columns: 80, rows: 20});
		await vi.waitFor(() => {
			expect(frame()).toContain('› t01');
		});
		stdin.write(keys.down);
		await vi.waitFor(() => {
			expect(frame()).toContain('› t02');
		});
		expect(store.getState().focusedId).toBe('t02');
	});
});

describe('cancel and kill ask first', () => {
	async function withRunningTask() {
		const view = render({tasks: plannedTasks(2), columns: 100, rows: 24, graceMs: 5000});
		startTask(view.store, 't01', t0);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('● running');
		});
		return view;
	}

	test('c asks, naming the task and the signals; y cancels with the grace period', async () => {
		const {frame, stdin, control} = await withRunningTask();
		stdin.write('c');
		await vi.waitFor(() => {
			expect(frame()).toContain("Cancel t01 'Goal number 1'? SIGTERM to its process group, SIGKILL after 5s. y/n");
		});
		expect(control.calls).toEqual([]);

		stdin.write('y');
		await vi.waitFor(() => {
			expect(frame()).not.toContain('Cancel t01');
		});
		expect(control.calls).toEqual([{method: 'cancel', id: 't01', options: {skipGrace: false}}]);
	});

	test.each([['n', 'n'], ['Esc', keys.escape]])('%s backs out and stops nothing', async (_name, key) => {
		const {frame, stdin, control} = await withRunningTask();
		stdin.write('c');
		await vi.waitFor(() => {
			expect(frame()).toContain('Cancel t01');
		});
		stdin.write(key);
		await vi.waitFor(() => {
			expect(frame()).not.toContain('Cancel t01');
		});
		expect(control.calls).toEqual([]);
		expect(frame()).toContain('c cancel');
	});

	test('K asks to kill now, and y kills without the grace period', async () => {
		const {frame, stdin, control} = await withRunningTask();
		stdin.write('K');
		await vi.waitFor(() => {
			expect(frame()).toContain("Kill t01 'Goal number 1' now? SIGKILL to its process group, no grace period.");
		});
		stdin.write('y');
		await vi.waitFor(() => {
			expect(control.calls).toEqual([{method: 'cancel', id: 't01', options: {skipGrace: true}}]);
		});
	});

	test('a task on a worker host: the question says on which worker its group is', async () => {
		const view = render({tasks: plannedTasks(1), columns: 120, rows: 24, graceMs: 5000});
		view.store.getState().applyEvent({type: 'task.started', id: 't01', pid: 1000, argv: ['hermes', 'chat'], host: 'gpu-box', at: t0});
		view.stdin.write('c');
		await vi.waitFor(() => {
			expect(view.frame()).toContain("Cancel t01 'Goal number 1'? SIGTERM to its process group on worker gpu-box, SIGKILL after 5s.");
		});
		view.stdin.write('n');
		await vi.waitFor(() => {
			expect(view.frame()).not.toContain('Cancel t01');
		});
		view.stdin.write('K');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('SIGKILL to its process group on worker gpu-box, no grace period.');
		});
	});

	test('c and y typed together cancel; in the prompt, q does nothing and only y/n are offered', async () => {
		const {frame, stdin, control, store} = await withRunningTask();
		stdin.write('c');
		await vi.waitFor(() => {
			expect(frame()).toContain('Cancel t01');
		});
		expect(frame()).not.toContain('q quit');
		expect(frame()).toMatch(/^y yes {2}n no\s*$/m);
		stdin.write('q');
		stdin.write('n');
		await vi.waitFor(() => {
			expect(frame()).not.toContain('Cancel t01');
		});
		expect(questionOf(store.getState())).toBeNull();
		expect(control.calls).toEqual([]);

		stdin.write('cy');
		await vi.waitFor(() => {
			expect(control.calls).toEqual([{method: 'cancel', id: 't01', options: {skipGrace: false}}]);
		});
	});

	test('a queued task: the question says it will not be started, not which signals a process gets', async () => {
		const {frame, stdin, control} = render({tasks: plannedTasks(2), columns: 100, rows: 24, graceMs: 30_000});
		for (const key of ['c', 'K']) {
			stdin.write(key);
			await vi.waitFor(() => {
				expect(frame()).toContain("Cancel t01 'Goal number 1'? It is still queued: it will not be started. y/n");
			});
			expect(frame()).not.toContain('SIGTERM');
			expect(frame()).not.toContain('SIGKILL');
			stdin.write('n');
			await vi.waitFor(() => {
				expect(frame()).not.toContain('Cancel t01');
			});
		}

		expect(control.calls).toEqual([]);
	});

	test('a finished task cannot be cancelled, and the footer does not offer it', async () => {
		const {frame, stdin, store, control} = await withRunningTask();
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0});
		await vi.waitFor(() => {
			expect(frame()).toContain('✓ succeeded');
		});
		expect(frame()).not.toContain('c cancel');
		stdin.write('c');
		await vi.waitFor(() => {
			expect(frame()).toContain('has already succeeded');
		});
		expect(frame()).not.toContain('Cancel t01');
		expect(control.calls).toEqual([]);
	});

	test('remapped keys act and are shown as remapped', async () => {
		const view = render({tasks: plannedTasks(2), bindings: resolveBindings({'task.cancel': ['x']})});
		startTask(view.store, 't01', t0);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('x cancel');
		});
		view.stdin.write('c');
		view.stdin.write('x');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('Cancel t01');
		});
		view.stdin.write('y');
		await vi.waitFor(() => {
			expect(view.control.calls).toEqual([{method: 'cancel', id: 't01', options: {skipGrace: false}}]);
		});
	});
});

describe('quit', () => {
	test('with tasks running it asks, then stops them and shows what is still stopping', async () => {
		const {frame, stdin, store, control} = render({tasks: plannedTasks(3), columns: 100, rows: 24});
		startTask(store, 't01', t0);
		startTask(store, 't02', t0);
		await vi.waitFor(() => {
			expect(frame()).toContain('2 running');
		});

		stdin.write('q');
		await vi.waitFor(() => {
			// The question wraps rather than being cut.
			expect(frame().replaceAll('\n', ' ')).toContain('Quit? Stops 2 running tasks: SIGTERM to each process group, SIGKILL after 5s; 1 queued task will not start. y/n');
		});
		expect(control.calls).toEqual([]);
		expect(store.getState().exitRequested).toBe(false);

		stdin.write('y');
		await vi.waitFor(() => {
			expect(frame()).toContain('quitting: stopping 2 tasks (t01, t02)… K kills now');
		});
		expect(control.calls).toEqual([{method: 'shutdown', options: {skipGrace: false}}]);
		// q is no longer offered; K's hint says what it does now.
		expect(frame()).not.toContain('q quit');
		expect(frame()).toContain('K kill all now');

		stdin.write('K');
		await vi.waitFor(() => {
			expect(control.calls).toEqual([{method: 'shutdown', options: {skipGrace: false}}, {method: 'shutdown', options: {skipGrace: true}}]);
		});
	});

	test('Ctrl+C escalates: it asks, then again is yes, then again kills what is left now', async () => {
		const {frame, stdin, store, control} = render({tasks: plannedTasks(2), columns: 100, rows: 24});
		startTask(store, 't01', t0);
		const ctrlC = '\u0003';
		stdin.write(ctrlC);
		await vi.waitFor(() => {
			expect(frame()).toContain('Quit?');
		});
		expect(control.calls).toEqual([]);

		stdin.write(ctrlC);
		await vi.waitFor(() => {
			expect(frame()).toContain('quitting: stopping 1 task (t01)');
		});
		expect(control.calls).toEqual([{method: 'shutdown', options: {skipGrace: false}}]);

		stdin.write(ctrlC);
		await vi.waitFor(() => {
			expect(control.calls).toEqual([{method: 'shutdown', options: {skipGrace: false}}, {method: 'shutdown', options: {skipGrace: true}}]);
		});
	});

	test('Ctrl+C at a cancel question asks about quitting instead: it never answers yes to another question', async () => {
		const {frame, stdin, store, control} = render({tasks: plannedTasks(2), columns: 100, rows: 24});
		startTask(store, 't01', t0);
		stdin.write('c');
		await vi.waitFor(() => {
			expect(frame()).toContain('Cancel t01');
		});
		stdin.write('\u0003');
		await vi.waitFor(() => {
			expect(frame()).toContain('Quit?');
		});
		expect(control.calls).toEqual([]);
	});

	test('n keeps the batch running', async () => {
		const {frame, stdin, store, control} = render({tasks: plannedTasks(1)});
		startTask(store, 't01', t0);
		stdin.write('q');
		await vi.waitFor(() => {
			expect(frame()).toContain('Quit?');
		});
		stdin.write('n');
		await vi.waitFor(() => {
			expect(frame()).not.toContain('Quit?');
		});
		expect(control.calls).toEqual([]);
		expect(store.getState().quitting).toBe(false);
	});

	test('with nothing left running, q quits at once: no question', async () => {
		const {frame, stdin, store, control} = render({tasks: plannedTasks(1)});
		startTask(store, 't01', t0);
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0});
		finishBatch(store, t0 + 1000);
		await vi.waitFor(() => {
			expect(frame()).toContain('✓ succeeded');
		});
		stdin.write('q');
		await vi.waitFor(() => {
			expect(store.getState().exitRequested).toBe(true);
		});
		expect(frame()).not.toContain('Quit?');
		// Finished: nothing is left to stop.
		expect(control.calls).toEqual([]);
		expect(store.getState().quitting).toBe(false);
	});

	test('with a task still queued (none running), q asks: quitting would drop it', async () => {
		const {frame, stdin, store} = render({tasks: plannedTasks(2)});
		startTask(store, 't01', t0);
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0});
		await vi.waitFor(() => {
			expect(frame()).toContain('✓ succeeded');
		});
		stdin.write('q');
		await vi.waitFor(() => {
			expect(frame()).toContain('Quit? 1 queued task will not start.');
		});
		expect(store.getState().exitRequested).toBe(false);
	});

	test('a question asked while a task ran, answered y after it ended, quits without stopping anything', async () => {
		const {frame, stdin, store, control} = render({tasks: plannedTasks(1)});
		startTask(store, 't01', t0);
		stdin.write('q');
		await vi.waitFor(() => {
			expect(frame()).toContain('Quit? Stops 1 running task');
		});
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0});
		finishBatch(store, t0 + 1000);
		await vi.waitFor(() => {
			expect(frame()).toContain('Quit? Nothing is running any more. y/n');
		});
		stdin.write('y');
		await vi.waitFor(() => {
			expect(store.getState().exitRequested).toBe(true);
		});
		expect(control.calls).toEqual([]);
	});

});
