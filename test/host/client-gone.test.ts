// A client killed -9 is not always heard as a close: when the host writes to it before it has read
// the end of the connection, the write fails (EPIPE) and the socket reports an error first. host.log
// must say it went away either way. Real sockets: a client destroyed, then an event pushed to it.
import {mkdtempSync, rmSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {AttachedClient, type ClientHost} from '../../src/host/attached-client.js';
import {encodeLine, protocolVersion, type BatchSnapshot} from '../../src/wire/protocol.js';
import {waitFor} from '../helpers/wait-for.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe('a client that vanishes', () => {
	it('is logged as gone without detaching when the host hears of it as a failed write', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-client-gone-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const logs: string[] = [];
		const changes: string[] = [];
		const errors: string[] = [];
		let attached: AttachedClient | undefined;
		const host: ClientHost = {
			runId: 'r1',
			maxQueueBytes: 1 << 20,
			log: line => logs.push(line),
			// Only its bytes matter here: the client under test never reads it.
			snapshot: () => ({} as unknown as BatchSnapshot),
			outputs: () => [],
			answer: async () => null,
			changed: (_client, what) => changes.push(what),
		};
		const server = net.createServer(socket => {
			socket.on('error', error => errors.push((error as NodeJS.ErrnoException).code ?? error.message));
			attached = new AttachedClient(socket, 1, host);
			attached.greet();
		});
		const socketPath = path.join(dir, 'host.sock');
		await new Promise<void>(resolve => server.listen(socketPath, resolve));
		cleanups.push(() => server.close());

		const client = net.connect(socketPath);
		client.on('error', () => undefined);
		client.write(encodeLine({type: 'hello', protocol: protocolVersion, client: 'killed'}));
		await waitFor(() => changes.includes('attached'), {message: 'the client attached'});

		// Gone at once, and before the host's side has read the end of it, an event for it.
		client.destroy();
		attached!.event({seq: 1, event: {type: 'task.waiting', id: 't01', waitingFor: null, at: 0}});
		await waitFor(() => changes.includes('closed'), {message: 'the client counted out'});
		expect(logs).toContainEqual(expect.stringMatching(/^client #1 \(killed\): went away without detaching/));
		expect(logs.filter(line => line.includes('went away'))).toHaveLength(1);
		// The way it was heard: the write failed, not a close first.
		expect(errors).toEqual(['EPIPE']);
	});
});
