// The runner's own lifecycle at its edges: a cancel that lands while the process is still being
// spawned, a listener that throws, start() called twice, and steering while the batch shuts
// down. Real fake-agent processes (or a binary that does not exist); every wait is for an event.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner, type RunnerOptions} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, BatchReport, DelegationConfig, TaskSpec} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';
import {scratchAfterEach} from '../../helpers/scratch.js';
import {twoModelRoutes} from '../../helpers/two-model-routes.js';

const modelMap = twoModelRoutes;

const scratch = scratchAfterEach();

function harness(tasks: TaskSpec[], options: Partial<RunnerOptions> = {}) {
	const home = scratch.folder('runner-lifecycle-');
	const plan = planBatch({tasks, delegation: modelMap, settings: defaultSettings});
	const folder = createRunFolder(home);
	const runner = new BatchRunner(plan, {
		hermesBin: fakeAgentPath, capabilities: fakeCapabilities(), folder, concurrency: 2, graceMs: 300,
		env: fakeVersionEnv(), routing: {settings: defaultSettings, outsideWarnings: []},
		...options,
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
	});
	return {runner, folder, events, home};
}

function resultsOnDisk(resultsPath: string): BatchReport {
	return JSON.parse(readFileSync(resultsPath, 'utf8')) as BatchReport;
}

describe('BatchRunner at its edges', () => {
	it('a task cancelled while its process is being spawned is cancelled, even when the spawn then fails', async () => {
		const test = harness([{goal: 'never starts', context: ''}], {hermesBin: path.join('/nonexistent', 'hermes')});
		const planned = new Promise<void>(resolve => test.runner.subscribe(event => event.type === 'batch.planned' && resolve()));
		const done = test.runner.start();
		await planned;
		// The task is taken from the queue in a microtask and its spawn fails a process tick later:
		// stepping through microtasks only catches it in between.
		for (let step = 0; test.runner.status('t01') !== 'running'; step++) {
			if (step > 1000) throw new Error(`t01 never started spawning (status ${test.runner.status('t01')})`);
			await Promise.resolve();
		}

		expect(test.runner.cancel('t01')).toBe(true);
		const report = await done;

		expect(report.results[0]).toMatchObject({status: 'cancelled', success: false});
		expect(report.results[0]!.error).toMatch(/^cancelled by the operator while it was starting; the start failed too: /);
		expect(report.results[0]!.error).toContain('/nonexistent/hermes');
	});

	it('a listener that throws loses neither the batch nor its results: start() rejects once results.json is written', async () => {
		const test = harness([{goal: 'first', context: '[fake:duration=0]'}, {goal: 'second', context: '[fake:duration=0]'}]);
		const heard: string[] = [];
		test.runner.subscribe(event => {
			if (event.type === 'task.finished') throw new Error('the dashboard broke');
		});
		test.runner.subscribe(event => heard.push(event.type));

		const message = `a listener of the batch's events threw: the dashboard broke; the batch went on and its results are in ${test.folder.resultsPath}`;
		await expect(test.runner.start()).rejects.toThrow(message);
		// The dashboard waits with whenSettled(), and may have left start() behind: it hears it too.
		await expect(test.runner.whenSettled()).rejects.toThrow(message);

		// Every task was seen through, every listener heard the end, and the results are on disk.
		expect(heard.filter(type => type === 'task.finished')).toHaveLength(2);
		expect(heard.at(-1)).toBe('batch.finished');
		const onDisk = resultsOnDisk(test.folder.resultsPath);
		expect(onDisk.results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
		expect(onDisk.warnings).toContain('a listener of the batch\'s events threw on task.finished: the dashboard broke');
	});

	it('start() is refused the second time, and the first run is not disturbed', async () => {
		const test = harness([{goal: 'only', context: '[fake:duration=0]'}]);
		const first = test.runner.start();

		await expect(test.runner.start()).rejects.toThrow('start() was called twice: a BatchRunner runs its batch once; make a new runner for a new batch');
		expect((await first).results.map(result => result.status)).toEqual(['succeeded']);
		expect(test.events.filter(event => event.type === 'batch.planned')).toHaveLength(1);
		expect(test.events.filter(event => event.type === 'batch.finished')).toHaveLength(1);
	});

	it('while the batch shuts down, re-planning changes nothing and re-routing is refused with the reason', async () => {
		const specs: TaskSpec[] = [
			{goal: 'runs', context: '[fake:forever] [fake:ready]'},
			{goal: 'fails', context: '[fake:fail]'},
			{goal: 'refused', context: '[fake:duration=0]', option: 'turbo'},
		];
		const test = harness(specs, {concurrency: 2});
		const done = test.runner.start();
		await waitFor(() => test.runner.status('t02') === 'failed' && test.runner.status('t03') === 'refused' && test.runner.output('t01')?.stdout.lines().includes('READY') === true, {message: 't01 ready, t02 failed, t03 refused'});

		test.runner.shutdown();
		// Without the refusal, the refused task would be taken off its refusal and queued into a stopping batch.
		const withTurbo: DelegationConfig = {...modelMap, modelMap: {...modelMap.modelMap, options: [...modelMap.modelMap.options, {kind: 'model', name: 'turbo', description: 'Quick.', provider: 'openrouter', model: 'turbo-1'}]}};
		expect(test.runner.applyRouting(withTurbo)).toEqual([]);
		expect(test.runner.retryTask('t02', modelMap, 'deep')).toEqual({ok: false, reason: 'the batch is stopping'});
		const report = await done;

		expect(report.interrupted).toBe(true);
		expect(report.results.map(result => [result.status, result.route.name])).toEqual([['cancelled', 'fast'], ['failed', 'fast'], ['refused', null]]);
		expect(test.runner.applyRouting(withTurbo)).toEqual([]);
		expect(test.events.filter(event => event.type === 'batch.replanned')).toEqual([]);
	});
});
