// A short pane folds its spend and activity lines onto one row: both say
// little that changes early on ("spend not read yet", "no tool call yet"), and on two rows they
// left a pane of seven lines one line of output.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {planFrame} from '../../src/ui/layout.js';
import {plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

describe('a short pane', () => {
	test('8 tasks at 80×36: panes of 8 rows show spend and activity on one row, and 3 lines of output', async () => {
		const plan = planFrame({columns: 80, rows: 36, taskCount: 8, preference: 'auto', warnings: false, statusLine: false, confirm: 0});
		expect(plan.tooSmall ? undefined : plan.body).toMatchObject({kind: 'grid', columns: 2, paneHeight: 8});
		const view = render({tasks: plannedTasks(8), columns: 80, rows: 36});
		startTask(view.store, 't01', t0);
		view.control.write('t01', ['out-1', 'out-2', 'out-3', 'out-4', 'out-5']);
		view.control.publish();
		await vi.waitFor(() => {
			expect(view.frame()).toContain('out-5');
		});
		const frame = view.frame();
		expect(frame).toContain('out-3');
		expect(frame).toContain('out-4');
		expect(frame).not.toContain('out-2');
		const status = frame.split('\n').filter(line => line.includes('spend ?'));
		expect(status).toHaveLength(1);
		expect(status[0]).toMatch(/spend \? · .*tool/);
	});

	test('a tall pane keeps them on two rows, each whole', async () => {
		const view = render({tasks: plannedTasks(2), columns: 160, rows: 40});
		startTask(view.store, 't01', t0);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('spend not read yet (? = unknown)');
		});
		expect(view.frame()).toContain('no output yet · no tool call yet');
	});
});
