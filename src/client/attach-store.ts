// A dashboard's store for a batch served over a socket: the same store as in-process, made from
// the snapshot's plan and brought to the host's state by replaying the snapshot's events, in order.
// Feed it afterwards with feedStore(store, connection.source) (events and output pushes).
import {createBatchStore} from '../state/store.js';
import type {BatchStore} from '../state/store-types.js';
import type {BatchConnection} from './connection.js';

export function storeFromSnapshot(connection: BatchConnection): BatchStore {
	const {snapshot, control} = connection;
	const planned = snapshot.events.find(({event}) => event.type === 'batch.planned');
	// The header's clock counts from when the batch began, not from when this client attached.
	const store = createBatchStore({control, plan: snapshot.plan, runId: snapshot.runId, runDir: snapshot.runDir, concurrency: snapshot.concurrency, graceMs: snapshot.graceMs, ...(snapshot.origin === undefined ? {} : {origin: snapshot.origin}), ...(planned ? {now: planned.event.at} : {})});
	for (const {event} of snapshot.events) {
		store.getState().applyEvent(event);
	}

	store.getState().takeOutput(snapshot.outputs);
	store.getState().tick(Date.now());
	return store;
}
