// The dashboard of a batch on worker hosts: the header's workers line (free slots, lost
// workers, the runner host's own NATS connection) and the host on each pane that runs or ran remotely.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import type {FleetStanding} from '../../src/core/types.js';
import {plannedTasks, render, t0} from '../helpers/render.js';

afterEach(cleanup);

const fleet: FleetStanding = {
	server: 'nats://10.0.0.5:4222',
	offlineSince: null,
	workers: [{name: 'gpu-1', slots: 4, free: 1}, {name: 'gpu-2', slots: 2, free: 2}],
	lost: [],
};

describe('the workers line and the host per pane', () => {
	test('a batch run here has no workers line; one on workers says who is live with their free slots', async () => {
		const {frame, store} = render({tasks: plannedTasks(2), columns: 160});
		expect(frame()).not.toContain('workers:');
		store.getState().applyEvent({type: 'batch.fleet', fleet, at: t0});
		await vi.waitFor(() => {
			expect(frame()).toContain('workers: gpu-1 1/4 free · gpu-2 2/2 free');
		});
	});

	test('a lost worker is named with why; NATS lost says so with how long, until it is back', async () => {
		const {frame, store} = render({tasks: plannedTasks(1), columns: 200});
		store.getState().applyEvent({type: 'batch.fleet', fleet: {...fleet, workers: [fleet.workers[1]!], lost: [{name: 'gpu-1', why: 'no heartbeat for 6.1 s (it beats every 2 s)', at: t0}]}, at: t0});
		await vi.waitFor(() => {
			expect(frame()).toContain('workers: gpu-2 2/2 free · lost: gpu-1 (no heartbeat for 6.1 s');
		});
		store.getState().applyEvent({type: 'batch.fleet', fleet: {...fleet, offlineSince: t0}, at: t0});
		store.getState().tick(t0 + 12_000);
		await vi.waitFor(() => {
			expect(frame()).toMatch(/⚠ NATS lost 0?:?12s? ago \(nats:\/\/10\.0\.0\.5:4222\): reconnecting by itself/);
		});
		store.getState().applyEvent({type: 'batch.fleet', fleet, at: t0 + 13_000});
		await vi.waitFor(() => {
			expect(frame()).not.toContain('NATS lost');
		});
	});

	test('a pane says which worker host its task runs on, and its result keeps it', async () => {
		const {frame, store} = render({tasks: plannedTasks(1), columns: 160});
		store.getState().applyEvent({type: 'batch.fleet', fleet, at: t0});
		store.getState().applyEvent({type: 'task.started', id: 't01', pid: 4242, argv: ['hermes'], host: 'gpu-2', at: t0});
		await vi.waitFor(() => {
			expect(frame()).toMatch(/on gpu-2 · /);
		});
	});
});
