// A client attached over the socket stands where the in-process store stands: the same tasks with
// the same statuses and results, whether it attached before the first task or in the middle.
import {describe, expect, it} from 'vitest';
import {feedStore} from '../../src/state/feed.js';
import {outputsOf, PaneLedger} from '../../src/host/pane-ledger.js';
import {defaultTailLines} from '../../src/wire/protocol.js';
import {createBatchStore} from '../../src/state/store.js';
import type {BatchStore} from '../../src/state/store-types.js';
import {failureLine} from '../../src/state/task-view.js';
import {hostTestsAfterEach, type HostedFakeBatch} from '../helpers/hosted-batch.js';
import {waitFor} from '../helpers/wait-for.js';

const {host, attachStore, onCleanup} = hostTestsAfterEach();

/** What must agree between two stores of one batch: every task's view (status, result, tail, telemetry…) and the report. */
function batchView(store: BatchStore) {
	const {runId, mode, order, tasks, report, warnings, finishedAt} = store.getState();
	return {runId, mode, order, tasks, report, warnings, finishedAt};
}

function inProcessStore(batch: HostedFakeBatch): BatchStore {
	const store = createBatchStore({control: batch.control, plan: batch.runner.plan, runId: batch.runner.runId, runDir: batch.runDir, concurrency: 4, graceMs: 300});
	const stop = feedStore(store, batch.runner);
	onCleanup(stop);
	return store;
}

const goals = ['[fake:duration=0.3] [fake:lines=30] one', '[fake:duration=0.5] [fake:fail] two', '[fake:duration=0.2] three', '[fake:lines=200] four', '[fake:duration=0.4] five'];

describe('a client over the socket', () => {
	it('sees the state an in-process store sees for the same batch', async () => {
		const batch = await host(goals);
		const local = inProcessStore(batch);
		const {store} = await attachStore(batch);
		const report = await batch.runner.start();
		await waitFor(() => store.getState().report !== null, {message: "the client's batch.finished"});
		local.getState().takeOutput(new PaneLedger(defaultTailLines, false).snapshot(outputsOf(batch.runner)));
		await waitFor(() => JSON.stringify(batchView(store)) === JSON.stringify(batchView(local)), {message: 'the client to have the last output publish'});
		expect(batchView(store)).toEqual(batchView(local));
		expect(store.getState().report?.summary).toBe(report.summary);
		expect(store.getState().tasks['t02']?.status).toBe('failed');
		expect(failureLine(store.getState().tasks['t02']!)).toBeTruthy();
	});

	it('attaching mid-run, it rebuilds the same state from the snapshot and goes on live', async () => {
		const batch = await host(goals);
		const local = inProcessStore(batch);
		const finished = batch.runner.start();
		await waitFor(() => batch.events.some(event => event.type === 'task.finished'), {message: 'a first task to finish'});
		const {connection, store} = await attachStore(batch);
		expect(connection.snapshot.seq).toBeGreaterThan(0);
		expect(connection.snapshot.events.map(entry => entry.seq)).toEqual([...connection.snapshot.events.map(entry => entry.seq)].sort((a, b) => a - b));
		await finished;
		await waitFor(() => store.getState().report !== null, {message: "the client's batch.finished"});
		local.getState().takeOutput(new PaneLedger(defaultTailLines, false).snapshot(outputsOf(batch.runner)));
		await waitFor(() => JSON.stringify(batchView(store)) === JSON.stringify(batchView(local)), {message: 'the client to have the last output publish'});
		expect(batchView(store)).toEqual(batchView(local));
	});
});
