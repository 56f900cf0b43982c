// Budgets end to end: the built CLI runs fake agents that write their session rows (tokens,
// cost) into the home's state.db; the spend read there as each attempt ends stops the batch.
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, tasksJson} from '../helpers/run-cli.js';

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
