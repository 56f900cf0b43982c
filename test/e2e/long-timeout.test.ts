// A task timeout longer than Node's timers hold (30 days) must not end the task at once.
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, tasksJson} from '../helpers/run-cli.js';

describe('a timeout past 2^31-1 ms', () => {
	it('lets the task finish instead of timing it out after a few milliseconds', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const run = await runCli(home, ['run', '--timeout', '3000000', tasksJson(
			{goal: 'Thirty days', timeout: 2_592_000, context: '[fake:duration=0.5] [fake:answer=done]'},
			{goal: 'From the flag', context: '[fake:duration=0.5] [fake:answer=done]'},
		)]);
		const report = JSON.parse(run.stdout) as BatchReport;
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
		expect(run.exitCode).toBe(0);
		expect(run.stderr).not.toContain('TimeoutOverflowWarning');
	});
});
