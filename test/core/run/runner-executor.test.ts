// The runner needs nothing of how a task runs but its executor (executor.ts): a batch run through
// a test's executor (helpers/scripted-executor.ts), which "runs" a task by calling the hooks and never starts a process,
// is queued, stopped, re-routed, reported and written to disk like any other. hermesBin points at
// nothing, so anything that tried to spawn would fail the task.
import {existsSync, readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, BatchReport, TaskSpec, TaskStatus} from '../../../src/core/types.js';
import {fakeCapabilities} from '../../helpers/processes.js';
import {scriptedExecutor} from '../../helpers/scripted-executor.js';
import {waitFor} from '../../helpers/wait-for.js';
import {scratchAfterEach} from '../../helpers/scratch.js';
import {twoModelRoutes} from '../../helpers/two-model-routes.js';

const scratch = scratchAfterEach();

function harness(goals: string[], concurrency: number) {
	const scripted = scriptedExecutor();
	const folder = createRunFolder(scratch.folder('runner-executor-'));
	const tasks: TaskSpec[] = goals.map(goal => ({goal, context: ''}));
	const runner = new BatchRunner(planBatch({tasks, delegation: twoModelRoutes, settings: defaultSettings}), {
		hermesBin: '/nonexistent/hermes', capabilities: fakeCapabilities(), folder, concurrency, graceMs: 300,
		routing: {settings: defaultSettings, outsideWarnings: []}, retryAfterFinish: true,
		executor: scripted.executor,
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => events.push(event));
	return {...scripted, runner, folder, events};
}

describe('BatchRunner on an executor of its own', () => {
	it('runs the batch through it alone, within the concurrency limit, and reports and writes every result', async () => {
		const test = harness(['one', 'two', 'three', 'fail'], 2);
		const report = await test.runner.start();

		expect(test.calls).toEqual(['run t01 attempt 1 on fast', 'run t02 attempt 1 on fast', 'run t03 attempt 1 on fast', 'run t04 attempt 1 on fast']);
		expect(test.seen.mostAtOnce).toBe(2);
		expect(report.results.map(result => [result.status, result.result])).toEqual([
			['succeeded', 'one (attempt 1)'], ['succeeded', 'two (attempt 1)'], ['succeeded', 'three (attempt 1)'], ['failed', 'fail (attempt 1)'],
		]);
		expect(report.results[3]!.error).toBe('it was told to fail');
		expect(test.runner.output('t02')?.display.lines()).toEqual(['two (attempt 1)']);
		expect(test.events.filter(event => 'id' in event && event.id === 't01').map(event => event.type)).toEqual(['task.started', 'task.finished']);
		expect(existsSync(test.folder.resultsPath)).toBe(true);
		const onDisk = JSON.parse(readFileSync(test.folder.resultsPath, 'utf8')) as BatchReport;
		expect(onDisk.results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'failed']);
	});

	it('stops through it: the task is cancelling from the executor\'s event, and ends as the stop asked', async () => {
		const test = harness(['hang', 'queued'], 1);
		const cancellingSeen: Array<TaskStatus | undefined> = [];
		test.runner.subscribe(event => {
			if (event.type === 'task.cancelling') cancellingSeen.push(test.runner.status(event.id));
		});
		const done = test.runner.start();
		await waitFor(() => test.runner.status('t01') === 'running' && test.events.some(event => event.type === 'task.started'), {message: 't01 started'});

		expect(test.runner.cancel('t01')).toBe(true);
		expect(cancellingSeen).toEqual(['cancelling']);
		const report = await done;

		expect(test.calls).toEqual(['run t01 attempt 1 on fast', 'stop t01 (cancel)', 'run t02 attempt 1 on fast']);
		expect(report.results.map(result => [result.status, result.error ?? null])).toEqual([['cancelled', 'stopped (cancel)'], ['succeeded', null]]);
	});

	it('re-routes through it: a failed task\'s next attempt is run by the executor on the new route', async () => {
		const test = harness(['fail'], 1);
		await test.runner.start();

		expect(test.runner.retryTask('t01', twoModelRoutes, 'deep')).toEqual({ok: true, attempt: 2});
		const report = await test.runner.whenSettled();

		expect(test.calls).toEqual(['run t01 attempt 1 on fast', 'run t01 attempt 2 on deep']);
		expect(report.results[0]).toMatchObject({attempt: 2, status: 'failed', result: 'fail (attempt 2)', route: {name: 'deep'}});
		expect(report.results[0]!.earlier_attempts?.map(earlier => earlier.result)).toEqual(['fail (attempt 1)']);
	});
});
