// A kill is recorded as one: `cancel --kill` sends SIGKILL without a grace
// period, so the result must not say the agent "ignored SIGTERM and was killed 0.0 s later".
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, tasksJson} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

describe('a kill in the results', () => {
	it('cancel --kill is recorded as SIGKILL at once, without a grace period', async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const started = await runCli(test, ['run', '--detach', '--grace', '30', tasksJson({goal: 'Ignore every stop', name: 'stubborn', context: '[fake:forever] [fake:ignore-term]'})]);
		const runId = started.stdout.trim();
		await waitFor(() => test.agentRuns().length === 1, {message: 'the agent to start'});
		const cancelled = await runCli(test, ['cancel', runId, '--kill']);
		expect(cancelled.exitCode).toBe(0);
		// Said as what is done, not asked (defect 15), and as a kill: no SIGTERM-then-grace.
		expect(cancelled.stderr).toContain(`run ${runId}: cancelling all: stopping 1 running task: SIGKILL to each process group, no grace period`);
		expect(cancelled.stderr).not.toContain('?');
		const report = JSON.parse((await runCli(test, ['wait', runId])).stdout) as BatchReport;
		const [result] = report.results;
		expect(result?.status).toBe('cancelled');
		expect(result?.error).toMatch(/^cancelled [^:]+: killed with SIGKILL at once, without a grace period \(SIGTERM went with it\)$/);
	});
});
