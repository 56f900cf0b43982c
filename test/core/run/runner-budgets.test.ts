// Budgets and per-provider slots, decided in the runner's queue (admission.ts): a batch run
// through the test executor (helpers/scripted-executor.ts), whose tasks say in their goal what they spend
// ("spend 400" tokens, "cost 0.6" USD, "hang": runs until stopped). Spend arrives as task.spend
// events, as the state.db follower sends it; HERMES_HOME points at an empty folder, so the
// results' own spend is unknown and the live figures are what the budgets know.
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import type {BudgetLimit} from '../../../src/core/run/budgets.js';
import type {MonitorClock} from '../../../src/core/run/batch/monitor.js';
import {unknownSpend} from '../../../src/core/hermes/state-db/sessions.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, TaskSpec} from '../../../src/core/types.js';
import {fakeCapabilities} from '../../helpers/processes.js';
import {scriptedExecutor} from '../../helpers/scripted-executor.js';
import {waitFor} from '../../helpers/wait-for.js';
import {scratchAfterEach} from '../../helpers/scratch.js';
import {twoModelRoutes} from '../../helpers/two-model-routes.js';

const scratch = scratchAfterEach();

/** The test executor, with the spend a goal names sent as the follower sends it ("spend 400" tokens, "cost 0.6" USD). */
function spendingExecutor() {
	return scriptedExecutor({
		onStarted(task, attempt, hooks) {
			const goal = task.spec.goal;
			const tokens = Number(/spend (\d+)/.exec(goal)?.[1] ?? Number.NaN);
			const cost = Number(/cost ([\d.]+)/.exec(goal)?.[1] ?? Number.NaN);
			if (Number.isNaN(tokens) && Number.isNaN(cost)) return;
			const known = Number.isNaN(tokens) ? 0 : tokens;
			const spend = {...unknownSpend, input_tokens: known - Math.floor(known / 4), output_tokens: Math.floor(known / 4), cost_usd: Number.isNaN(cost) ? null : cost};
			hooks.emit({type: 'task.spend', id: task.id, attempt, spend, at: Date.now()});
		},
	});
}

function harness(tasks: TaskSpec[], options: {concurrency: number; budgets?: BudgetLimit[]; perProvider?: Record<string, number>; stuckAfterMs?: number; stuckTimeoutMs?: number; monitorClock?: MonitorClock}) {
	const spending = spendingExecutor();
	const folder = createRunFolder(scratch.folder('runner-budgets-'));
	const runner = new BatchRunner(planBatch({tasks, delegation: twoModelRoutes, settings: defaultSettings}), {
		hermesBin: '/nonexistent/hermes', capabilities: fakeCapabilities(), folder, concurrency: options.concurrency, graceMs: 300,
		env: {HERMES_HOME: scratch.folder('runner-budgets-home-')},
		routing: {settings: defaultSettings, outsideWarnings: []},
		executor: spending.executor, budgets: options.budgets, concurrencyPerProvider: options.perProvider,
		stuckAfterMs: options.stuckAfterMs, stuckTimeoutMs: options.stuckTimeoutMs, monitorClock: options.monitorClock,
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => events.push(event));
	const budgetEvents = () => events.flatMap(event => (event.type === 'batch.budget' ? [`${event.budget.level} ${event.budget.spent}`] : []));
	return {...spending, runner, events, budgetEvents};
}

const batchTokens = (limit: number, action: 'stop' | 'cancel' = 'stop'): BudgetLimit => ({scope: {kind: 'batch'}, unit: 'tokens', limit, action});
const routeBudget = (route: string, unit: 'usd' | 'tokens', limit: number, action: 'stop' | 'cancel' = 'stop'): BudgetLimit => ({scope: {kind: 'route', route}, unit, limit, action});

describe('budgets in the runner', () => {
	it('a batch token budget: tasks after it is reached end refused naming it; 80 % warns once', async () => {
		const test = harness(['spend 400', 'spend 400', 'spend 400', 'spend 400', 'spend 10'].map(goal => ({goal})), {concurrency: 1, budgets: [batchTokens(1000)]});
		const report = await test.runner.start();

		expect(test.started).toEqual(['t01', 't02', 't03']);
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'refused', 'refused']);
		expect(report.results[3]!.error).toContain('the batch\'s token budget of 1000 tokens (--budget-tokens) is reached (1200 tokens known spent)');
		expect(test.budgetEvents()).toEqual(['warning 800', 'reached 1200']);
	});

	it('a route\'s USD budget stops only that route: other routes\' spend does not count and their tasks run on', async () => {
		const tasks: TaskSpec[] = [
			{goal: 'cost 0.6', option: 'deep'}, {goal: 'cost 5', option: 'fast'}, {goal: 'cost 0.6', option: 'deep'},
			{goal: 'cost 0.1', option: 'deep'}, {goal: 'cost 0.1', option: 'fast'},
		];
		const test = harness(tasks, {concurrency: 1, budgets: [routeBudget('deep', 'usd', 1)]});
		const report = await test.runner.start();

		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'refused', 'succeeded']);
		expect(report.results[3]!.error).toContain('route "deep"\'s USD budget of $1');
		expect(test.budgetEvents()).toEqual(['reached 1.2']);
	});

	it('budget_action cancel cascades the running tasks of its scope only, and says why in the result', async () => {
		const tasks: TaskSpec[] = [
			{goal: 'hang spend 100', option: 'deep'}, {goal: 'hang spend 100', option: 'fast'}, {goal: 'spend 2000', option: 'deep'}, {goal: 'spend 5', option: 'deep'},
		];
		const test = harness(tasks, {concurrency: 3, budgets: [routeBudget('deep', 'tokens', 1000, 'cancel')]});
		const finished = test.runner.start();
		await waitFor(() => test.runner.status('t01') === 'cancelled');

		expect(test.runner.status('t02')).toBe('running');
		expect(test.runner.status('t04')).toBe('refused');
		test.runner.cancel('t02');
		const report = await finished;
		expect(report.results[0]!.error).toContain('stopped (budget)');
		expect(report.results.map(result => result.status)).toEqual(['cancelled', 'cancelled', 'succeeded', 'refused']);
		expect(test.started).toEqual(['t01', 't02', 't03']);
	});

	it('spend nobody could read counts as nothing, and the report says spend was partly unknown', async () => {
		const test = harness([{goal: 'spend 900'}, {goal: 'says nothing of its spend'}, {goal: 'spend 50'}], {concurrency: 1, budgets: [batchTokens(1000)]});
		const report = await test.runner.start();

		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
		expect(test.budgetEvents()).toEqual(['warning 900']);
		expect(report.warnings.join('\n')).toContain('spend was partly unknown: 1 attempt without a readable session row');
	});

	it('no budget, no word of unknown spend', async () => {
		const test = harness([{goal: 'says nothing'}], {concurrency: 1});
		const report = await test.runner.start();
		expect(report.warnings.join('\n')).not.toContain('partly unknown');
	});
});

describe('per-provider concurrency in the runner', () => {
	it('never runs more on a provider than its slots, says what a queued task waits for, and lets other providers pass', async () => {
		const tasks: TaskSpec[] = [
			{goal: 'hang', option: 'fast'}, {goal: 'hang', option: 'fast'}, {goal: 'hang', option: 'deep'}, {goal: 'quick', option: 'fast'},
		];
		const test = harness(tasks, {concurrency: 3, perProvider: {openrouter: 1}});
		const finished = test.runner.start();
		await waitFor(() => test.runner.status('t03') === 'running');

		expect(test.runner.status('t02')).toBe('queued');
		const waiting = () => test.events.flatMap(event => (event.type === 'task.waiting' ? [`${event.id}: ${event.waitingFor}`] : []));
		expect(waiting()).toEqual([
			't02: waiting for a free openrouter slot (1 of 1 running; concurrency_per_provider)',
			't04: waiting for a free openrouter slot (1 of 1 running; concurrency_per_provider)',
		]);
		test.runner.cancel('t01');
		await waitFor(() => test.runner.status('t02') === 'running');
		// t04 still waits for the same slot: its sentence did not change, so nothing new was said.
		expect(waiting()).toHaveLength(2);
		test.runner.cancel('t02');
		await waitFor(() => test.runner.status('t04') === 'succeeded');
		test.runner.cancel('t03');
		await finished;
		expect(test.mostOn['openrouter']).toBe(1);
		expect(test.started).toEqual(['t01', 't03', 't02', 't04']);
	});
});

/** A clock the test steps: `visit` is what the batch's one timer would call. */
function steppedClock() {
	const clock = {time: 1000, timers: 0, visit: () => {}};
	const monitorClock: MonitorClock = {
		now: () => clock.time,
		every(_ms, visit) {
			clock.timers++;
			clock.visit = visit;
			return {stop: () => {
				clock.timers--;
			}};
		},
	};
	return {clock, monitorClock};
}

describe('the stuck monitor in the runner', () => {
	it('says stuck after stuck_after of quiet, not stuck when output comes again, and stops it timed_out at --stuck-timeout', async () => {
		const {clock, monitorClock} = steppedClock();
		const test = harness([{goal: 'hang'}, {goal: 'hang'}], {concurrency: 2, stuckAfterMs: 60_000, stuckTimeoutMs: 120_000, monitorClock});
		const finished = test.runner.start();
		await waitFor(() => test.runner.output('t02')!.display.lines().length === 1);
		expect(clock.timers).toBe(1); // one timer for the batch, not one per task
		const stuck = () => test.events.flatMap(event => (event.type === 'task.stuck' ? [`${event.id} ${event.stuck} since ${event.quietSince} at ${event.at}`] : []));

		clock.time = 2000;
		clock.visit(); // sees both tasks' first output
		clock.time = 61_999;
		clock.visit();
		expect(stuck()).toEqual([]);
		clock.time = 62_000;
		clock.visit();
		expect(stuck()).toEqual(['t01 true since 2000 at 62000', 't02 true since 2000 at 62000']);

		test.runner.output('t02')!.pushStdout(Buffer.from('still here\n'));
		clock.time = 100_000;
		clock.visit();
		expect(stuck().slice(2)).toEqual(['t02 false since 100000 at 100000']);

		clock.time = 122_000;
		clock.visit();
		await waitFor(() => test.runner.status('t01') === 'timed_out');
		expect(test.runner.status('t02')).toBe('running');
		test.runner.cancel('t02');
		const report = await finished;
		expect(report.results[0]!.error).toContain('stuck');
		expect(clock.timers).toBe(0); // the timer stops once nothing runs
	});
});
