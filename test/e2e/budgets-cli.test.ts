// Budgets and stuck end to end: the built CLI runs fake agents that write their session rows
// (tokens, cost) into the home's state.db; the spend read there stops the batch (or, with
// budget_action cancel, the running tasks of the budget's route), and --stuck-timeout stops a
// task that is quiet, not one that keeps printing.
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, spawnCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

function home() {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

const spending = (name: string) => ({goal: `Look up ${name}`, characteristic: 'quick', context: '[fake:duration=0.1] [fake:tokens=300,100] [fake:answer=Found.]'});

describe('run --budget-tokens', () => {
	it('refuses the tasks after the budget is reached, naming it; --jsonl prints batch.budget; exit code 1', async () => {
		const test = home();
		const tasks = tasksJson(spending('one'), spending('two'), spending('three'), spending('four'), spending('five'));
		const run = await runCli(test, ['run', tasks, '--budget-tokens', '1000', '--concurrency', '1', '--jsonl']);

		expect(run.exitCode).toBe(1);
		const events = run.stdout.split('\n').map(line => JSON.parse(line) as {type: string; budget?: {level: string; spent: number; limit: number}; report?: BatchReport});
		expect(events.filter(event => event.type === 'batch.budget').map(event => [event.budget!.level, event.budget!.spent])).toEqual([['warning', 800], ['reached', 1200]]);
		const report = events.at(-1)!.report!;
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'refused', 'refused']);
		expect(report.results[4]!.error).toContain('the batch\'s token budget of 1000 tokens (--budget-tokens) is reached');
		expect(test.agentRuns()).toHaveLength(3);
	});

	it('a budget that is not a positive number is refused before anything runs', async () => {
		const test = home();
		const run = await runCli(test, ['run', tasksJson(spending('one')), '--budget-tokens', 'lots']);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain('--budget-tokens must be a whole number');
		expect(test.agentRuns()).toEqual([]);
	});
});

type RunEvent = {type: string; id?: string; result?: {status: string; error?: string}; budget?: {level: string; spent: number; limit: number; unit: string}; report?: BatchReport};

/** `run --jsonl` as a process: each event as it comes; `until` waits for one that matches. */
function jsonlRun(test: TestHome, args: string[]) {
	const child = spawnCli(test, ['run', ...args, '--jsonl']);
	const events: RunEvent[] = [];
	let buffered = '';
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (chunk: string) => {
		buffered += chunk;
		const lines = buffered.split('\n');
		buffered = lines.pop()!;
		for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line) as RunEvent);
	});
	let stderr = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (chunk: string) => {
		stderr += chunk;
	});
	const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)));
	onTestFinished(async () => {
		child.kill('SIGKILL');
		await exited;
	});
	return {
		events,
		exited,
		stderr: () => stderr,
		finished: (id: string) => events.find(event => event.type === 'task.finished' && event.id === id)?.result,
		report: () => events.find(event => event.type === 'batch.finished')?.report,
	};
}

/** One tool call at its start, then quiet until `go` exists (up to 1000 s): a hung provider call, as the stuck monitor sees it. */
const quietUntil = (go: string) => `[fake:steps=1] [fake:duration=1000] [fake:until-file=${go}] [fake:tokens=300,100]`;

describe('run --budget-usd', () => {
	it('warns at 80 %, and once known cost reaches the budget no further task starts; the rest end refused, naming it', async () => {
		const test = home();
		const costly = (name: string) => ({goal: `Look up ${name}`, characteristic: 'quick', context: '[fake:duration=0.1] [fake:tokens=300,100] [fake:cost=0.4] [fake:answer=Found.]'});
		const run = await runCli(test, ['run', tasksJson(costly('one'), costly('two'), costly('three'), costly('four')), '--budget-usd', '1', '--concurrency', '1', '--jsonl']);
		expect(run.exitCode).toBe(1);
		const events = run.stdout.split('\n').map(line => JSON.parse(line) as RunEvent);
		const budgets = events.filter(event => event.type === 'batch.budget').map(event => event.budget!);
		expect(budgets.map(budget => [budget.level, budget.unit])).toEqual([['warning', 'usd'], ['reached', 'usd']]);
		expect(budgets[0]!.spent).toBeCloseTo(0.8);
		expect(budgets[1]!.spent).toBeCloseTo(1.2);
		const report = events.at(-1)!.report!;
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'refused']);
		expect(report.results[3]!.error).toContain('the batch\'s USD budget of $1 (--budget-usd) is reached');
		expect(report.spend?.total.cost_usd).toBeCloseTo(1.2);
		expect(test.agentRuns()).toHaveLength(3);
	});
});

describe('budget_action: cancel', () => {
	it('a route\'s budget reached cancels its running tasks with the cascade and refuses its queued ones; another route\'s task runs on', async () => {
		const test = home();
		test.write('delegate.yaml', 'budgets:\n  fast: {tokens: 500}\nbudget_action: cancel\n');
		const go = path.join(test.dir, 'go');
		const run = jsonlRun(test, [tasksJson(
			{goal: 'Spend over the budget', option: 'fast', context: '[fake:duration=0.5] [fake:tokens=500,100]'},
			{goal: 'Keep working on fast', option: 'fast', context: quietUntil(go)},
			{goal: 'Keep working on deep', option: 'deep', context: quietUntil(go)},
			{goal: 'Wait for a slot on fast', option: 'fast', context: '[fake:duration=0.1]'},
		), '--concurrency', '3']);
		await waitFor(() => run.finished('t02') !== undefined, {message: 't02 to be cancelled by the budget', timeoutMs: 30_000});
		expect(run.finished('t02')).toMatchObject({status: 'cancelled', error: expect.stringMatching(/budget/)});
		expect(run.finished('t03')).toBeUndefined(); // deep is not in the budget's scope
		test.write('go', '');
		expect(await run.exited).toBe(1);
		const report = run.report()!;
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'cancelled', 'succeeded', 'refused']);
		expect(report.results[3]!.error).toContain('route "fast"\'s token budget of 500 tokens (delegate.yaml budgets) is reached');
		// One jump from nothing to 600 tokens: reached, with no warning before it.
		expect(run.events.filter(event => event.type === 'batch.budget').map(event => [event.budget!.level, event.budget!.spent])).toEqual([['reached', 600]]);
	});
});

describe('run --stuck-timeout', () => {
	it('ends a quiet task timed_out with the reason; one that keeps printing (headless: nothing is displayed) runs on', async () => {
		const test = home();
		const go = path.join(test.dir, 'go');
		const run = jsonlRun(test, [tasksJson(
			{goal: 'Hang on a provider call', context: quietUntil(go)},
			{goal: 'Think aloud for a while', context: `${quietUntil(go)} [fake:chatter=0.2]`},
		), '--stuck-timeout', '3']);
		await waitFor(() => run.finished('t01') !== undefined, {message: 't01 to be stopped as stuck', timeoutMs: 30_000});
		expect(run.finished('t01')).toMatchObject({status: 'timed_out', error: expect.stringMatching(/stuck/)});
		expect(run.finished('t02')).toBeUndefined();
		expect(run.events.some(event => event.type === 'task.stuck' && event.id === 't02')).toBe(false);
		test.write('go', '');
		expect(await run.exited).toBe(1);
		expect(run.report()!.results.map(result => result.status)).toEqual(['timed_out', 'succeeded']);
	});
});

describe('budgets that cannot do what they say, warned of before anything starts', () => {
	it('a route budget naming no route of config.yaml, and a USD budget over a route Hermes cannot price', async () => {
		const test = makeHome(`delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: "Cheap and quick: lookups."
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: local
          description: "On this machine: private notes."
          provider: custom
          model: local-model
      default: fast
`);
		onTestFinished(() => test.remove());
		const settings = test.write('delegate.yaml', 'budgets:\n  fsat: {tokens: 1000}\n  local: {usd: 1}\n');
		const run = await runCli(test, ['run', tasksJson({goal: 'Summarise my notes', option: 'local'}, {goal: 'Look it up', option: 'fast'}), '--budget-usd', '5', '--dry-run', '--json']);
		expect(run.exitCode, run.stderr).toBe(0);
		const {warnings} = JSON.parse(run.stdout) as {warnings: string[]};
		expect(warnings).toContain(`${settings}: budgets.fsat: ${path.join(test.dir, 'config.yaml')} has no route "fsat" (its routes: fast, local), so this budget caps nothing; fix the route name, or remove the entry`);
		// Both USD budgets that reach the custom route say so; the token one is not concerned.
		expect(warnings.filter(warning => warning.includes('Hermes cannot price route "local"'))).toEqual([
			expect.stringMatching(/^the batch's USD budget of \$5 \(--budget-usd\): Hermes cannot price route "local" .* a token budget can cap them$/),
			expect.stringMatching(/^route "local"'s USD budget of \$1 \(delegate.yaml budgets\): Hermes cannot price route "local"/),
		]);
		expect(warnings.some(warning => warning.includes('"fast"') && warning.includes('cannot price'))).toBe(false);
		expect(test.agentRuns()).toEqual([]);
	});
});
