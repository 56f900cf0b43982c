// Hermes's delegation.max_concurrent_children is the batch's concurrency unless delegate.yaml
// or a flag says otherwise.
import {afterEach, describe, expect, it} from 'vitest';
import {prepareBatch} from '../../src/commands/prepare.js';
import {removeHermesHomes, writeHermesHome, type HermesHomeSpec} from '../helpers/hermes-home.js';

afterEach(removeHermesHomes);

async function concurrencyOf(spec: HermesHomeSpec, flags: {concurrency?: string} = {}): Promise<number> {
	const {home} = writeHermesHome(spec);
	const batch = await prepareBatch('[{"goal":"hello"}]', flags, {env: {HERMES_HOME: home}, stdinIsTTY: true, readStdin: async () => ''});
	return batch.concurrency;
}

describe('the default concurrency', () => {
	it('is Hermes\'s max_concurrent_children when delegate.yaml sets none', async () => {
		expect(await concurrencyOf({config: 'delegation:\n  max_concurrent_children: 7\n'})).toBe(7);
	});

	it('is delegate.yaml\'s concurrency when it sets one, even to the default value', async () => {
		expect(await concurrencyOf({config: 'delegation:\n  max_concurrent_children: 7\n', delegate: 'concurrency: 3\n'})).toBe(3);
	});

	it('is the flag\'s when given', async () => {
		expect(await concurrencyOf({config: 'delegation:\n  max_concurrent_children: 7\n'}, {concurrency: '2'})).toBe(2);
	});

	it('is 3 when neither names one', async () => {
		expect(await concurrencyOf({config: 'delegation:\n  model: m\n'})).toBe(3);
	});
});
