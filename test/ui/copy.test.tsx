// y copies the focused task's answer to the clipboard: OSC 52 where the terminal allows
// it, and a notice that always says where else the text is, since no terminal says whether it took it.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {osc52} from '../../src/commands/mount-dashboard.js';
import {finishTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

describe('copy the answer', () => {
	test('y on a finished task hands its answer to the clipboard and says where else it is', async () => {
		const view = render({tasks: plannedTasks(2), columns: 160, rows: 30});
		startTask(view.store, 't01', t0);
		finishTask(view.store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0, answer: 'Paris.'});
		await vi.waitFor(() => {
			expect(view.frame().split('\n').at(-1)).toContain('y copy');
		});
		view.stdin.write('y');
		await vi.waitFor(() => {
			expect(view.store.getState().clipboard).toEqual({text: 'Paris.', serial: 1});
		});
		expect(view.store.getState().notice).toContain('t01\'s answer (6 characters) sent to the clipboard (OSC 52)');
		expect(view.store.getState().notice).toContain('hermes-delegate logs run-test t01');
	});

	test('an answer with escape sequences is copied without them: nothing of it may act on the terminal that pastes it', async () => {
		const view = render({tasks: plannedTasks(2), columns: 160, rows: 30});
		startTask(view.store, 't01', t0);
		finishTask(view.store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0, answer: 'Par\u001B[2Jis\u001B]0;title\u0007.\r\nNext'});
		await vi.waitFor(() => {
			expect(view.frame().split('\n').at(-1)).toContain('y copy');
		});
		view.stdin.write('y');
		await vi.waitFor(() => {
			expect(view.store.getState().clipboard).toEqual({text: 'Paris.\nNext', serial: 1});
		});
		expect(view.store.getState().notice).toContain('t01\'s answer (11 characters) sent to the clipboard (OSC 52)');
	});

	test('a task without an answer is not offered, and pressed anyway says where its output is', async () => {
		const view = render({tasks: plannedTasks(2), columns: 160, rows: 30});
		startTask(view.store, 't01', t0);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('running');
		});
		expect(view.frame().split('\n').at(-1)).not.toContain('y copy');
		view.stdin.write('y');
		await vi.waitFor(() => {
			expect(view.store.getState().notice).toContain('t01 has no answer to copy (running)');
		});
		expect(view.store.getState().clipboard).toBeNull();
	});

	test('the sequence carries the text as base64: nothing in it can act on the terminal', () => {
		expect(osc52('a\u001B[2Jb')).toBe(`\u001B]52;c;${Buffer.from('a\u001B[2Jb').toString('base64')}\u0007`);
	});
});
