// A client says why it leaves (`detach`), so host.log tells a detach from a client that vanished;
// a client that leaves a host that ends because of it is let go only after the host's last line.
// A host from before the message never gets it: the client looks for it in the host's hello.
import net from 'node:net';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {connectToBatch} from '../../src/client/connection.js';
import {startHost} from '../../src/host/main.js';
import {encodeLine, protocolVersion} from '../../src/wire/protocol.js';
import {fakeBatchToHost, hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {rawClient} from '../helpers/raw-socket.js';
import {waitFor} from '../helpers/wait-for.js';

const {scratch, host, onCleanup} = hostTestsAfterEach();

const runaway = '[fake:forever] [fake:ready]';

describe('the detach message', () => {
	it('the host lists it in its hello', async () => {
		const batch = await host([runaway]);
		const client = await rawClient(batch.socketPath);
		onCleanup(() => {
			client.socket.destroy();
		});
		const hello = await client.until('hello');
		expect(hello['features']).toContain('detach');
	});

	it('host.log tells a client that detached from one that vanished; the batch runs on', async () => {
		const batch = await host([runaway]);
		void batch.runner.start();
		const leaving = await connectToBatch(batch.socketPath, {client: 'tui'});
		const vanishing = await connectToBatch(batch.socketPath, {client: 'attach'});
		await waitFor(() => batch.server.clients() === 2, {message: 'both clients attached'});

		expect(await leaving.leave('detach')).toEqual({hostEnds: false, timedOut: false});
		expect(batch.server.clients()).toBe(1);
		vanishing.close(); // no goodbye: as a client killed with SIGKILL
		await waitFor(() => batch.server.clients() === 0, {message: 'the vanished client counted out'});

		expect(batch.logs).toContainEqual(expect.stringMatching(/^client #1 \(tui\): detached \(the operator pressed d\)$/));
		expect(batch.logs).toContainEqual(expect.stringMatching(/^client #2 \(attach\): went away without detaching/));
		expect(batch.logs.filter(line => line.includes('#1') && line.includes('went away'))).toEqual([]);
		expect(batch.runner.status('t01')).toBe('running');
	});

	it('each reason has its own words in the log', async () => {
		const batch = await host([runaway]);
		for (const reason of ['terminal-gone', 'quit', 'done'] as const) {
			const connection = await connectToBatch(batch.socketPath, {client: reason});
			await connection.leave(reason);
		}

		expect(batch.logs.filter(line => / \((terminal-gone|quit|done)\): /.test(line))).toEqual([
			'client #1 (terminal-gone): detached: its terminal went away',
			'client #2 (quit): quit (the operator left the dashboard)',
			'client #3 (done): left: it has what it came for',
		]);
	});

	it('a detach with an unknown reason is a malformed message: that client is closed', async () => {
		const batch = await host([runaway]);
		const client = await rawClient(batch.socketPath);
		client.send(encodeLine({type: 'hello', protocol: protocolVersion}));
		await client.until('snapshot');
		client.send('{"type":"detach","reason":"bored"}\n');
		expect((await client.until('bye'))['reason']).toMatch(/^malformed message: detach: reason/);
	});

	it('a host whose hello lists no detach (an older one) gets no detach message: the client just closes', async () => {
		const folder = scratch.folder('old-host-');
		const socketPath = path.join(folder, 'host.sock');
		const received: string[] = [];
		let closedByClient = false;
		const server = net.createServer(socket => {
			// As every host has done: its hello first, unasked; the snapshot once the client's hello came.
			socket.write(encodeLine({type: 'hello', protocol: protocolVersion, runId: 'old'}));
			socket.setEncoding('utf8');
			socket.on('data', (chunk: string) => {
				received.push(...chunk.split('\n').filter(Boolean));
				if (received.length === 1) {
					socket.write(`${JSON.stringify({type: 'snapshot', runId: 'old', runDir: folder, seq: 0, events: [], outputs: {}, plan: {tasks: []}, concurrency: 1, graceMs: 1, canSteer: false, canReroute: false, routing: null, profiles: null})}\n`);
				}
			});
			socket.on('close', () => {
				closedByClient = true;
			});
		});
		await new Promise<void>(resolve => {
			server.listen(socketPath, resolve);
		});
		onCleanup(() => {
			server.close();
		});

		const connection = await connectToBatch(socketPath, {client: 'new'});
		expect(await connection.leave('quit')).toEqual({hostEnds: false, timedOut: false});
		await waitFor(() => closedByClient, {message: 'the connection closed'});
		expect(received.map(line => (JSON.parse(line) as {type: string}).type)).toEqual(['hello']);
	});
});

describe('a client that leaves a host that ends with it', () => {
	it('is let go after the host\'s last line; one that leaves while tasks run is let go at once', async () => {
		const batch = fakeBatchToHost(scratch, ['[fake:until-file=GO]']);
		onCleanup(() => batch.runner.shutdown({skipGrace: true}));
		const log: string[] = [];
		const host = await startHost(batch.hosted, batch.runner, {mode: 'headless', log: line => log.push(line)});
		const early = await connectToBatch(host.socket, {client: 'cancel'});
		const late = await connectToBatch(host.socket, {client: 'wait'});
		await waitFor(() => batch.events.some(event => event.type === 'task.started'), {message: 'the task started'});

		// The batch runs: the host goes on without this client.
		expect(await early.leave('done')).toEqual({hostEnds: false, timedOut: false});
		expect(log.at(-1)).toBe('a client left (1 now)');

		const finished = new Promise<void>(resolve => {
			late.source.subscribe(event => {
				if (event.type === 'batch.finished') resolve();
			});
		});
		await late.control.shutdown({skipGrace: true});
		await finished;
		// The last client leaves a settled batch: the host ends, and says so before it lets the client go.
		expect(await late.leave('done')).toEqual({hostEnds: true, timedOut: false});
		expect(log.at(-1)).toBe('host ends');
		expect(log.at(-2)).toMatch(/^0\/1 tasks succeeded \(1 cancelled\); results in .*results\.json$/);
		expect(log).toContainEqual('client #2 (wait): left: it has what it came for');
		expect((await host.done).summary).toBe('0/1 tasks succeeded (1 cancelled)');
	});
});
