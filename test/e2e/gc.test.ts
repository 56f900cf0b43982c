// A real hermes-delegate killed with SIGKILL mid-run: its last-resort clean-up never runs. The
// agent that prints dies of SIGPIPE, but an agent that prints nothing, a grandchild that ignores
// SIGTERM and a job-control shell's job live on. Every command then warns; `gc --dry-run` lists
// them and signals nothing; `gc` ends them.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {ProcessRecord} from '../../src/core/run-folder/folder.js';
import {hostileAgent, killKnownProcesses, remember} from '../helpers/hostile.js';
import {isProcessRunning} from '../helpers/processes.js';
import {makeHome, runCli, spawnCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

let home: TestHome | undefined;

afterEach(() => {
	killKnownProcesses();
	home?.remove();
	home = undefined;
});

function runFolder(test: TestHome): string {
	const [run] = test.runs();
	if (run === undefined) throw new Error('no run folder yet');
	return path.join(test.runsDir, run);
}

function started(test: TestHome): ProcessRecord[] {
	const file = test.runs().length === 0 ? '' : path.join(runFolder(test), 'processes.jsonl');
	if (!existsSync(file)) return [];
	// Only whole lines: the runner may be writing the next one (or have created the file empty).
	const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
	return lines.map(line => JSON.parse(line) as ProcessRecord).filter(record => record.event === 'started');
}

function logMatch(test: TestHome, task: string, pattern: RegExp): RegExpExecArray | null {
	const file = path.join(runFolder(test), 'logs', `${task}.log`);
	return existsSync(file) ? pattern.exec(readFileSync(file, 'utf8')) : null;
}

describe.runIf(process.platform === 'linux')('hermes-delegate gc after kill -9', () => {
	it('lists, then ends, what a killed run left running; every other command warns until then', async () => {
		const test = makeHome();
		home = test;
		// The demo home is searched too: TMPDIR keeps this test's away from any real one.
		const env = {TMPDIR: test.dir};
		const tasks = tasksJson({goal: 'silent'}, {goal: 'term-proof-grandchild'}, {goal: 'job-control'});
		const cli = spawnCli(test, ['run', tasks, '-j', '3', '--hermes-bin', hostileAgent('dispatch.sh')], {noHermesBin: true, env});
		const cliExit = new Promise(resolve => cli.once('exit', resolve));
		try {
			await waitFor(() => started(test).length === 3 && logMatch(test, 't02', /^grandchild (\d+)/m) !== null && logMatch(test, 't03', /^job (\d+)/m) !== null, {message: 'three agents, the grandchild and the job to start'});
			const grandchild = Number(logMatch(test, 't02', /^grandchild (\d+)/m)![1]);
			const job = Number(logMatch(test, 't03', /^job (\d+)/m)![1]);
			remember(grandchild);
			remember(job);
		} finally {
			cli.kill('SIGKILL');
			await cliExit;
		}

		const agents = new Map(started(test).map(record => [record.task, record.pid]));
		const grandchild = Number(logMatch(test, 't02', /^grandchild (\d+)/m)![1]);
		const job = Number(logMatch(test, 't03', /^job (\d+)/m)![1]);
		// The agent that prints dies at its next line; nothing reaches the others.
		await waitFor(() => !isProcessRunning(agents.get('t02')!), {message: 'the printing agent to die of SIGPIPE'});
		const survivors = [agents.get('t01')!, grandchild, agents.get('t03')!, job];
		expect(survivors.filter(pid => isProcessRunning(pid))).toEqual(survivors);

		const config = await runCli(test, ['config', '--show'], {env});
		expect(config.exitCode).toBe(0);
		expect(config.stderr).toMatch(/warning: 4 processes of a run whose hermes-delegate was killed are still running \(\d{8}-\d{6}-[\da-f]{6}\): list them with `hermes-delegate gc --dry-run`, end them with `hermes-delegate gc`/);

		const plan = await runCli(test, ['run', tasksJson({goal: 'a plan only'}), '--dry-run'], {env});
		expect(plan.stderr).toContain('end them with `hermes-delegate gc`');

		const dryRun = await runCli(test, ['gc', '--dry-run'], {env});
		expect(dryRun.exitCode).toBe(0);
		expect(dryRun.stderr).toBe('');
		for (const pid of survivors) expect(dryRun.stdout).toContain(`pid ${pid} `);
		expect(dryRun.stdout).toMatch(/t02 term-proof-grandchild {2}pid \d+ {2}sleep {2}in the agent's process group/);
		expect(dryRun.stdout).toMatch(/t03 job-control {2}pid \d+ {2}sleep {2}in the agent's session/);
		expect(dryRun.stdout).toContain('dry run: 4 processes left running');
		expect(survivors.filter(pid => isProcessRunning(pid))).toEqual(survivors);

		const gc = await runCli(test, ['gc', '--grace', '0.2'], {env});
		expect(gc.exitCode).toBe(0);
		expect(gc.stdout).toContain('ended 4 processes');
		expect(survivors.filter(pid => isProcessRunning(pid))).toEqual([]);

		const again = await runCli(test, ['gc'], {env});
		expect(again.exitCode).toBe(0);
		expect(again.stdout).toContain('no orphans');
		expect((await runCli(test, ['config', '--show'], {env})).stderr).not.toContain('gc');
	});
});

describe.runIf(process.platform === 'linux')('hermes-delegate gc input', () => {
	it('refuses a bad --grace with exit 2, naming the flag and the fix', async () => {
		const test = makeHome();
		home = test;
		const result = await runCli(test, ['gc', '--grace', 'soon'], {env: {TMPDIR: test.dir}});

		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('--grace must be a number of at least 0, got "soon"');
		expect(result.stderr).toContain('fix:');
	});
});
