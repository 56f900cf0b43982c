// `logs` finds a run where `ls`, `attach`, `wait` and `cancel` find it (the
// demo's runs too, including the command the zoom's footer suggests), and on a live run says
// which tasks failed and which succeeded, not `ended` for both (defect 14).
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

function home(): TestHome {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

describe('logs finds runs in the homes ls lists', () => {
	it('reads a run of the demo home by id, as the zoom suggests, and the newest run when none is named', async () => {
		const test = home();
		const demo = {HERMES_DELEGATE_DEMO_HOME: path.join(test.dir, 'demo')};
		const run = await runCli(test, ['run', tasksJson({goal: 'Answer in the demo', name: 'demo-task', context: '[fake:duration=0.1] [fake:answer=From the demo.]'})], {env: {...demo, HERMES_HOME: demo.HERMES_DELEGATE_DEMO_HOME}});
		const report = JSON.parse(run.stdout) as BatchReport;
		expect((await runCli(test, ['ls'], {env: demo})).stdout).toContain(report.run_id);

		const byId = await runCli(test, ['logs', report.run_id, 't01'], {env: demo});
		expect(byId.stderr).toBe('');
		expect(byId.exitCode).toBe(0);
		expect(byId.stdout).toContain('From the demo.');
		const newest = await runCli(test, ['logs'], {env: demo});
		expect(newest.stdout).toContain(`run ${report.run_id}`);
		expect((await runCli(test, ['spend', report.run_id], {env: demo})).exitCode).toBe(0);
	});

	it('on a live run, lists failed and succeeded tasks as such', async () => {
		const test = home();
		const detached = await runCli(test, ['run', '--detach', '-j', '3', tasksJson(
			{goal: 'Fail quickly', name: 'fails', context: '[fake:duration=0.1] [fake:fail]'},
			{goal: 'Succeed quickly', name: 'works', context: '[fake:duration=0.1]'},
			{goal: 'Keep the run live', name: 'forever', context: '[fake:forever]'},
		)]);
		const runId = detached.stdout.trim();
		let listing = '';
		await waitFor(async () => {
			listing = (await runCli(test, ['logs', runId])).stdout;
			return /t01 +failed/.test(listing) && /t02 +succeeded/.test(listing);
		}, {timeoutMs: 30_000, message: `t01 failed and t02 succeeded in \`logs ${runId}\`; last:\n${listing}`}).catch((error: unknown) => {
			throw new Error(`${String(error)}\nlast listing:\n${listing}`);
		});
		expect(listing).toMatch(/t03 +running/);
		expect(listing).not.toContain('ended');
		await runCli(test, ['cancel', runId, '--kill']);
	});
});
