// The dashboard is a client of the runner host: in a real terminal (tmux), losing the terminal or
// killing the dashboard with SIGKILL leaves the batch running to complete results; `attach` from
// another terminal shows a live run, and a `cancel` from the command line shows there.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {readRunOwner} from '../../src/core/run-folder/owner.js';
import type {BatchReport} from '../../src/core/types.js';
import {fakeAgentPath, isProcessRunning} from '../helpers/processes.js';
import {cliPath, makeHome, recordedGroups, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {startTmux, type TmuxSession} from '../helpers/tmux.js';
import {waitFor} from '../helpers/wait-for.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function home(): TestHome {
	const created = makeHome();
	cleanups.push(() => created.remove());
	return created;
}

function terminal(test: TestHome, argv: string[]): TmuxSession {
	// The test's own demo home too: a demo another test (or the operator) runs meanwhile is not ours to see.
	const screen = startTmux(argv, {env: {HERMES_HOME: test.dir, HERMES_DELEGATE_DEMO_HOME: path.join(test.dir, 'demo-home')}});
	cleanups.push(() => screen.kill());
	return screen;
}

function onlyRun(test: TestHome): {runId: string; dir: string} {
	const runs = test.runs();
	expect(runs).toHaveLength(1);
	return {runId: runs[0]!, dir: path.join(test.runsDir, runs[0]!)};
}

function clients(dir: string): number {
	return (JSON.parse(readFileSync(path.join(dir, 'host.json'), 'utf8')) as {clients: number}).clients;
}

function twoTasksUntilGo(test: TestHome): string {
	const until = `[fake:until-file=${path.join(test.dir, 'go')}]`;
	return test.write('tasks.json', tasksJson({name: 'first', goal: 'Finish when told', context: until}, {name: 'second', goal: 'Finish when told too', context: until}));
}

async function completeResults(test: TestHome, runId: string): Promise<BatchReport> {
	test.write('go', '');
	const waited = await runCli(test, ['wait', runId]);
	expect(waited.exitCode, waited.stderr).toBe(0);
	const report = JSON.parse(waited.stdout) as BatchReport;
	expect(report.interrupted).toBe(false);
	expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
	return report;
}

describe('the dashboard as a client of the runner host', () => {
	it('bad input still ends in the operator\'s terminal with today\'s message and exit 2, nothing started', async () => {
		const test = home();
		const bad = test.write('tasks.json', '[{"goal": "ok", "colour": "red"}]');
		const screen = terminal(test, [process.execPath, cliPath, 'tui', bad, '--hermes-bin', fakeAgentPath]);
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(2);
		expect(exit.screen).toMatch(/^hermes-delegate: .*tasks\.json.*colour/m);
		expect(test.runs()).toEqual([]);
		expect(test.agentRuns()).toEqual([]);
	});

	it('the terminal gone (tmux killed): the batch runs on and wait gets complete results', async () => {
		const test = home();
		const screen = terminal(test, [process.execPath, cliPath, 'tui', twoTasksUntilGo(test), '--hermes-bin', fakeAgentPath]);
		await screen.waitForScreen(/● 2 running/, {message: 'both tasks running in the dashboard'});
		const {runId, dir} = onlyRun(test);
		expect(clients(dir)).toBe(1);

		screen.kill(); // SIGHUP to the dashboard, then every write to its terminal fails
		await waitFor(() => clients(dir) === 0, {message: 'the host to see its client go'});
		expect(isProcessRunning(readRunOwner(dir)!.pid)).toBe(true);
		await completeResults(test, runId);
		const log = readFileSync(path.join(dir, 'host.log'), 'utf8');
		expect(log).toMatch(/client left/);
		// SIGHUP reached the dashboard before its terminal's writes failed: it said why it left.
		expect(log).toMatch(/client #1 \(tui\): detached: its terminal went away/);
	});

	it('d detaches: exit 0, the way back printed, the batch runs on to complete results', async () => {
		const test = home();
		const screen = terminal(test, [process.execPath, cliPath, 'tui', twoTasksUntilGo(test), '--hermes-bin', fakeAgentPath]);
		await screen.waitForScreen(/● 2 running/, {message: 'both tasks running in the dashboard'});
		const {runId, dir} = onlyRun(test);
		screen.sendKeys('d');
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(exit.screen).toContain(`detached: run ${runId} runs on; come back with: hermes-delegate attach ${runId}`);
		await waitFor(() => clients(dir) === 0, {message: 'the host to see its client go'});
		await completeResults(test, runId);
		expect(readFileSync(path.join(dir, 'host.log'), 'utf8')).toMatch(/client #1 \(tui\): detached \(the operator pressed d\)/);
	});

	it('q asks: detach, cancel all or stay; d at the question detaches', async () => {
		const test = home();
		const screen = terminal(test, [process.execPath, cliPath, 'tui', twoTasksUntilGo(test), '--hermes-bin', fakeAgentPath]);
		await screen.waitForScreen(/● 2 running/, {message: 'both tasks running in the dashboard'});
		const {runId} = onlyRun(test);
		screen.sendKeys('q');
		await screen.waitForScreen(/Quit\? Stops 2 running tasks: SIGTERM to each process group, SIGKILL after 5s\. Or detach: the batch runs on\. y\/n\/d/, {message: 'the three-way question'});
		screen.sendKeys('n');
		await screen.waitForScreen(screenNow => !screenNow.includes('Quit?'), {message: 'n to stay'});
		screen.sendKeys('q');
		await screen.waitForScreen(/Or detach: the batch runs on/, {message: 'the question again'});
		screen.sendKeys('d');
		expect((await screen.waitForExit()).code).toBe(0);
		await completeResults(test, runId);
	});

	it('the dashboard killed -9: every task finishes and the results are complete', async () => {
		const test = home();
		const pidFile = path.join(test.dir, 'cli.pid');
		const screen = terminal(test, ['/bin/sh', '-c', 'echo $$ > "$0"; exec "$@"', pidFile, process.execPath, cliPath, 'tui', twoTasksUntilGo(test), '--hermes-bin', fakeAgentPath]);
		await screen.waitForScreen(/● 2 running/, {message: 'both tasks running in the dashboard'});
		const {runId, dir} = onlyRun(test);
		process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
		await screen.waitForExit();
		await waitFor(() => clients(dir) === 0, {message: 'the host to see its client vanish'});
		await completeResults(test, runId);
		expect(readFileSync(path.join(dir, 'host.log'), 'utf8')).toMatch(/client #1 \(tui\): went away without detaching/);
	});

	it('attach without a run asks which when several are live', async () => {
		const test = home();
		const until = `[fake:until-file=${path.join(test.dir, 'go')}]`;
		const first = (await runCli(test, ['run', '--detach', tasksJson({name: 'older-batch', goal: 'Finish when told', context: until})])).stdout.trim();
		const second = (await runCli(test, ['run', '--detach', tasksJson({name: 'newer-batch', goal: 'Finish when told', context: until})])).stdout.trim();
		const screen = terminal(test, [process.execPath, cliPath, 'attach']);
		const question = await screen.waitForScreen(/attach to which\?/, {message: 'the choice between the live runs'});
		// Newest first: the second run started is choice 1. Only this test's runs: a demo running
		// elsewhere on the machine meanwhile is in another demo home.
		expect(question.indexOf(second)).toBeLessThan(question.indexOf(first));
		expect(question.match(/^ {2}\d\) /gm)).toHaveLength(2);
		screen.sendKeys('2', 'Enter');
		await screen.waitForScreen(/t01 older-batch +● running/, {message: 'the dashboard of the run chosen'});
		screen.kill();
		test.write('go', '');
		expect((await runCli(test, ['wait', first])).exitCode).toBe(0);
		expect((await runCli(test, ['wait', second])).exitCode).toBe(0);
	});

	it('attach from another terminal shows a live run; a cancel from the command line shows there', async () => {
		const test = home();
		const started = await runCli(test, ['run', '--detach', tasksJson(
			{name: 'stuck', goal: 'Never stop', context: '[fake:forever] [fake:ready]'},
			{name: 'other', goal: 'Finish when told', context: `[fake:until-file=${path.join(test.dir, 'go')}]`},
		), '--grace', '1']);
		expect(started.exitCode, started.stderr).toBe(0);
		const runId = started.stdout.trim();
		await waitFor(() => recordedGroups(path.join(test.runsDir, runId)).length === 2, {message: 'both agents started'});

		const screen = terminal(test, [process.execPath, cliPath, 'attach', runId]);
		await screen.waitForScreen(/t01 stuck +● running/, {message: 'the attached dashboard'});
		const cancelled = await runCli(test, ['cancel', runId, 'stuck']);
		expect(cancelled.exitCode, cancelled.stderr).toBe(0);
		const shown = await screen.waitForScreen(/t01 stuck +⊘ cancelled/, {message: 'the cancel seen by the attached client'});
		expect(shown).toMatch(/t02 other +● running/);

		// The operator leaves by closing the terminal: the batch goes on to its end.
		screen.kill();
		test.write('go', '');
		const waited = await runCli(test, ['wait', runId]);
		expect((JSON.parse(waited.stdout) as BatchReport).results.map(result => result.status)).toEqual(['cancelled', 'succeeded']);
	});
});
