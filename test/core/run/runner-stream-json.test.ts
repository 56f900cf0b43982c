// The runner reading Hermes's stream-json (the fake agent as Hermes 0.20.6): the answer, the model
// Hermes used, tokens per task and per route, tool calls, and live telemetry events.
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, DelegationConfig, TaskSpec} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const delegation: DelegationConfig = {
	mode: 'model_map',
	builtin: {},
	modelMap: {options: [
		{kind: 'model', name: 'fast', description: 'Quick lookups.', provider: 'openrouter', model: 'm-fast'},
		{kind: 'model', name: 'deep', description: 'Careful design.', provider: 'anthropic', model: 'm-deep'},
	], default: 'fast'},
	profileRoutes: {profiles: []},
	source: {path: '/nonexistent/config.yaml', exists: false},
};

const scratch = scratchAfterEach();

async function run(tasks: TaskSpec[]) {
	const home = scratch.folder('runner-stream-');
	const runner = new BatchRunner(planBatch({tasks, delegation, settings: defaultSettings, capabilities: fakeCapabilities('0.20.6')}), {
		hermesBin: fakeAgentPath,
		capabilities: fakeCapabilities('0.20.6'),
		env: fakeVersionEnv('0.20.6'),
		folder: createRunFolder(home),
		concurrency: 3,
		graceMs: 1000,
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => events.push(event));
	return {report: await runner.start(), events};
}

describe('BatchRunner on stream-json', () => {
	it('a failed task\'s tokens are unknown (null), not zero, and the batch sums say they miss it', async () => {
		const {report} = await run([
			{goal: 'one', option: 'fast', context: '[fake:duration=0.2] [fake:tokens=100,20]'},
			{goal: 'two', option: 'fast', context: '[fake:duration=0.2] [fake:fail=HTTP 429: rate limited]'},
		]);

		const [one, two] = report.results;
		expect(one).toMatchObject({status: 'succeeded', tokens: {total: 120}});
		expect(two).toMatchObject({status: 'failed', tokens: null});
		expect(two!.error).toMatch(/HTTP 429: rate limited/);
		expect(report.tokens).toMatchObject({total: {total: 120}, unknown_attempts: 1});
	});

	it('reports the exact answer, tokens per task and per route, tool calls, and init\'s model as the configured one, not the one used', async () => {
		const {report, events} = await run([
			{goal: 'one', option: 'fast', context: '[fake:duration=0.2] [fake:steps=2] [fake:tokens=100,20] [fake:answer=First answer.]'},
			{goal: 'two', option: 'fast', context: '[fake:duration=0.2] [fake:steps=1] [fake:tokens=10,5] [fake:model-used=m-other]'},
			{goal: 'three', option: 'deep', context: '[fake:duration=0.2] [fake:steps=1] [fake:tokens=1,1]'},
		]);

		const [one, two] = report.results;
		expect(report.hermes.output).toBe('stream-json');
		expect(one).toMatchObject({status: 'succeeded', answer: 'First answer.', result: 'First answer.', model_used: null, configured_model: 'm-fast', tokens: {input: 100, output: 20, total: 120}});
		expect(one!.tool_calls).toHaveLength(2);
		expect(one!.tool_calls[0]).toMatchObject({name: expect.any(String), is_error: false});
		expect(one!.session_id).toMatch(/\S/);
		// init's model is read before start-up: a different one is no news of the model used.
		expect(two).toMatchObject({model_used: null, configured_model: 'm-other'});
		expect(two!.warnings).toBeUndefined();
		expect(report.tokens?.total.total).toBe(120 + 15 + 2);
		expect(report.tokens?.by_route).toMatchObject({fast: {total: 135}, deep: {total: 2}});
		expect(events.filter(event => event.type === 'task.telemetry' && event.id === 't01').at(-1)).toMatchObject({telemetry: {model_used: null, configured_model: 'm-fast', tokens: {total: 120}, tool_calls: 2}});
	});

	it('a failed run carries Hermes\'s error from its result event, not the session line', async () => {
		const {report} = await run([{goal: 'fails', context: '[fake:duration=0.1] [fake:steps=1] [fake:fail]'}]);
		expect(report.results[0]).toMatchObject({status: 'failed', exit_code: 1, answer: ''});
		expect(report.results[0]!.error).toMatch(/429/);
		expect(report.results[0]!.error).not.toMatch(/session_id/);
	});
});
