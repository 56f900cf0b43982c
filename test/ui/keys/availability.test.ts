// The footer offers a key exactly when pressing it would do something: isAvailable asks the same
// deciders the store's actions do (state/intents.ts, state/steer.ts), so for every command they
// checked, in every state below, what the footer says equals what the key does. "Does" means the
// state changed in more than its notice, or something was sent to the batch.
import {describe, expect, test} from 'vitest';
import {parseHermesConfig} from '../../../src/core/config/parse.js';
import type {TaskStatus} from '../../../src/core/types.js';
import {createBatchStore} from '../../../src/state/store.js';
import type {BatchState} from '../../../src/state/store-types.js';
import {isAvailable, runKeyCommand} from '../../../src/ui/keys/actions.js';
import type {Command} from '../../../src/ui/keys/keys.js';
import {FakeControl, plannedTasks, t0} from '../../helpers/render.js';
import {steeringConfig} from '../../helpers/steering-config.js';

const environment = {focusColumns: 2, zoomLines: 10, zoomColumns: 100, effectiveLayout: 'grid' as const, scrollOverlay: () => undefined, redraw: () => undefined};
const statuses: TaskStatus[] = ['queued', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled', 'timed_out', 'lost', 'refused'];
const commands: Command[] = ['task.cancel', 'task.kill', 'task.reroute', 'routing.mode', 'routes.open', 'app.quit', 'app.detach', 'task.copy'];

type Case = {status: TaskStatus; quitting: boolean; steerable: boolean; zoomed: boolean; answer: boolean};

function storeFor(situation: Case) {
	const {delegation} = parseHermesConfig(steeringConfig, {file: 'config.yaml', profileExists: () => true});
	const fake = new FakeControl();
	const control = situation.steerable
		? fake.steering({routing: () => delegation, steer: () => ({ok: false, message: 'refused in this test', conflict: false}), reroute: id => ({ok: true, message: `${id} re-routed`})})
		: fake;
	const store = createBatchStore({control, plan: {mode: 'model_map', tasks: plannedTasks(2), warnings: []}, runId: 'r', runDir: '/tmp/r', concurrency: 2, graceMs: 5000, now: t0});
	const task = store.getState().tasks['t01']!;
	store.setState({
		quitting: situation.quitting,
		canDetach: true,
		tasks: {...store.getState().tasks, t01: {...task, status: situation.status, answer: situation.answer ? 'an answer' : null}},
	});
	if (situation.zoomed) store.getState().openZoom(10);
	return {store, fake};
}

/** Everything but the notice (and the clipboard's serial: y puts the answer there, which is what it does). */
function meaningful(state: BatchState): unknown {
	const {notice: _notice, ...rest} = state;
	return JSON.stringify(rest, (_key, value: unknown) => (typeof value === 'function' ? undefined : value));
}

const cases: Case[] = statuses.flatMap(status => [false, true].flatMap(quitting => [false, true].flatMap(steerable => [false, true].flatMap(zoomed => [false, true].map(answer => ({status, quitting, steerable, zoomed, answer}))))));

describe('the footer and the keys', () => {
	test.each(commands)('%s is offered exactly when it acts', async command => {
		const disagreements: string[] = [];
		for (const situation of cases) {
			const {store, fake} = storeFor(situation);
			await fake.landed();
			const offered = isAvailable(command, store.getState());
			const before = meaningful(store.getState());
			const calls = fake.calls.length;
			runKeyCommand(command, store.getState(), environment);
			await fake.landed();
			const acted = meaningful(store.getState()) !== before || fake.calls.length !== calls;
			if (offered !== acted) disagreements.push(`${JSON.stringify(situation)}: footer ${offered ? 'offers' : 'hides'} it, the key ${acted ? 'acts' : 'does nothing'}`);
		}

		expect(disagreements).toEqual([]);
	});
});
