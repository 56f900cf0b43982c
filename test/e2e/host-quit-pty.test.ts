// Quitting a dashboard ends its runner host before the dashboard's own exit: once the operator's
// shell is back, results.json is written, the host has written its last line and is gone, and
// nothing more changes in the run folder (a script may remove it next). Quitting a demo through
// `attach` ends as quitting the demo does (exit 0). In a real terminal (tmux).
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {readRunOwner} from '../../src/core/run-folder/owner.js';
import type {BatchReport} from '../../src/core/types.js';
import {fakeAgentPath, isProcessRunning} from '../helpers/processes.js';
import {signalGroup} from '../../src/core/process/group.js';
import {cliPath, makeHome, recordedGroups, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {startTmux, type TmuxSession} from '../helpers/tmux.js';
import {waitFor} from '../helpers/wait-for.js';
import {readHostStatus} from '../../src/wire/host-json.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function home(): TestHome {
	const created = makeHome();
	cleanups.push(() => created.remove());
	return created;
}

function terminal(test: TestHome, args: string[]): TmuxSession {
	const screen = startTmux([process.execPath, cliPath, ...args], {env: {HERMES_HOME: test.dir, HERMES_DELEGATE_DEMO_HOME: path.join(test.dir, 'demo-home')}});
	cleanups.push(() => screen.kill());
	return screen;
}

function dashboard(test: TestHome, tasks: string): TmuxSession {
	return terminal(test, ['tui', tasks, '--hermes-bin', fakeAgentPath]);
}

function onlyRunDir(test: TestHome): string {
	const runs = test.runs();
	expect(runs).toHaveLength(1);
	return path.join(test.runsDir, runs[0]!);
}

function hostLog(dir: string): string[] {
	return readFileSync(path.join(dir, 'host.log'), 'utf8').trimEnd().split('\n').map(line => line.replace(/^\S+ /, ''));
}

describe('quitting the dashboard ends its runner host first', () => {
	it('q → y while tasks run: the cascade, then the shell is back only once results are written and the host is gone', async () => {
		const test = home();
		const runaway = '[fake:forever] [fake:ready]';
		const screen = dashboard(test, test.write('tasks.json', tasksJson({name: 'one', goal: 'Run until stopped', context: runaway}, {name: 'two', goal: 'Run until stopped too', context: runaway})));
		await screen.waitForScreen(/● 2 running/, {message: 'both tasks running'});
		const dir = onlyRunDir(test);
		const hostPid = readRunOwner(dir)!.pid;
		screen.sendKeys('q');
		await screen.waitForScreen(/Quit\? Stops 2 running tasks/, {message: 'the quit question'});
		screen.sendKeys('y');

		const exit = await screen.waitForExit();
		expect(exit.code).toBe(130);
		// At the moment the shell is back: the host has ended, after its last line.
		expect(isProcessRunning(hostPid)).toBe(false);
		const report = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as BatchReport;
		expect(report.results.map(result => result.status)).toEqual(['cancelled', 'cancelled']);
		const log = hostLog(dir);
		expect(log.at(-1)).toBe('host ends');
		expect(log).toContainEqual(expect.stringMatching(/^client #\d+ \(tui\): quit/));
	});

	it('q on a finished batch quits at once; a host slow to end (stopped with SIGSTOP) holds the dashboard, which says it waits; the host is gone when the shell is back', async () => {
		const test = home();
		const screen = dashboard(test, test.write('tasks.json', tasksJson({name: 'quick', goal: 'Answer', context: '[fake:duration=0.1]'})));
		await screen.waitForScreen(/✓ 1 succeeded/, {message: 'the task finished'});
		const dir = onlyRunDir(test);
		const hostPid = readRunOwner(dir)!.pid;
		// batch.finished has gone out to the dashboard before host.json says so (both on the one event).
		await waitFor(() => readHostStatus(dir)?.finished === true, {message: 'the batch finished, as host.json says'});
		process.kill(hostPid, 'SIGSTOP');
		cleanups.push(() => {
			try {
				process.kill(hostPid, 'SIGCONT');
			} catch {
				// gone
			}
		});
		screen.sendKeys('q'); // nothing left to stop: q quits at once

		// Either the dashboard left its host behind (the defect) or it waits for it and says so.
		const shown = await screen.waitForScreen(now => /^EXIT=\d+$/m.test(now) || now.includes('waiting for the runner host'), {message: 'the dashboard to exit or to say it waits'});
		expect(shown).not.toMatch(/^EXIT=/m);
		expect(shown).toContain(`waiting for the runner host of run ${path.basename(dir)} to write its last and end`);
		const logBefore = hostLog(dir);
		expect(logBefore.at(-1)).not.toBe('host ends');

		process.kill(hostPid, 'SIGCONT');
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(isProcessRunning(hostPid)).toBe(false);
		expect(hostLog(dir).at(-1)).toBe('host ends');
		expect(exit.screen).toContain('1/1 tasks succeeded');
	});

	it('attach to a demo, then q → y: the cascade, and exit 0 as the demo itself exits', async () => {
		const test = home();
		const demoRuns = path.join(test.dir, 'demo-home', 'delegate', 'runs');
		cleanups.push(() => {
			for (const run of existsSync(demoRuns) ? readdirSync(demoRuns) : []) {
				for (const pgid of recordedGroups(path.join(demoRuns, run))) signalGroup(pgid, 'SIGKILL');
			}
		});
		const demo = terminal(test, ['demo']);
		await demo.waitForScreen(/t06 runaway-crawler +● running/, {timeoutMs: 30_000, message: 'the demo\'s runaway running'});
		demo.sendKeys('d');
		expect((await demo.waitForExit()).code).toBe(0);
		const [runId] = readdirSync(demoRuns);
		const dir = path.join(demoRuns, runId!);
		const hostPid = readRunOwner(dir)!.pid;

		// `spend` by the demo's run id, from this home: the demo's home is looked in too, and its live
		// host answers (the demo's fake agents write their rows: some spend is known by now).
		const spend = await runCli(test, ['spend', runId!, '--json'], {env: {HERMES_DELEGATE_DEMO_HOME: path.join(test.dir, 'demo-home')}});
		expect(spend.exitCode, spend.stderr).toBe(0);
		expect(JSON.parse(spend.stdout)).toMatchObject({run_id: runId, from: 'runner host', spend: {total: {attempts: expect.any(Number)}}});

		// No run named: the demo's run is the one live run of this home and the demo's.
		const attached = terminal(test, ['attach']);
		await attached.waitForScreen(/t06 runaway-crawler +● running/, {message: 'the demo in the attached dashboard'});
		attached.sendKeys('q');
		await attached.waitForScreen(/Quit\? Stops \d running tasks?/, {message: 'the quit question (t06 runs until cancelled)'});
		attached.sendKeys('y');
		const exit = await attached.waitForExit({timeoutMs: 30_000});
		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(new RegExp(`results: .*${runId}.*results\\.json`));
		const report = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as BatchReport;
		expect(report.interrupted).toBe(true);
		// The host is not this dashboard's child: it has let the client go after its last line and ends next.
		expect(hostLog(dir).at(-1)).toBe('host ends');
		await waitFor(() => !isProcessRunning(hostPid), {message: 'the demo\'s runner host to end'});
	});
});
