import {describe, expect, it} from 'vitest';
import {buildResult, describeStop, exitCodeOf, refusedResult, resultRoute, summarize, tokenTotals, type TaskOutcome} from '../../../src/core/run/results.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import type {DelegationConfig, ModelRoute, PlannedTask, RoutingMode, TaskResult, TaskSpec, TaskStatus} from '../../../src/core/types.js';

const deep: ModelRoute = {kind: 'model', name: 'deep', description: 'Hard debugging.', provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high', service_tier: 'priority'};

function planned(task: TaskSpec, mode: RoutingMode = 'model_map'): PlannedTask {
	const delegation: DelegationConfig = {
		mode,
		modelMap: {options: [deep]},
		profileRoutes: {profiles: [{kind: 'profile', name: 'coder', description: 'Writes code.'}]},
		builtin: {}, source: {path: 'config.yaml', exists: true},
	};
	return planBatch({tasks: [task], delegation, settings: {characteristics: {}, characteristicWords: {}}}).tasks[0]!;
}

const startedAt = Date.UTC(2026, 0, 2, 3, 4, 5);
const finished: TaskOutcome = {
	status: 'succeeded',
	exitCode: 0,
	signal: null,
	startedAt,
	finishedAt: startedAt + 1234,
	stdout: {text: 'Paris.', truncated: false},
	logPath: '/runs/r1/t01.log',
};

function resultWith(status: TaskStatus): TaskResult {
	return buildResult(planned({goal: 'g', option: 'deep'}), {...finished, status});
}

describe('buildResult', () => {
	it('has the PRODUCT.md fields plus route, status, timings and log', () => {
		const result = buildResult(planned({goal: 'What is the capital of France?', name: 'capital', option: 'deep'}), finished);
		expect(result).toEqual({
			id: 't01',
			name: 'capital',
			goal: 'What is the capital of France?',
			model: 'claude-opus-5',
			route: {name: 'deep', kind: 'model', base_url: null, provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high', service_tier: 'priority', profile: null, refused: false, reason: 'named by task.option'},
			status: 'succeeded',
			success: true,
			exit_code: 0,
			signal: null,
			started_at: '2026-01-02T03:04:05.000Z',
			finished_at: '2026-01-02T03:04:06.234Z',
			duration_ms: 1234,
			result: 'Paris.',
			answer: 'Paris.',
			session_id: null,
			hermes_version: null,
			tokens: null,
			model_used: null,
			configured_model: null,
			spend: null,
			tool_calls: [],
			warnings: ['route "deep": service_tier has no `hermes chat` flag and is not passed; the subagent uses what its Hermes profile configures for it'],
			log: '/runs/r1/t01.log',
		});
	});

	it('carries the task\'s route warnings, so one result shows what was not passed', () => {
		const local: ModelRoute = {kind: 'model', name: 'local', description: 'd', model: 'qwen3', provider: 'openrouter', base_url: 'http://localhost:8080/v1'};
		const delegation: DelegationConfig = {mode: 'model_map', modelMap: {options: [local]}, profileRoutes: {profiles: []}, builtin: {}, source: {path: 'config.yaml', exists: true}};
		const [task] = planBatch({tasks: [{goal: 'g', option: 'local'}], delegation, settings: {characteristics: {}, characteristicWords: {}}}).tasks;
		const result = buildResult(task!, finished);
		expect(result.warnings).toEqual(task!.warnings);
		expect(result.warnings).toEqual([expect.stringMatching(/base_url is not passed/)]);
		expect(result.route).toMatchObject({provider: 'openrouter', model: 'qwen3', base_url: null});
	});

	it('leaves warnings out when the route had nothing to warn about', () => {
		expect(Object.keys(buildResult(planned({goal: 'g', model: 'x/y'}), finished))).not.toContain('warnings');
	});

	it('does not share the plan\'s warning list: changing one result leaves the plan as it was', () => {
		const task = planned({goal: 'g', option: 'deep'});
		buildResult(task, finished).warnings?.push('extra');
		expect(task.warnings).toHaveLength(1);
	});

	it.each<TaskStatus>(['failed', 'cancelled', 'timed_out'])('a %s task is not a success', status => {
		expect(resultWith(status).success).toBe(false);
	});

	it('flags a truncated result and carries the error text', () => {
		const result = buildResult(planned({goal: 'g'}), {...finished, status: 'failed', exitCode: 1, stdout: {text: 'tail', truncated: true}, errorText: 'boom'});
		expect(result).toMatchObject({result: 'tail', result_truncated: true, error: 'boom', exit_code: 1});
	});

	it('leaves result_truncated and error out when there is nothing to say', () => {
		expect(Object.keys(resultWith('succeeded'))).not.toContain('result_truncated');
		expect(Object.keys(resultWith('succeeded'))).not.toContain('error');
	});

	it('a task that never started has no timings', () => {
		const result = buildResult(planned({goal: 'g'}), {...finished, status: 'cancelled', exitCode: null, startedAt: null, finishedAt: null});
		expect(result).toMatchObject({started_at: null, finished_at: null, duration_ms: null});
	});
});

describe('resultRoute: which route ran the task', () => {
	it.each<[string, TaskSpec, RoutingMode, Partial<TaskResult['route']>]>([
		['a model route', {goal: 'g', option: 'deep'}, 'model_map', {name: 'deep', kind: 'model', model: 'claude-opus-5', profile: null}],
		['a profile route', {goal: 'g', profile: 'coder'}, 'profile_routes', {name: 'coder', kind: 'profile', model: null, profile: 'coder'}],
		['a profile route with an explicit model', {goal: 'g', profile: 'coder', model: 'x/y'}, 'profile_routes', {name: 'coder', kind: 'profile', model: 'x/y', profile: 'coder'}],
		['an explicit model', {goal: 'g', model: 'x/y', provider: 'p'}, 'model_map', {name: null, kind: 'explicit', model: 'x/y', provider: 'p', reasoning_effort: null}],
		['the parent\'s own model', {goal: 'g'}, 'default', {name: null, kind: 'parent', model: null, provider: null}],
	])('%s', (_label, task, mode, expected) => {
		expect(resultRoute(planned(task, mode))).toMatchObject(expected);
	});
});

describe('resultRoute: service_tier', () => {
	it('reports the route\'s configured tier, and the result\'s warnings say it was not passed', () => {
		const task = planned({goal: 'g', option: 'deep'});
		expect(resultRoute(task).service_tier).toBe('priority');
		expect(buildResult(task, {status: 'succeeded', exitCode: 0, signal: null, startedAt: 1, finishedAt: 2, stdout: {text: '', truncated: false}, logPath: null}).warnings?.join(' ')).toMatch(/service_tier has no `hermes chat` flag and is not passed/);
	});
});

describe('refusedResult', () => {
	it('is a refused, unstarted result whose error is the refusal reason', () => {
		const result = refusedResult(planned({goal: 'g', option: 'turbo'}));
		expect(result).toMatchObject({status: 'refused', success: false, exit_code: null, started_at: null, log: null, result: ''});
		expect(result.route.refused).toBe(true);
		expect(result.error).toBe(result.route.reason);
		expect(result.error).toMatch(/option "turbo" is not in model_map/);
	});
});

describe('summarize', () => {
	it('says how many succeeded, in the PRODUCT.md wording', () => {
		expect(summarize([resultWith('succeeded'), resultWith('succeeded')])).toBe('2/2 tasks succeeded');
	});

	it('counts every other outcome, in a fixed order, with readable names', () => {
		const results = ['timed_out', 'refused', 'succeeded', 'failed', 'cancelled', 'failed'].map(status => resultWith(status as TaskStatus));
		expect(summarize(results)).toBe('1/6 tasks succeeded (2 failed, 1 cancelled, 1 timed out, 1 refused)');
	});

	it('an empty batch reads 0/0', () => {
		expect(summarize([])).toBe('0/0 tasks succeeded');
	});
});

describe('exitCodeOf', () => {
	it.each<[string, boolean, TaskStatus[], number]>([
		['all succeeded', false, ['succeeded', 'succeeded'], 0],
		['one failed', false, ['succeeded', 'failed'], 1],
		['one refused', false, ['succeeded', 'refused'], 1],
		['one timed out', false, ['timed_out'], 1],
		['interrupted, even when everything finished', true, ['succeeded'], 130],
		['interrupted with failures', true, ['failed', 'cancelled'], 130],
	])('%s → %i', (_label, interrupted, statuses, code) => {
		expect(exitCodeOf({interrupted, results: statuses.map(resultWith)})).toBe(code);
	});
});

describe('tokenTotals', () => {
	const counts = (total: number) => ({input: total - 1, output: 1, total, cache_read: 0, cache_write: 0});
	const onRoute = (name: string, total: number | null): TaskResult => {
		const result = resultWith('failed');
		return {...result, route: {...result.route, name}, tokens: total === null ? null : counts(total)};
	};

	it('counts every attempt of a re-routed task, each on the route it ran on', () => {
		const retried: TaskResult = {...onRoute('deep', 100), attempt: 3, earlier_attempts: [onRoute('fast', 40), onRoute('fast', null)]};
		const other = onRoute('fast', 7);
		const totals = tokenTotals([retried, other]);
		expect(totals?.total.total).toBe(147);
		expect(totals?.by_route).toEqual({deep: counts(100), fast: {...counts(47), input: 45, output: 2}});
	});

	it('says how many attempts that ran have unknown tokens (the sums are then a lower bound); a refused task never ran', () => {
		const refused: TaskResult = {...onRoute('deep', null), status: 'refused', started_at: null};
		const totals = tokenTotals([{...onRoute('deep', 100), earlier_attempts: [onRoute('fast', null)]}, onRoute('fast', null), refused]);
		expect(totals).toMatchObject({total: counts(100), unknown_attempts: 2});
	});

	it('is absent when no attempt reported tokens', () => {
		expect(tokenTotals([{...onRoute('deep', null), earlier_attempts: [onRoute('fast', null)]}])).toBeUndefined();
	});
});

describe('describeStop', () => {
	it('says what we did and what happened, not the traceback', () => {
		expect(describeStop({reason: 'cancel', termSentAt: 1000, endedAt: 3100, signal: 'SIGINT', exitCode: null, forced: false}))
			.toBe('cancelled by the operator: SIGTERM sent to its process group; ended 2.1 s later (by SIGINT)');
		expect(describeStop({reason: 'timeout', termSentAt: 0, endedAt: 5000, signal: 'SIGKILL', exitCode: null, forced: true}))
			.toBe('timed out: SIGTERM sent to its process group; it ignored SIGTERM and was killed with SIGKILL 5.0 s later');
		expect(describeStop({reason: 'timeout', termSentAt: 0, killDueAt: 5000, graceMs: 5000, endedAt: 5010, signal: 'SIGKILL', exitCode: null, forced: true}))
			.toBe('timed out: SIGTERM sent to its process group; it ignored SIGTERM and was killed with SIGKILL 5.0 s later');
	});

	it('a timeout says its limit and whose it was', () => {
		expect(describeStop({reason: 'timeout', termSentAt: 0, endedAt: 300, signal: 'SIGINT', exitCode: null, forced: false, timeout: {ms: 30_000, own: true}}))
			.toBe('timed out at its limit of 30 s (the task\'s "timeout"): SIGTERM sent to its process group; ended 0.3 s later (by SIGINT)');
		expect(describeStop({reason: 'timeout', termSentAt: 0, endedAt: 300, signal: 'SIGINT', exitCode: null, forced: false, timeout: {ms: 1500, own: false}}))
			.toBe('timed out at its limit of 1.5 s (the batch\'s timeout, --timeout): SIGTERM sent to its process group; ended 0.3 s later (by SIGINT)');
	});

	it('a kill (K, cancel --kill) is said as one: no grace period, nothing ignored', () => {
		expect(describeStop({reason: 'cancel', termSentAt: 1000, killDueAt: 1000, graceMs: 5000, endedAt: 1020, signal: 'SIGKILL', exitCode: null, forced: true}))
			.toBe('cancelled by the operator: killed with SIGKILL at once, without a grace period (SIGTERM went with it)');
		// K pressed 1.5 s into a cancel's grace period.
		expect(describeStop({reason: 'cancel', termSentAt: 1000, killDueAt: 2500, graceMs: 5000, endedAt: 2520, signal: 'SIGKILL', exitCode: null, forced: true}))
			.toBe('cancelled by the operator: SIGTERM sent to its process group; killed with SIGKILL 1.5 s later, the grace period cut short');
	});
});
