// Steering over the socket: a route edit or mode switch from one client is saved once, re-plans
// the queue once, and every client's routing follows (pushed before the reply); an edit made to
// config.yaml on disk reaches every client as a config message.
import {readFileSync, writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {connectToBatch, type BatchConnection} from '../../src/client/connection.js';
import type {BatchEvent} from '../../src/core/types.js';
import type {SteerOutcome} from '../../src/core/types.js';
import {hostTestsAfterEach, type HostedFakeBatch} from '../helpers/hosted-batch.js';
import {waitFor} from '../helpers/wait-for.js';

const {host, onCleanup} = hostTestsAfterEach();

async function hosted(): Promise<HostedFakeBatch> {
	// One slot, held by a runaway: the two others stay queued, so a re-plan changes them.
	return host(['[fake:forever] [fake:ready] keeps the slot', 'summaries of the logs', 'hard debugging of the parser'], {steered: true, concurrency: 1});
}

async function connect(batch: HostedFakeBatch): Promise<{connection: BatchConnection; events: BatchEvent[]; configs: SteerOutcome[]}> {
	const connection = await connectToBatch(batch.socketPath, {client: 'test'});
	onCleanup(() => connection.close());
	const events: BatchEvent[] = [];
	const configs: SteerOutcome[] = [];
	connection.source.subscribe(event => events.push(event));
	connection.onConfig(outcome => configs.push(outcome));
	return {connection, events, configs};
}

describe('steering from a client', () => {
	it("a mode switch from one client re-plans once, and the other client's routing follows", async () => {
		const batch = await hosted();
		const first = await connect(batch);
		const second = await connect(batch);
		expect(first.connection.snapshot.canSteer).toBe(true);
		expect(second.connection.control.routing?.().mode).toBe('model_map');
		void batch.runner.start();
		await waitFor(() => second.events.some(event => event.type === 'task.started'), {message: 't01 started'});

		const outcome = await first.connection.control.steer!([{kind: 'set-mode', mode: 'profile_routes'}]);
		expect(outcome).toMatchObject({ok: true});
		// The requester's routing is current when its reply arrives.
		expect(first.connection.control.routing?.().mode).toBe('profile_routes');
		await waitFor(() => second.connection.control.routing?.().mode === 'profile_routes', {message: "the second client's routing"});
		await waitFor(() => second.events.some(event => event.type === 'batch.replanned'), {message: 'batch.replanned at the second client'});
		expect(batch.events.filter(event => event.type === 'batch.replanned')).toHaveLength(1);
		expect(readFileSync(batch.configPath!, 'utf8')).toMatch(/backend: profile_routes/);
	});

	it('a refused edit changes nothing and says why; a re-route is answered with what it did', async () => {
		const batch = await hosted();
		const {connection, events} = await connect(batch);
		void batch.runner.start();
		await waitFor(() => events.some(event => event.type === 'task.started'), {message: 't01 started'});
		const before = readFileSync(batch.configPath!, 'utf8');
		const refused = await connection.control.steer!([{kind: 'remove-route', list: 'model_map', name: 'no-such-route'}]);
		expect(refused).toMatchObject({ok: false, message: expect.stringMatching(/no-such-route/)});
		expect(readFileSync(batch.configPath!, 'utf8')).toBe(before);
		expect(await connection.control.reroute!('t03', 'deep')).toMatchObject({ok: true, message: expect.stringMatching(/t03 queued on route "deep"/)});
		expect(batch.runner.plan.tasks[2]?.decision.route?.name).toBe('deep');
	});

	it('an edit of config.yaml on disk reaches every client as a config message, with the new routing', async () => {
		const batch = await hosted();
		const first = await connect(batch);
		const second = await connect(batch);
		writeFileSync(batch.configPath!, readFileSync(batch.configPath!, 'utf8').replace('backend: model_map', 'backend: profile_routes'));
		await waitFor(() => first.configs.length > 0 && second.configs.length > 0, {message: 'the config message at both clients'});
		expect(second.configs[0]).toMatchObject({ok: true});
		expect(first.connection.control.routing?.().mode).toBe('profile_routes');
		expect(second.connection.control.routing?.().mode).toBe('profile_routes');
	});
});
