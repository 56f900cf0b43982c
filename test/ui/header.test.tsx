// The header: how long the batch took, and the warnings the operator must not miss.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {finishBatch, plannedTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

describe('header', () => {
	test('the run time stops when the batch finishes', async () => {
		const {frame, store} = render({tasks: plannedTasks(1)});
		startTask(store, 't01', t0);
		store.getState().tick(t0 + 20_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('hermes-delegate · 20s · model routes · concurrency 4 · run run-test');
		});
		finishBatch(store, t0 + 24_000);
		store.getState().tick(t0 + 95_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('finished after 24s');
		});
		store.getState().tick(t0 + 200_000);
		await vi.waitFor(() => {
			expect(store.getState().now).toBe(t0 + 200_000);
		});
		expect(frame()).toContain('finished after 24s');
	});

	test.each([
		[80, /^hermes-delegate · 1m05s · model routes · run 20261204-181144-dc9062$/],
		[60, /^hermes-delegate · 1m05s · run 20261204-181144-dc9062$/],
	])('at %i columns the run time and the run id stay; concurrency and the mode give way', async (columns, first) => {
		const {frame, store} = render({tasks: plannedTasks(1), columns, runId: '20261204-181144-dc9062'});
		startTask(store, 't01', t0);
		store.getState().tick(t0 + 65_000);
		await vi.waitFor(() => {
			expect(frame().split('\n')[0]).toMatch(first);
		});
	});

	test('the shared-profile warning comes first, with the count and where the rest are', async () => {
		const coder = {kind: 'profile' as const, name: 'coder', description: 'Writes code'};
		const tasks = [
			plannedTask(0, {decision: {route: coder}, effective: {profile: 'coder'}}),
			plannedTask(1, {decision: {route: coder}, effective: {profile: 'coder'}}),
		];
		const apiKey = 'config.yaml: delegation.backends.model_map.options[0].api_key: an API key is stored in plain text';
		const shared = 'profile "coder" is used by 2 tasks (t01, t02): run in parallel they all write that profile\'s memory';
		const {frame} = render({tasks, columns: 160, warnings: [apiKey, shared]});
		await vi.waitFor(() => {
			expect(frame()).toContain(`⚠ 2 warnings (? lists all): ${shared}`);
		});
		expect(frame()).not.toContain('api_key');
	});

	test('one warning that fits is shown whole, without the pointer to the help', async () => {
		const {frame} = render({tasks: plannedTasks(1), warnings: ['route deep has a plain-text api_key']});
		await vi.waitFor(() => {
			expect(frame()).toContain('⚠ 1 warning: route deep has a plain-text api_key');
		});
	});
});
