// Re-planning a batch while it runs (the routing message the dashboard sends after a mode or
// route change): unstarted tasks move, running ones keep their route, a task refused under the
// old routing runs under the new one, and plan.json follows. Real fake-agent processes; every
// wait is for an event.
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, DelegationConfig, RoutePlan, TaskSpec} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const modelMap: DelegationConfig = {
	mode: 'model_map',
	modelMap: {
		options: [
			{kind: 'model', name: 'fast', description: 'Cheap and quick lookups.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'},
			{kind: 'model', name: 'deep', description: 'Slow and careful design.', provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high'},
		],
		default: 'fast',
	},
	profileRoutes: {profiles: [{kind: 'profile', name: 'coder', description: 'Writes and reviews code.'}], default: 'coder'},
	builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false},
};

const scratch = scratchAfterEach();

/** `tasksOf(release)`: the first task runs until the test writes `release`. */
function harness(tasksOf: (release: string) => TaskSpec[], concurrency = 1) {
	const home = scratch.folder('runner-replan-');
	const release = path.join(home, 'release');
	const tasks = tasksOf(release);
	const plan = planBatch({tasks, delegation: modelMap, settings: defaultSettings});
	const folder = createRunFolder(home);
	const runner = new BatchRunner(plan, {
		hermesBin: fakeAgentPath, capabilities: fakeCapabilities(), folder, concurrency, graceMs: 300,
		env: {...fakeVersionEnv()},
		routing: {settings: defaultSettings, outsideWarnings: ['from the config']},
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
	});
	return {runner, folder, events, release};
}

describe('BatchRunner.applyRouting', () => {
	it('switching to profile routes moves queued and refused tasks, keeps the running one, and rewrites plan.json', async () => {
		const test = harness(release => [
			{goal: 'first', context: `[fake:until-file=${release}]`},
			{goal: 'second', context: '[fake:duration=0]'},
			{goal: 'third', context: '[fake:duration=0]', profile: 'coder'},
		]);
		const done = test.runner.start();
		await waitFor(() => test.runner.status('t01') === 'running' && test.runner.status('t03') === 'refused', {message: 't01 running, t03 refused'});

		const changed = test.runner.applyRouting({...modelMap, mode: 'profile_routes'});

		expect(changed).toEqual(['t02', 't03']);
		const replanned = test.events.find(event => event.type === 'batch.replanned');
		expect(replanned).toMatchObject({type: 'batch.replanned', mode: 'profile_routes'});
		expect(replanned?.type === 'batch.replanned' && replanned.tasks.map(({id, plan}) => [id, plan.decision.route?.name])).toEqual([['t02', 'coder'], ['t03', 'coder']]);
		expect(replanned?.type === 'batch.replanned' && replanned.warnings).toEqual(expect.arrayContaining(['from the config', expect.stringMatching(/profile "coder" is used by 2 tasks \(t02, t03\)/)]));
		expect(test.runner.status('t03')).toBe('queued');
		writeFileSync(test.release, '');
		const report = await done;

		expect(report.results.map(result => [result.status, result.route.name])).toEqual([['succeeded', 'fast'], ['succeeded', 'coder'], ['succeeded', 'coder']]);
		expect(report.mode).toBe('profile_routes');
		const onDisk = JSON.parse(readFileSync(test.folder.planPath, 'utf8')) as RoutePlan;
		expect(onDisk.mode).toBe('profile_routes');
		expect(onDisk.tasks.map(task => task.decision.route?.name)).toEqual(['fast', 'coder', 'coder']);
	});

	it('a queued task takes its new route; a running one keeps the route it started on', async () => {
		const test = harness(release => [{goal: 'first', context: `[fake:until-file=${release}] [fake:echo-args]`}, {goal: 'second', context: '[fake:duration=0] [fake:echo-args]'}]);
		const done = test.runner.start();
		await waitFor(() => test.runner.status('t01') === 'running', {message: 't01 running'});

		// The operator makes deep the default while t01 runs and t02 waits.
		expect(test.runner.applyRouting({...modelMap, modelMap: {...modelMap.modelMap, default: 'deep'}})).toEqual(['t02']);
		writeFileSync(test.release, '');
		const report = await done;

		expect(report.results.map(result => result.route.name)).toEqual(['fast', 'deep']);
		expect(report.results[1]!.result).toContain('"-m","claude-opus-5"');
		expect(report.results[0]!.result).toContain('"-m","google/gemini-3-flash-preview"');
	});

	it('a queued task re-planned onto a route that does not exist is refused without starting', async () => {
		const test = harness(release => [{goal: 'first', context: `[fake:until-file=${release}]`}, {goal: 'second', context: '[fake:duration=0]', option: 'deep'}]);
		const done = test.runner.start();
		await waitFor(() => test.runner.status('t01') === 'running', {message: 't01 running'});

		const withoutDeep = {...modelMap, modelMap: {...modelMap.modelMap, options: modelMap.modelMap.options.filter(route => route.name !== 'deep')}};
		expect(test.runner.applyRouting(withoutDeep)).toEqual(['t02']);
		expect(test.runner.status('t02')).toBe('refused');
		writeFileSync(test.release, '');
		const report = await done;

		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'refused']);
		expect(test.events.filter(event => 'id' in event && event.id === 't02').map(event => event.type)).toEqual(['task.finished']);
	});

	it('a routing that changes nothing for the queue announces no task and changes no route', async () => {
		const test = harness(release => [{goal: 'first', context: `[fake:until-file=${release}]`}, {goal: 'second', context: '[fake:duration=0]'}]);
		const done = test.runner.start();
		await waitFor(() => test.runner.status('t01') === 'running', {message: 't01 running'});

		expect(test.runner.applyRouting(modelMap)).toEqual([]);
		const replanned = test.events.find(event => event.type === 'batch.replanned');
		expect(replanned?.type === 'batch.replanned' && replanned.tasks).toEqual([]);
		writeFileSync(test.release, '');
		expect((await done).results.map(result => result.route.name)).toEqual(['fast', 'fast']);
	});
});

describe('BatchRunner.retryTask', () => {
	it('a succeeded task runs again as attempt 2 (R on any finished task): its first answer stays with its first attempt', async () => {
		const test = harness(release => [
			{goal: 'first', context: `[fake:until-file=${release}]`},
			{goal: 'second', context: '[fake:duration=0] [fake:answer=first-answer]'},
		], 2);
		const done = test.runner.start();
		await waitFor(() => test.runner.status('t01') === 'running' && test.runner.status('t02') === 'succeeded', {message: 't01 running, t02 succeeded'});

		expect(test.runner.retryTask('t02', modelMap, 'deep')).toEqual({ok: true, attempt: 2});
		await waitFor(() => test.events.filter(event => event.type === 'task.finished' && event.id === 't02').length === 2, {message: 'attempt 2 ended'});
		writeFileSync(test.release, '');
		const report = await done;

		const result = report.results[1]!;
		expect(result).toMatchObject({status: 'succeeded', attempt: 2, route: {name: 'deep'}});
		expect(result.earlier_attempts?.map(earlier => [earlier.route.name, earlier.status])).toEqual([['fast', 'succeeded']]);
	});

	it('a failed task runs again on the chosen route as attempt 2: its first log and result are kept', async () => {
		const test = harness(release => [
			{goal: 'first', context: `[fake:until-file=${release}]`},
			{goal: 'second', context: '[fake:fail] [fake:echo-args]'},
		], 2);
		const done = test.runner.start();
		// t01 keeps the batch running while t02 fails and is sent to another route.
		await waitFor(() => test.runner.status('t01') === 'running' && test.runner.status('t02') === 'failed', {message: 't01 running, t02 failed'});
		const firstLog = path.join(test.folder.dir, 'logs', 't02.log');
		expect(readFileSync(firstLog, 'utf8')).toContain('google/gemini-3-flash-preview');

		expect(test.runner.retryTask('t02', modelMap, 'deep')).toEqual({ok: true, attempt: 2});
		const requeued = test.events.find(event => event.type === 'task.requeued');
		expect(requeued).toMatchObject({id: 't02', attempt: 2, plan: {decision: {route: {name: 'deep'}, reason: 're-routed to "deep" by the operator (attempt 2)'}}});
		await waitFor(() => test.runner.status('t02') === 'failed' && test.events.filter(event => event.type === 'task.finished' && event.id === 't02').length === 2, {message: 'attempt 2 ended'});
		expect(test.runner.retryTask('t01', modelMap, 'deep')).toEqual({ok: false, reason: 't01 is running: only a queued task, or one that ran and ended (succeeded, failed, cancelled, timed out or lost) can be re-routed'});
		writeFileSync(test.release, '');
		const report = await done;

		const result = report.results[1]!;
		expect(result).toMatchObject({attempt: 2, route: {name: 'deep'}, log: path.join(test.folder.dir, 'logs', 't02.2.log')});
		expect(result.earlier_attempts?.map(earlier => [earlier.route.name, earlier.status, earlier.log])).toEqual([['fast', 'failed', firstLog]]);
		expect(readFileSync(path.join(test.folder.dir, 'logs', 't02.2.log'), 'utf8')).toContain('claude-opus-5');
		expect(readFileSync(firstLog, 'utf8')).not.toContain('claude-opus-5');
		expect(test.runner.retryTask('t02', modelMap, 'fast')).toEqual({ok: false, reason: 'the batch has finished; run the task again in a new batch'});
	});
});
