// `cancel` asks nobody: what it prints is the dashboard's confirm question said as what is being
// done, for every form the question takes.
import {describe, expect, test} from 'vitest';
import {statement} from '../../src/commands/cancel.js';
import {confirmQuestion} from '../../src/ui/components/ConfirmBar.js';
import {plannedTasks, render, startTask, t0} from '../helpers/render.js';
import type {ConfirmQuestion} from '../../src/state/overlay.js';

describe('cancel\'s notice', () => {
	test('no form of it is a question', () => {
		const view = render({tasks: plannedTasks(3), columns: 120, rows: 30});
		startTask(view.store, 't01', t0);
		const said = (question: ConfirmQuestion, kill = false) => statement(confirmQuestion({...view.store.getState(), overlay: {kind: 'confirm', question, under: null}}) ?? '', kill);
		const lines = [
			said({action: 'quit'}),
			said({action: 'quit'}, true),
			said({action: 'cancel', taskId: 't01'}),
			said({action: 'kill', taskId: 't01'}, true),
			said({action: 'cancel', taskId: 't02'}),
		];
		expect(lines[0]).toMatch(/^stopping 1 running task: SIGTERM to each process group, SIGKILL after 5(\.0)? ?s; 2 queued tasks will not start\.$/);
		expect(lines[1]).toMatch(/^stopping 1 running task: SIGKILL to each process group, no grace period; 2 queued tasks will not start\.$/);
		expect(lines[2]).toMatch(/^cancelling t01 'Goal number 1': SIGTERM to its process group, SIGKILL after/);
		expect(lines[3]).toBe('killing t01 \'Goal number 1\' now: SIGKILL to its process group, no grace period.');
		expect(lines[4]).toBe('cancelling t02 \'Goal number 2\': it is still queued: it will not be started.');
		for (const line of lines) expect(line).not.toContain('?');
		view.unmount();
	});
});
