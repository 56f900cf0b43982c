// R after the whole batch has finished (retryAfterFinish, the dashboard's runner): the batch is
// re-opened for the retry, runs it under the same concurrency limit, and finishes again with
// results.json and plan.json rewritten; quitting meanwhile still ends it with the kill cascade.
// The fast route's model is "down" (test/helpers/down-route.ts), so a task fails there and can
// succeed on deep. Real processes; every wait is for an event or a promise.
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner, type RunnerOptions} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, BatchReport, RoutePlan, TaskSpec} from '../../../src/core/types.js';
import {agentWithModelDown} from '../../helpers/down-route.js';
import {fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';
import {scratchAfterEach} from '../../helpers/scratch.js';
import {twoModelRoutes} from '../../helpers/two-model-routes.js';

const modelMap = twoModelRoutes;

const scratch = scratchAfterEach();

function harness(tasks: TaskSpec[], options: Partial<RunnerOptions> = {}) {
	const home = scratch.folder('runner-after-finish-');
	const plan = planBatch({tasks, delegation: modelMap, settings: defaultSettings});
	const folder = createRunFolder(home);
	const runner = new BatchRunner(plan, {
		hermesBin: agentWithModelDown(home, 'google/gemini-3-flash-preview'), capabilities: fakeCapabilities(), folder, concurrency: 2, graceMs: 300,
		env: fakeVersionEnv(), routing: {settings: defaultSettings, outsideWarnings: []}, retryAfterFinish: true,
		...options,
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
	});
	/** What was announced after the first batch.finished, as "type id". */
	const afterFirstFinish = () => events.slice(events.findIndex(event => event.type === 'batch.finished') + 1).map(event => ('id' in event ? `${event.type} ${event.id}` : event.type));
	return {runner, folder, events, afterFirstFinish};
}

const onDisk = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('a retry after the batch finished (retryAfterFinish)', () => {
	it('re-opens the batch: the task runs again on the chosen route, results.json and plan.json are rewritten, batch.finished comes again', async () => {
		const test = harness([{goal: 'steady', context: '[fake:duration=0]', option: 'deep'}, {goal: 'flaky', context: '[fake:duration=0]'}]);
		const first = await test.runner.start();
		expect(first.results.map(result => result.status)).toEqual(['succeeded', 'failed']);
		const firstLog = first.results[1]!.log;

		expect(test.runner.retryTask('t02', modelMap, 'deep')).toEqual({ok: true, attempt: 2});
		const second = await test.runner.whenSettled();

		expect(test.afterFirstFinish()).toEqual(['batch.reopened', 'task.requeued t02', 'task.started t02', 'task.finished t02', 'batch.finished']);
		expect(test.events.at(-1)).toMatchObject({type: 'batch.finished', report: second});
		expect(second.summary).toBe('2/2 tasks succeeded');
		expect(second.interrupted).toBe(false);
		const retried = onDisk<BatchReport>(test.folder.resultsPath).results[1]!;
		expect(retried).toMatchObject({status: 'succeeded', attempt: 2, route: {name: 'deep'}});
		expect(retried.earlier_attempts?.map(earlier => [earlier.status, earlier.route.name, earlier.log])).toEqual([['failed', 'fast', firstLog]]);
		expect(onDisk<RoutePlan>(test.folder.planPath).tasks.map(task => task.decision.route?.name)).toEqual(['deep', 'deep']);
	});

	it('runs retries under the concurrency limit, in one round, and after a fail-fast stop too', async () => {
		const test = harness([
			{goal: 'first', context: '[fake:duration=0]'},
			{goal: 'second', context: '[fake:duration=0]'},
		], {concurrency: 1, failFast: true});
		const first = await test.runner.start();
		expect(first.results.map(result => result.status)).toEqual(['failed', 'cancelled']);

		expect(test.runner.retryTask('t01', modelMap, 'deep')).toMatchObject({ok: true});
		expect(test.runner.retryTask('t02', modelMap, 'deep')).toMatchObject({ok: true});
		const second = await test.runner.whenSettled();

		// One slot: t02 starts only once t01 has ended, and the batch finishes once, after both.
		expect(test.afterFirstFinish()).toEqual([
			'batch.reopened', 'task.requeued t01', 'task.requeued t02',
			'task.started t01', 'task.finished t01', 'task.started t02', 'task.finished t02', 'batch.finished',
		]);
		expect(second.results.map(result => [result.status, result.attempt])).toEqual([['succeeded', 2], ['succeeded', 2]]);
	});

	it('quitting while a retry runs ends it with the kill cascade, writes the results, and allows no retry after', async () => {
		const test = harness([{goal: 'a runaway once it can run', context: '[fake:forever] [fake:ready]'}]);
		await test.runner.start();
		expect(test.runner.retryTask('t01', modelMap, 'deep')).toEqual({ok: true, attempt: 2});
		await waitFor(() => test.runner.output('t01')?.stdout.lines().includes('READY') ?? false, {message: 'attempt 2 running'});

		test.runner.shutdown();
		const report = await test.runner.whenSettled();

		expect(report.interrupted).toBe(true);
		expect(report.results[0]).toMatchObject({status: 'cancelled', attempt: 2, route: {name: 'deep'}});
		expect(report.results[0]!.error).toMatch(/^cancelled because hermes-delegate was stopped: SIGTERM sent to its process group/);
		expect(onDisk<BatchReport>(test.folder.resultsPath)).toMatchObject({interrupted: true, results: [{status: 'cancelled', attempt: 2, earlier_attempts: [{status: 'failed'}]}]});
		expect(test.afterFirstFinish()).toEqual(['batch.reopened', 'task.requeued t01', 'task.started t01', 'task.cancelling t01', 'task.finished t01', 'batch.finished']);
		expect(test.runner.retryTask('t01', modelMap, 'fast')).toEqual({ok: false, reason: 'the batch has finished; run the task again in a new batch'});
	});

	it('without it (`run`), a finished batch refuses the retry and stays finished', async () => {
		const test = harness([{goal: 'flaky', context: '[fake:duration=0]'}], {retryAfterFinish: false});
		await test.runner.start();

		expect(test.runner.retryTask('t01', modelMap, 'deep')).toEqual({ok: false, reason: 'the batch has finished; run the task again in a new batch'});
		expect(test.afterFirstFinish()).toEqual([]);
		expect((await test.runner.whenSettled()).results[0]).toMatchObject({status: 'failed', route: {name: 'fast'}});
	});
});
