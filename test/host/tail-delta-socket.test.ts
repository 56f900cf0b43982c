// Tail deltas over a real socket: a client that asks for them (feature tail-delta) gets the new
// lines of each pane, a client that does not gets whole tails as protocol 1 first did, and a
// delta client that fell behind and got a fresh snapshot still ends with the host's panes (the
// host forgets what it had sent, so each pane's next delta replaces).
import {writeFileSync} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {connectToBatch} from '../../src/client/connection.js';
import {protocolVersion} from '../../src/wire/protocol.js';
import {applyDelta, type HeldTail, type OutputDelta} from '../../src/wire/tail-delta.js';
import {outputsOf, PaneLedger, wholePane} from '../../src/host/pane-ledger.js';
import type {OutputSnapshot} from '../../src/wire/port.js';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {rawClient, type RawClient} from '../helpers/raw-socket.js';
import {waitFor} from '../helpers/wait-for.js';

const {host, scratch} = hostTestsAfterEach();

const hello = (extra: Record<string, unknown>) => `${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'raw', ...extra})}\n`;
type Changes = Record<string, OutputSnapshot | OutputDelta>;
const outputChanges = (client: RawClient) => client.messages.filter(message => message.type === 'output').map(message => message['changes'] as Changes);

/** The panes a client rebuilds from everything it got, as client.ts does. */
function panesOf(client: RawClient, tailLines: number): Map<string, OutputSnapshot> {
	const panes = new Map<string, OutputSnapshot>();
	const held = new Map<string, HeldTail>();
	for (const message of client.messages) {
		if (message.type === 'snapshot') {
			panes.clear();
			held.clear();
			for (const [id, output] of Object.entries(message['outputs'] as Record<string, OutputSnapshot>)) panes.set(id, output);
		} else if (message.type === 'output') {
			for (const [id, change] of Object.entries(message['changes'] as Changes)) {
				if ('tail' in change) {
					panes.set(id, change);
					held.delete(id);
				} else {
					const next = applyDelta(held.get(id), change, tailLines);
					held.set(id, next.held);
					panes.set(id, next.snapshot);
				}
			}
		}
	}

	return panes;
}

describe('tail deltas over the socket', () => {
	it('go to a client that asks for them; one that does not gets whole tails', async () => {
		const stop = path.join(scratch.folder('tail-delta-'), 'stop');
		const batch = await host([`[fake:until-file=${stop}] [fake:chatter=0.02] chatty`]);
		const hello0 = await rawClient(batch.socketPath);
		expect((await hello0.until('hello'))['features']).toContain('tail-delta');
		const delta = hello0;
		delta.send(hello({tailDelta: true}));
		const whole = await rawClient(batch.socketPath);
		whole.send(hello({}));
		await Promise.all([delta.until('snapshot'), whole.until('snapshot')]);
		const finished = batch.runner.start();
		await waitFor(() => outputChanges(delta).filter(changes => changes['t01']).length >= 5, {message: 'five pushes of the chatty task'});
		writeFileSync(stop, '');
		await finished;
		await waitFor(() => panesOf(delta, 40).get('t01')?.totalLines === wholePane(batch.runner.output('t01')!, 40)?.totalLines, {message: 'the last push to the delta client'});
		await waitFor(() => panesOf(whole, 40).get('t01')?.totalLines === wholePane(batch.runner.output('t01')!, 40)?.totalLines, {message: 'the last push to the other client'});

		const deltas = outputChanges(delta).map(changes => changes['t01']!);
		expect(deltas.every(change => 'fresh' in change)).toBe(true);
		// Pushes after the first carry the lines completed since the one before, not a tail each.
		const later = deltas.slice(1) as OutputDelta[];
		expect(later.length).toBeGreaterThan(2);
		expect(later.every((change, index) => change.from === (index === 0 ? deltas[0]! : later[index - 1]!).totalLines || change.fresh.length === 40)).toBe(true);
		expect(outputChanges(whole).every(changes => 'tail' in changes['t01']!)).toBe(true);

		const host40 = wholePane(batch.runner.output('t01')!, 40);
		expect(panesOf(delta, 40).get('t01')).toEqual(host40);
		expect(panesOf(whole, 40).get('t01')).toEqual(host40);
	});

	it('after a fresh snapshot (the client fell behind), each pane is rebuilt whole again', {timeout: 60_000}, async () => {
		const folder = scratch.folder('tail-delta-');
		const [stop, go, floodStop] = ['stop', 'go', 'flood-stop'].map(name => path.join(folder, name)) as [string, string, string];
		// The flood starts once the client has stopped reading (`go`) and goes on until it has fallen
		// behind (`flood-stop`): however the pushes fall, they outgrow the kernel's buffer and the bound.
		const batch = await host([`[fake:after-file=${go}] [fake:until-file=${floodStop}] [fake:lines=100000000] flood`, `[fake:until-file=${stop}] [fake:chatter=0.02] chatty`], {maxQueueBytes: 256 * 1024, publishHz: 50, busyPublishHz: 50});
		const slow = await rawClient(batch.socketPath);
		slow.send(hello({tailDelta: true, tailLines: 2000}));
		await slow.until('snapshot');
		const finished = batch.runner.start();
		// The client holds some of the chatty task's lines from deltas before it falls behind.
		await waitFor(() => (panesOf(slow, 2000).get('t02')?.totalLines ?? 0) >= 3, {message: 'chatty lines pushed'});
		slow.socket.pause();
		writeFileSync(go, '');
		await waitFor(() => batch.logs.some(line => line.includes('reads too slowly')), {message: 'the client to fall behind under the flood'});
		writeFileSync(floodStop, '');
		await waitFor(() => batch.events.some(event => event.type === 'task.finished'), {message: 'the flood to end'});
		const snapshots = () => slow.messages.filter(message => message.type === 'snapshot').length;
		slow.socket.resume();
		// The client reads in this same process, so it may fall behind once more on the way.
		await waitFor(() => snapshots() >= 2, {message: 'a fresh snapshot'});
		// The chatty task goes on printing after the fresh snapshot: deltas follow it.
		const seen = slow.messages.length;
		await waitFor(() => slow.messages.slice(seen).filter(message => message.type === 'output' && (message['changes'] as Changes)['t02']).length >= 3, {message: 'pushes of the chatty task after the fresh snapshot'});
		writeFileSync(stop, '');
		await finished;
		const hostPanes = new PaneLedger(2000, false).snapshot(outputsOf(batch.runner));
		await waitFor(() => panesOf(slow, 2000).get('t02')?.version === hostPanes['t02']?.version, {message: 'the last push of the chatty task'});
		const panes = panesOf(slow, 2000);
		for (const id of ['t01', 't02']) expect(panes.get(id)).toEqual(hostPanes[id]);
	});

	it('a task run again starts its pane afresh: the new attempt\'s lines, none of the earlier attempt\'s', async () => {
		const stop = path.join(scratch.folder('tail-delta-'), 'stop');
		// Each attempt's first line is its command line, which names its route's model. One push a
		// second: the second attempt has printed everything by its first push.
		const batch = await host(['[fake:echo-args] [fake:lines=30] [fake:exit=1] first attempt', `[fake:until-file=${stop}] keeps the batch open`], {steered: true, publishHz: 1});
		const client = await rawClient(batch.socketPath);
		client.send(hello({tailDelta: true}));
		await client.until('snapshot');
		const finished = batch.runner.start();
		await waitFor(() => batch.events.some(event => event.type === 'task.finished') && panesOf(client, 40).get('t01')?.version === wholePane(batch.runner.output('t01')!, 40)?.version, {message: 'the first attempt\'s lines pushed'});
		expect(panesOf(client, 40).get('t01')?.tail[0]).toContain('google/gemini-3-flash-preview');
		expect(await batch.control.reroute!('t01', 'deep')).toMatchObject({ok: true});
		await waitFor(() => batch.events.filter(event => event.type === 'task.finished').length === 2, {message: 'the second attempt to end'});
		const hostPane = wholePane(batch.runner.output('t01')!, 40);
		expect(hostPane?.tail[0]).toContain('claude-opus-5');
		await waitFor(() => panesOf(client, 40).get('t01')?.version === hostPane?.version, {message: 'the second attempt\'s last push'});
		expect(panesOf(client, 40).get('t01')).toEqual(hostPane);
		writeFileSync(stop, '');
		await finished;
	});

	it('come at busyPublishHz while the host\'s event loop is saturated', async () => {
		const stop = path.join(scratch.folder('tail-delta-'), 'stop');
		const batch = await host([`[fake:until-file=${stop}] [fake:chatter=0.02] chatty`], {publishHz: 50, busyPublishHz: 2, load: () => 0.97});
		const client = await rawClient(batch.socketPath);
		client.send(hello({tailDelta: true}));
		await client.until('snapshot');
		const finished = batch.runner.start();
		await waitFor(() => outputChanges(client).length >= 1, {message: 'a first push'});
		const firstAt = performance.now();
		await waitFor(() => outputChanges(client).length >= 4, {message: 'three pushes more'});
		const seconds = (performance.now() - firstAt) / 1000;
		writeFileSync(stop, '');
		await finished;
		// At 2 a second, three more pushes take at least ~1.5 s (at 50 a second they would take 60 ms).
		expect(seconds).toBeGreaterThan(1.4);
	});

	it("a client asks for them only of a host that lists the feature (an older host would close it)", async () => {
		for (const features of [['detach', 'tail-delta'], ['detach']]) {
			const socketPath = path.join(scratch.folder('tail-delta-host-'), 'host.sock');
			let heard = '';
			const server = net.createServer(socket => {
				socket.write(`${JSON.stringify({type: 'hello', protocol: protocolVersion, runId: 'r', features})}\n`);
				socket.setEncoding('utf8');
				socket.on('data', (chunk: string) => {
					heard += chunk;
					if (heard.includes('\n')) socket.destroy();
				});
			});
			await new Promise<void>(resolve => server.listen(socketPath, resolve));
			await expect(connectToBatch(socketPath, {client: 'test'})).rejects.toThrow(/went away/);
			server.close();
			const clientHello = JSON.parse(heard.split('\n')[0]!) as Record<string, unknown>;
			expect(clientHello).toMatchObject({type: 'hello', protocol: protocolVersion, client: 'test'});
			expect(clientHello['tailDelta']).toBe(features.includes('tail-delta') ? true : undefined);
		}
	});
});
