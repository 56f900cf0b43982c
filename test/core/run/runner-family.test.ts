// The runner ends a task's whole family, not only its process group: what a job-control shell
// moved to another group of the agent's session, and what left the session (setsid) while the
// runner watched the agent's process tree. Real hostile agents from bench/hostile/.
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder, type ProcessRecord} from '../../../src/core/run-folder/folder.js';
import {BatchRunner, type RunnerOptions} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {DelegationConfig, TaskSpec} from '../../../src/core/types.js';
import {hostileAgent, killKnownProcesses, remember} from '../../helpers/hostile.js';
import {fakeCapabilities, isProcessRunning} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';

const builtIn: DelegationConfig = {
	mode: 'default',
	modelMap: {options: []},
	profileRoutes: {profiles: []},
	builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false},
};

const homes: string[] = [];

afterEach(() => {
	killKnownProcesses();
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

function makeRunner(agent: string, env: NodeJS.ProcessEnv, options: Partial<RunnerOptions> = {}) {
	const home = mkdtempSync(path.join(tmpdir(), 'runner-family-'));
	homes.push(home);
	const tasks: TaskSpec[] = [{goal: 'misbehave'}];
	const folder = createRunFolder(home);
	const runner = new BatchRunner(planBatch({tasks, delegation: builtIn, settings: defaultSettings}), {
		hermesBin: hostileAgent(agent),
		// A hostile shell script, not Hermes: read its output as -Q would.
		capabilities: fakeCapabilities(),
		folder,
		concurrency: 1,
		graceMs: 30_000,
		env: {...process.env, ...env},
		...options,
	});
	runner.subscribe(event => {
		if (event.type === 'task.started') remember(event.pid, {group: true});
	});
	const records = () => {
		try {
			return readFileSync(folder.processesPath, 'utf8').trim().split('\n').map(line => JSON.parse(line) as ProcessRecord);
		} catch {
			return [];
		}
	};

	return {runner, folder, records};
}

describe.runIf(process.platform === 'linux')('BatchRunner and the agent\'s family', () => {
	it.each([
		['a job-control shell\'s background job', 'job-control.sh', /^job (\d+)/m],
		['a Python child in process group 0', 'process-group0.sh', /^child (\d+)/m],
	])('ends %s that the agent left running in its session when it exited', async (_case, agent, announcement) => {
		const {runner} = makeRunner(agent, {AGENT_EXIT: '1'});
		const report = await runner.start();
		const job = Number(announcement.exec(report.results[0]!.result)?.[1]);
		remember(job);

		expect(report.results[0]).toMatchObject({status: 'succeeded', exit_code: 0});
		expect(job).toBeGreaterThan(1);
		expect(isProcessRunning(job)).toBe(false);
	});

	it('records a descendant that left the session (setsid) and ends it with the task', async () => {
		const {runner, folder, records} = makeRunner('setsid-child.sh', {}, {descendantScanMs: 20});
		const done = runner.start();
		// From the log first, so that the clean-up knows the escapee even if the watcher missed it.
		const announced = () => /^escapee (\d+)/m.exec(existsSync(folder.logPath('t01')) ? readFileSync(folder.logPath('t01'), 'utf8') : '');
		await waitFor(() => announced() !== null, {message: 'the agent to name its escapee'});
		const escapee = Number(announced()![1]);
		remember(escapee);
		await waitFor(() => records().some(record => record.event === 'escaped'), {message: 'an escaped record in processes.jsonl'});
		const escaped = records().find(record => record.event === 'escaped')!;
		expect(escaped).toMatchObject({task: 't01', pid: escapee, start_ticks: expect.any(Number) as number});
		expect(isProcessRunning(escaped.pid)).toBe(true);

		runner.cancel('t01');
		const report = await done;

		expect(report.results[0]).toMatchObject({status: 'cancelled'});
		expect(readFileSync(report.results[0]!.log!, 'utf8')).toContain(`escapee ${escaped.pid}`);
		expect(isProcessRunning(escaped.pid)).toBe(false);
	});
});
