// `hermes-delegate logs`: a task's log made safe, the raw bytes on request, following a running
// task to its end, the run's task list, and errors that name the fix.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, startCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

/** Anything a terminal acts on: C0 except tab and newline, DEL, C1. */
const control = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

function home(): TestHome {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

async function hostileRun(test: TestHome): Promise<BatchReport> {
	const run = await runCli(test, ['run', tasksJson(
		{goal: 'Print hostile output', name: 'hostile', context: '[fake:duration=0.1] [fake:escapes]'},
		{goal: 'Never runs', option: 'no-such-route'},
	)]);
	return JSON.parse(run.stdout) as BatchReport;
}

describe('logs', () => {
	it('prints a task\'s log sanitised, by id or by name, newest run by default', async () => {
		const test = home();
		const report = await hostileRun(test);
		const raw = readFileSync(report.results[0]!.log!, 'utf8');
		expect(raw).toMatch(/\u001B\]52;/);
		for (const args of [['logs', 't01'], ['logs', 'hostile'], ['logs', report.run_id, 't01'], ['logs', report.run_id, '1']]) {
			const logs = await runCli(test, args);
			expect(logs.exitCode).toBe(0);
			expect(logs.stdout).toContain('Fake answer: Print hostile output');
			expect(logs.stdout).toContain('innocent text');
			expect(logs.stdout).not.toMatch(control);
		}
	});

	it('keeps the safe colours when colour is allowed, and no other escape', async () => {
		const test = home();
		await hostileRun(test);
		const logs = await runCli(test, ['logs', 't01'], {env: {NO_COLOR: ''}});
		expect(logs.stdout).toContain('\u001B[31mred');
		expect(logs.stdout.replaceAll(/\u001B\[[\d;]*m/g, '')).not.toMatch(control);
	});

	it('--raw prints the bytes exactly', async () => {
		const test = home();
		const report = await hostileRun(test);
		const logs = await runCli(test, ['logs', 't01', '--raw']);
		expect(logs.stdout).toBe(readFileSync(report.results[0]!.log!, 'utf8').replace(/\n$/, ''));
	});

	it('lists the run\'s tasks with status and log path when no task is named', async () => {
		const test = home();
		const report = await hostileRun(test);
		const logs = await runCli(test, ['logs']);
		expect(logs.exitCode).toBe(0);
		expect(logs.stdout).toContain(`run ${report.run_id}: 1/2 tasks succeeded`);
		expect(logs.stdout).toMatch(new RegExp(`t01 +succeeded +hostile +${report.results[0]!.log!.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
		expect(logs.stdout).toMatch(/t02 +refused +Never runs +\(no log\)/);
	});

	it('names the fix for no runs, an unknown run, an unknown task, and a task that never ran', async () => {
		const test = home();
		const none = await runCli(test, ['logs']);
		expect(none.exitCode).toBe(2);
		expect(none.stderr).toContain('no runs yet');
		expect(none.stderr).toContain('fix: run a batch first');

		await hostileRun(test);
		const cases: Array<[string[], string]> = [
			[['logs', '20990101-000000-abcdef', 't01'], 'fix: `hermes-delegate ls` lists the runs'],
			[['logs', 'nope'], 'fix: name the task by id (t01, t02)'],
			[['logs', 't02'], 'has no log: it never started (refused)'],
		];
		for (const [args, message] of cases) {
			const logs = await runCli(test, args);
			expect(logs.exitCode).toBe(2);
			expect(logs.stderr).toContain(message);
		}
	});

	it('renders a stream-json log as the pane does (⚙ tool, ↳), and --raw keeps the JSON lines', async () => {
		const test = home();
		const run = await runCli(test, ['run', tasksJson({goal: 'Say hi', context: '[fake:duration=0.1] [fake:tools=2]'})]);
		expect(run.exitCode).toBe(0);
		const shown = await runCli(test, ['logs', 't01']);
		expect(shown.stdout).toMatch(/^⚙ web_search /m);
		expect(shown.stdout).toMatch(/^ {2}↳ web_search /m);
		expect(shown.stdout).toContain('Fake answer: Say hi');
		expect(shown.stdout).not.toContain('"type"');
		const raw = await runCli(test, ['logs', 't01', '--raw']);
		expect(raw.stdout).toMatch(/^\{"type": "tool_use", "name": "web_search"/m);
	});

	it('-f follows a running task to its end, then exits 0 with the whole log', async () => {
		const test = home();
		const run = startCli(test, ['run', tasksJson({goal: 'Slow task', context: '[fake:duration=2]'})]);
		await waitFor(() => test.runs().length === 1 && existsSync(path.join(test.runsDir, test.runs()[0]!, 'logs', 't01.log')), {message: 'the task\'s log'});
		const follow = await runCli(test, ['logs', '-f', 't01']);
		const finished = await run;
		expect(finished.exitCode).toBe(0);
		expect(follow.exitCode).toBe(0);
		const after = await runCli(test, ['logs', 't01']);
		expect(follow.stdout).toBe(after.stdout);
		expect(follow.stdout).toContain('Fake answer: Slow task');
	}, 30_000);

	it('-f on a task still queued waits for it to start, then follows it to its end', async () => {
		const test = home();
		const run = startCli(test, ['run', '-j', '1', tasksJson({goal: 'First', context: '[fake:duration=1]'}, {goal: 'Second in line', context: '[fake:duration=0.5]'})]);
		await waitFor(() => test.runs().length === 1 && existsSync(path.join(test.runsDir, test.runs()[0]!, 'logs', 't01.log')), {message: 'the first task\'s log'});
		expect(existsSync(path.join(test.runsDir, test.runs()[0]!, 'logs', 't02.log'))).toBe(false);
		const follow = await runCli(test, ['logs', '-f', 't02']);
		expect((await run).exitCode).toBe(0);
		expect(follow.exitCode).toBe(0);
		expect(follow.stdout).toContain('Fake answer: Second in line');
	}, 30_000);
});
