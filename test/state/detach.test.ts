// d (detach): the dashboard of a batch in a runner host may leave it running; nothing is sent to
// the batch. Only with a host, and at a question only as the quit question's third answer.
import {describe, expect, it} from 'vitest';
import {createBatchStore} from '../../src/state/store.js';
import {outputControl} from '../../src/host/control.js';
import type {BatchControl} from '../../src/wire/port.js';
import {plannedTasks, t0} from '../helpers/render.js';

function setup(canDetach: boolean) {
	const calls: string[] = [];
	const control: BatchControl = {
		async cancel(id) {
			calls.push(`cancel ${id}`);
			return true;
		},
		async shutdown() {
			calls.push('shutdown');
		},
		...outputControl(() => undefined),
	};
	const store = createBatchStore({control, plan: {mode: 'model_map', tasks: plannedTasks(2), warnings: []}, runId: 'run-1', runDir: '/tmp/run-1', concurrency: 2, graceMs: 5000, now: t0});
	store.setState({canDetach});
	return {store, calls};
}

describe('detach', () => {
	it('asks for the detach and stops nothing', () => {
		const {store, calls} = setup(true);
		store.getState().detach();
		expect(store.getState().detachRequested).toBe(true);
		expect(store.getState().quitting).toBe(false);
		expect(calls).toEqual([]);
	});

	it('answers the quit question as its third answer, and no other question', () => {
		const {store} = setup(true);
		store.getState().requestCancel(false);
		expect(store.getState().overlay).toMatchObject({kind: 'confirm', question: {action: 'cancel'}});
		store.getState().detach();
		expect(store.getState().detachRequested).toBe(false);
		store.getState().confirmNo();
		store.getState().requestQuit();
		store.getState().detach();
		expect(store.getState().detachRequested).toBe(true);
		expect(store.getState().overlay).toBeNull();
	});

	it('does nothing without a runner host (the in-process store), nor while quitting', () => {
		const {store} = setup(false);
		store.getState().detach();
		expect(store.getState().detachRequested).toBe(false);
		const hosted = setup(true).store;
		hosted.setState({quitting: true});
		hosted.getState().detach();
		expect(hosted.getState().detachRequested).toBe(false);
	});
});
