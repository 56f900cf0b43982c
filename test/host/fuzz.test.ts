// Whatever a client sends, only that client pays for it: a malformed, unknown, mistyped, oversized
// or out-of-order message closes its connection (with the reason, logged), while the other clients
// and the batch go on.
import net from 'node:net';
import path from 'node:path';
import {chmodSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {connectToBatch, type BatchConnection} from '../../src/client/connection.js';
import {maxClientLineBytes, protocolVersion, requestSchema} from '../../src/wire/protocol.js';
import type {BatchEvent} from '../../src/core/types.js';
import {hostTestsAfterEach, type HostedFakeBatch} from '../helpers/hosted-batch.js';
import {rawClient} from '../helpers/raw-socket.js';
import {waitFor} from '../helpers/wait-for.js';

const {scratch, host, connect, onCleanup} = hostTestsAfterEach();

const hello = `${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'fuzz'})}\n`;

async function hostedWithWitness(goals: string[]): Promise<{batch: HostedFakeBatch; witness: BatchConnection; seen: BatchEvent[]}> {
	const batch = await host(goals);
	const {connection: witness, events} = await connect(batch, 'witness');
	// What came live after the snapshot: the tests compare the events the batch announced since.
	const seen = events.splice(0);
	witness.source.subscribe(event => seen.push(event));
	return {batch, witness, seen};
}

/** Sends `lines` (after a hello when `greet`) and expects the host to say bye and close. */
async function expectClosed(socketPath: string, text: string, greet: boolean): Promise<string> {
	const client = await rawClient(socketPath);
	if (greet) {
		client.send(hello);
		await client.until('snapshot');
	}

	client.send(text);
	const bye = await client.until('bye');
	await client.untilClosed();
	return bye['reason'] as string;
}

const requestTypes = ['cancel', 'kill', 'shutdown', 'steer', 'reroute', 'reload', 'read-output', 'search-output'];
const validRequests: Array<Record<string, unknown>> = [
	{type: 'cancel', rid: 1, id: 't01'},
	{type: 'kill', rid: 2, id: 't01'},
	{type: 'shutdown', rid: 3, skipGrace: false},
	{type: 'steer', rid: 4, edits: [{kind: 'set-mode', mode: 'default'}]},
	{type: 'reroute', rid: 5, id: 't01', target: 'fast'},
	{type: 'reload', rid: 6},
	{type: 'read-output', rid: 7, id: 't01', last: 3},
	{type: 'search-output', rid: 8, id: 't01', query: 'x', from: null, direction: 1},
];

const wrongValue = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.string(), fc.dictionary(fc.string(), fc.integer()), fc.array(fc.integer()));
/** A valid request with one field's value replaced, or a field added, so that it is no longer valid. */
const mistyped = fc.tuple(fc.constantFrom(...validRequests), fc.nat(), wrongValue, fc.boolean()).map(([request, index, value, addField]) => {
	const keys = Object.keys(request).filter(key => key !== 'type');
	const key = addField ? 'unexpected' : keys[index % keys.length]!;
	return {...request, [key]: value};
}).filter(request => !requestSchema.safeParse(request).success);

const notJson = fc.string({minLength: 1}).filter(text => !text.includes('\n') && (() => {
	try {
		JSON.parse(text);
		return false;
	} catch {
		return true;
	}
})());
const unknownType = fc.record({type: fc.string().filter(type => !requestTypes.includes(type)), rid: fc.nat()});

describe('a misbehaving client', () => {
	it('is closed alone, whatever it sends (fuzzed), while another client and the batch go on', {timeout: 120_000}, async () => {
		const {batch, witness, seen} = await hostedWithWitness(['[fake:until-file=/nonexistent/never] [fake:ready] steady', '[fake:duration=0.2] quick']);
		void batch.runner.start();
		const bad = fc.oneof(
			notJson.map(text => ({text: `${text}\n`, greet: true})),
			unknownType.map(message => ({text: `${JSON.stringify(message)}\n`, greet: true})),
			mistyped.map(message => ({text: `${JSON.stringify(message)}\n`, greet: true})),
			fc.constantFrom(...validRequests).map(message => ({text: `${JSON.stringify(message)}\n`, greet: false})),
			fc.oneof(notJson, unknownType.map(message => JSON.stringify(message))).map(text => ({text: `${text}\n`, greet: false})),
		);
		await fc.assert(fc.asyncProperty(bad, async ({text, greet}) => {
			const reason = await expectClosed(batch.socketPath, text, greet);
			expect(reason).toMatch(greet ? /malformed message/ : /before its hello/);
		}), {numRuns: 40});

		expect(batch.logs.filter(line => /closed: (malformed message|before its hello)/.test(line)).length).toBeGreaterThanOrEqual(40);
		expect(batch.server.clients()).toBe(1);
		// The witness is still served: a request answered, the batch's events still arriving.
		expect(await witness.control.readOutput({id: 't01'})).toMatchObject({id: 't01'});
		await waitFor(() => seen.some(event => event.type === 'task.finished' && event.id === 't02'), {message: 't02 finishing, seen by the witness'});
		expect(batch.runner.status('t01')).toBe('running');
	});

	it('sending a line longer than the limit is closed and logged; others go on', async () => {
		const {batch, witness} = await hostedWithWitness(['[fake:duration=0.1] quick']);
		const huge = `{"type":"cancel","rid":1,"id":"${'x'.repeat(maxClientLineBytes + 10)}"}\n`;
		expect(await expectClosed(batch.socketPath, huge, true)).toMatch(/a line of more than/);
		// Never ending a line is the same.
		expect(await expectClosed(batch.socketPath, 'y'.repeat(maxClientLineBytes + 10), false)).toMatch(/a line of more than/);
		expect(batch.logs.filter(line => line.includes('a line of more than'))).toHaveLength(2);
		expect((await batch.runner.start()).results[0]?.status).toBe('succeeded');
		expect(await witness.control.cancel('t01', {skipGrace: false})).toBe(false);
	});
});

describe('versions', () => {
	it("a client of another protocol version is refused with the reason, by name", async () => {
		const {batch} = await hostedWithWitness(['[fake:duration=0.1] quick']);
		const client = await rawClient(batch.socketPath);
		expect(await client.until('hello')).toMatchObject({protocol: protocolVersion});
		client.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion + 1})}\n`);
		expect((await client.until('bye'))['reason']).toBe(`protocol ${protocolVersion + 1} is not this runner host's protocol ${protocolVersion}: use the hermes-delegate that started this batch`);
		await client.untilClosed();
		expect(client.messages.map(message => message.type)).toEqual(['hello', 'bye']);
	});

	it('a host of another protocol version is refused by the client with the reason', async () => {
		const folder = scratch.folder('other-host-');
		chmodSync(folder, 0o700);
		const socketPath = path.join(folder, 'host.sock');
		const accepted: net.Socket[] = [];
		const other = net.createServer(socket => {
			accepted.push(socket);
			socket.resume();
			socket.write(`${JSON.stringify({type: 'hello', protocol: protocolVersion + 1, runId: 'r'})}\n`);
		});
		await new Promise<void>(resolve => other.listen(socketPath, resolve));
		onCleanup(() => new Promise<void>(resolve => {
			other.close(() => resolve());
			for (const socket of accepted) socket.destroy();
		}));
		await expect(connectToBatch(socketPath)).rejects.toThrow(`the runner host speaks protocol ${protocolVersion + 1}, this hermes-delegate speaks ${protocolVersion}`);
		await waitFor(() => accepted.every(socket => socket.closed), {message: 'the client to have hung up'});
	});
});
