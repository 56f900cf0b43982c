// What a pane says under its route besides errors and countdowns: what a queued task
// waits for, and a running task the runner called stuck, with how long it has been quiet.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

describe('pane notes', () => {
	test('a queued task shows what it waits for, and stops saying it once it runs', async () => {
		const {frame, store} = render({tasks: plannedTasks(2), columns: 160});
		store.getState().applyEvent({type: 'task.waiting', id: 't02', waitingFor: 'waiting for a free openrouter slot (4 of 4 running; concurrency_per_provider)', at: t0});
		await vi.waitFor(() => {
			expect(frame()).toContain('waiting for a free openrouter slot');
		});
		startTask(store, 't02', t0 + 1000);
		await vi.waitFor(() => {
			expect(frame()).not.toContain('waiting for a free openrouter slot');
		});
	});

	test('a running task the runner called stuck says so with its quiet time, until it shows life again', async () => {
		const {frame, store} = render({tasks: plannedTasks(1), columns: 160});
		startTask(store, 't01', t0);
		expect(frame()).not.toContain('stuck?');
		store.getState().applyEvent({type: 'task.stuck', id: 't01', attempt: 1, stuck: true, quietSince: t0, at: t0 + 300_000});
		store.getState().tick(t0 + 312_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('stuck? no output or tool activity for 5m12s');
		});
		store.getState().applyEvent({type: 'task.stuck', id: 't01', attempt: 1, stuck: false, quietSince: t0 + 313_000, at: t0 + 313_000});
		await vi.waitFor(() => {
			expect(frame()).not.toContain('stuck?');
		});
	});
});
