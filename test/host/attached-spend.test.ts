// The `$` table and the header's spend in a dashboard attached over the socket: made from the
// store the host's events and snapshot fill (no runner object on this side), they sum what the
// report sums — every attempt, a re-routed task's earlier one included — whether the client was
// there from the start or attached at the end. Real fakes write a real state.db here.
import {afterEach, describe, expect, it} from 'vitest';
import {connectToBatch} from '../../src/client/connection.js';
import {storeFromSnapshot} from '../../src/client/attach-store.js';
import {feedStore} from '../../src/state/feed.js';
import {batchSpendSummary, spendTable} from '../../src/state/spend-view.js';
import type {BatchStore} from '../../src/state/store-types.js';
import {hostFakeBatch, type HostedFakeBatch} from '../helpers/hosted-batch.js';
import {scratchAfterEach} from '../helpers/scratch.js';
import {waitFor} from '../helpers/wait-for.js';

const scratch = scratchAfterEach();
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dashboard(batch: HostedFakeBatch): Promise<BatchStore> {
	const connection = await connectToBatch(batch.socketPath, {client: 'dashboard'});
	const store = storeFromSnapshot(connection);
	const stop = feedStore(store, connection.source);
	cleanups.push(() => {
		stop();
		connection.close();
	});
	return store;
}

describe('spend in an attached dashboard', () => {
	it('sums every attempt as the report does, a re-routed one included, for a client there from the start and one attached at the end', async () => {
		const never = `${scratch.folder('attached-spend-')}/never`;
		const batch = await hostFakeBatch(scratch, [
			`[fake:until-file=${never}] [fake:ready] [fake:tokens=700,70] keeps the batch open`,
			'[fake:fail] [fake:tokens=300,30] fails first',
			'[fake:tokens=100,10] [fake:cost=0.25] succeeds',
		], {steered: true, spend: true});
		cleanups.push(async () => batch.server.close());
		cleanups.push(() => batch.runner.shutdown({skipGrace: true}));
		const early = await dashboard(batch);
		const finished = batch.runner.start();
		await waitFor(() => early.getState().tasks['t02']?.status === 'failed' && early.getState().tasks['t03']?.status === 'succeeded', {message: 't02 failed and t03 succeeded'});
		expect((await batch.control.reroute!('t02', 'deep')).ok).toBe(true);
		await waitFor(() => early.getState().tasks['t02']?.attempt === 2 && early.getState().tasks['t02']?.status === 'failed', {message: "t02's second attempt to end"});
		await batch.control.cancel('t01', {skipGrace: true});
		const report = await finished;
		await waitFor(() => early.getState().report !== null, {message: "the early client's batch.finished"});
		const late = await dashboard(batch);

		expect(report.spend?.total.attempts).toBe(4);
		expect(report.spend?.by_route['deep']?.attempts).toBe(1);
		for (const store of [early, late]) {
			expect(spendTable(store.getState())).toEqual(report.spend);
			expect(batchSpendSummary(store.getState()).attempts).toBe(4);
		}

		// Hermes keeps zeros for failed and interrupted turns: those three attempts are unknown, so the
		// header's 110 tokens (t03's) are a lower bound, never a total with zeros in it.
		expect(report.spend?.total.unknown_attempts).toBe(3);
		expect(batchSpendSummary(late.getState())).toMatchObject({tokens: 110, tokensPartial: true, costUsd: 0.25, costPartial: true});
	});
});
