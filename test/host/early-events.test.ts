// Events the host sends right after its snapshot often reach the client in the same read as the
// snapshot, before the caller of connectToBatch could subscribe: they must still reach it.
// (A remote task's task.started, sent as a dashboard attaches, was lost this way: its pane stayed
// queued.)
import {describe, expect, it} from 'vitest';
import {connectToBatch} from '../../src/client/connection.js';
import type {BatchEvent} from '../../src/core/types.js';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {waitFor} from '../helpers/wait-for.js';

const {host, onCleanup} = hostTestsAfterEach();

describe('events right after the snapshot', () => {
	it('reach the first listener, even when they came in the snapshot\'s read', async () => {
		const batch = await host(['[fake:forever]', 'never starts [fake:forever]'], {concurrency: 1});
		void batch.runner.start();
		await waitFor(() => batch.runner.status('t01') === 'running', {message: 't01 running'});
		// The moment the client has its snapshot, the host ends the queued t02: its task.finished is
		// written right behind the snapshot, in the same turn.
		batch.server.onClients(count => {
			if (count === 1) batch.runner.cancel('t02');
		});
		const connection = await connectToBatch(batch.socketPath, {client: 'test'});
		onCleanup(() => connection.close());
		expect(connection.snapshot.events.some(({event}) => event.type === 'task.finished')).toBe(false);
		const heard: BatchEvent[] = [];
		connection.source.subscribe(event => heard.push(event));
		await waitFor(() => heard.some(event => event.type === 'task.finished' && event.id === 't02'), {message: 't02\'s task.finished to reach the listener', timeoutMs: 5000});
	});
});
