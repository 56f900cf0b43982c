// The dashboard in a real terminal: the built CLI runs inside tmux, is driven with key presses
// and read off the screen, while the process table says what really happened to the agents.
// Tasks that must still run while keys are pressed run until the test creates their file
// ([fake:until-file]), however slow the machine. Nothing here sleeps; every wait polls the screen
// (or the process table) for the event it needs.
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {demoHomePath} from '../../src/core/input/demo.js';
import {listGroupMembers, signalGroup} from '../../src/core/process/group.js';
import type {ProcessRecord} from '../../src/core/run-folder/folder.js';
import {readRunOwner} from '../../src/core/run-folder/owner.js';
import type {BatchReport} from '../../src/core/types.js';
import {fakeAgentPath, isProcessRunning} from '../helpers/processes.js';
import {cliPath, makeHome, recordedGroups, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {colourCodes, startTmux, type TmuxOptions, type TmuxSession} from '../helpers/tmux.js';
import {waitFor} from '../helpers/wait-for.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	// The terminal first, then the home: its recorded agents get SIGKILL, and their runner host,
	// with no task left and no client, ends by itself.
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function home(): TestHome {
	const created = makeHome();
	cleanups.push(() => created.remove());
	return created;
}

type Dashboard = {home: TestHome; screen: TmuxSession};
type Tasks = Array<{goal: string; context?: string} & Record<string, unknown>>;

/** `hermes-delegate tui TASKS` on the fake agent, in a 160×48 terminal unless told otherwise. */
function dashboard(tasks: Tasks | ((test: TestHome) => Tasks), flags: string[] = [], options: TmuxOptions = {}): Dashboard {
	const test = home();
	const file = test.write('tasks.json', tasksJson(...(typeof tasks === 'function' ? tasks(test) : tasks)));
	const screen = terminal([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, ...flags], {...options, env: {HERMES_HOME: test.dir, ...options.env}});
	return {home: test, screen};
}

function terminal(argv: string[], options: TmuxOptions): TmuxSession {
	const screen = startTmux(argv, options);
	cleanups.push(() => screen.kill());
	return screen;
}

function onlyRun(test: TestHome): string {
	const runs = test.runs();
	expect(runs).toHaveLength(1);
	return path.join(test.runsDir, runs[0]!);
}

function started(runDir: string, task: string): ProcessRecord {
	const records = readFileSync(path.join(runDir, 'processes.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line) as ProcessRecord);
	const record = records.find(entry => entry.event === 'started' && entry.task === task);
	if (!record) throw new Error(`${task} has no 'started' record in ${runDir}/processes.jsonl`);
	return record;
}

/** Live processes of every group the run recorded, by pgid; empty when the batch left nothing behind. */
function leftovers(runDir: string): Record<number, number[]> {
	const groups = recordedGroups(runDir);
	expect(groups.length).toBeGreaterThan(0);
	return Object.fromEntries(groups.map(pgid => [pgid, listGroupMembers(pgid)] as const).filter(([, members]) => members.length > 0));
}

function readResults(screen: string): BatchReport {
	const file = /^results: (.+results\.json)$/m.exec(screen)?.[1];
	expect(file, `no "results: <path>" line on the screen:\n${screen}`).toBeDefined();
	expect(existsSync(file!)).toBe(true);
	return JSON.parse(readFileSync(file!, 'utf8')) as BatchReport;
}

const all = (...patterns: RegExp[]) => (screen: string) => patterns.every(pattern => pattern.test(screen));
/** A task that runs until `go(test)` is written; never written, it runs until it is stopped. */
const untilGo = (test: TestHome) => `[fake:until-file=${path.join(test.dir, 'go')}]`;
const go = (test: TestHome) => writeFileSync(path.join(test.dir, 'go'), '');
const header = /^hermes-delegate · (?:finished after )?\d[\dhms]* · /;
const runaway = '[fake:forever] [fake:ignore-term] [fake:grandchild] [fake:ready]';

describe('the dashboard in a real terminal', () => {
	it('cancels a runaway from the keyboard: its whole process group dies, the other tasks run on', async () => {
		const {home: test, screen} = dashboard(test => [
			{name: 'alpha-notes', goal: 'Summarise the alpha notes', context: untilGo(test)},
			{name: 'beta-notes', goal: 'Summarise the beta notes', context: untilGo(test)},
			{name: 'runaway-crawler', goal: 'Crawl the whole docs site', context: runaway},
		], ['--grace', '1']);

		const first = await screen.waitForScreen(all(/t01 alpha-notes/, /t02 beta-notes/, /t03 runaway-crawler/, /grandchild pid \d+/, /READY/), {message: 'three panes, the runaway ready with its grandchild'});
		const grandchild = Number(/grandchild pid (\d+)/.exec(first)?.[1]);
		const runDir = onlyRun(test);
		const {pgid} = started(runDir, 't03');
		// The premise: the grandchild really is in the runaway's group, so killing the group must reach it.
		expect(listGroupMembers(pgid)).toEqual(expect.arrayContaining([pgid, grandchild]));

		// The focused pane has the heavy border (┃); the first task starts focused.
		await screen.waitForScreen(/┃ t01 alpha-notes/);
		screen.sendKeys('Tab');
		await screen.waitForScreen(/┃ t02 beta-notes/);
		screen.sendKeys('Tab');
		await screen.waitForScreen(/┃ t03 runaway-crawler/);
		screen.sendKeys('c');
		await screen.waitForScreen(/Cancel t03 'runaway-crawler'\? SIGTERM to its process group, SIGKILL after 1s\. y\/n/);
		screen.sendKeys('y');

		const cancelled = await screen.waitForScreen(/t03 runaway-crawler +⊘ cancelled/, {message: 'the runaway pane to say cancelled'});
		expect(cancelled).toMatch(/t01 alpha-notes +● running/);
		expect(cancelled).toMatch(/t02 beta-notes +● running/);
		// 'cancelled' is shown only once the group is empty: no waiting here.
		expect(listGroupMembers(pgid)).toEqual([]);
		expect(isProcessRunning(grandchild)).toBe(false);
		expect(listGroupMembers(started(runDir, 't01').pgid)).not.toEqual([]);

		go(test);
		await screen.waitForScreen(all(/t01 alpha-notes +✓ succeeded/, /t02 beta-notes +✓ succeeded/), {timeoutMs: 30_000, message: 'the other two tasks to succeed'});
		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		const exit = await screen.waitForExit();

		expect(exit.code).toBe(1);
		expect(exit.screen).toMatch(/^2\/3 tasks succeeded \(1 cancelled\)$/m);
		const report = readResults(exit.screen);
		expect(report.results.map(result => [result.id, result.status])).toEqual([['t01', 'succeeded'], ['t02', 'succeeded'], ['t03', 'cancelled']]);
		// It ignored SIGTERM, so the cascade had to force it.
		expect(report.results[2]?.signal).toBe('SIGKILL');
		expect(leftovers(runDir)).toEqual({});
	});

	it('quitting while tasks run asks first, shows what it is stopping, K kills now, exits 130 and leaves nothing running', async () => {
		const {home: test, screen} = dashboard(test => [
			{name: 'long-report', goal: 'Write the long report', context: untilGo(test)},
			{name: 'stubborn-agent', goal: 'Keep going no matter what', context: runaway},
		], ['--grace', '30']);

		const first = await screen.waitForScreen(all(/t01 long-report +● running/, /t02 stubborn-agent +● running/, /grandchild pid \d+/, /READY/));
		const grandchild = Number(/grandchild pid (\d+)/.exec(first)?.[1]);
		screen.sendKeys('q');
		await screen.waitForScreen(/Quit\? Stops 2 running tasks: SIGTERM to each process group, SIGKILL after 30s\. Or detach: the batch runs on\. y\/n\/d/);
		screen.sendKeys('y');

		// The stubborn one outlives SIGTERM for the whole grace period, far longer than the test
		// needs to see it being stopped; K then ends it at once.
		await screen.waitForScreen(all(/^quitting: stopping \d tasks? \([^)]*t02[^)]*\)… K kills now$/m, /t02 stubborn-agent +◐ cancelling \(quitting\)/), {message: 'the quitting line and the cancelling pane'});
		screen.sendKeys('K');
		const exit = await screen.waitForExit();

		// Quitting interrupts the batch: exitCodes.interrupted, as for Ctrl-C in `run`.
		expect(exit.code).toBe(130);
		const report = readResults(exit.screen);
		expect(report.interrupted).toBe(true);
		expect(report.results.map(result => result.status)).toEqual(['cancelled', 'cancelled']);
		expect(report.results[1]?.signal).toBe('SIGKILL');
		expect(leftovers(onlyRun(test))).toEqual({});
		expect(isProcessRunning(grandchild)).toBe(false);
	});

	it('demo shows its header and panes, and q → y leaves a clean terminal with nothing running and exits 0', async () => {
		const test = home();
		// The demo keeps its HERMES_HOME in the temp dir: point that into the test's home.
		const tmp = path.join(test.dir, 'tmp');
		mkdirSync(tmp);
		cleanups.push(() => {
			for (const pgid of demoRuns(tmp).flatMap(recordedGroups)) signalGroup(pgid, 'SIGKILL');
		});
		const screen = terminal([process.execPath, cliPath, 'demo'], {env: {TMPDIR: tmp}});

		const names = ['capital-lookup', 'fix-flaky-test', 'survey-vector-dbs', 'changelog-summary', 'flaky-provider', 'runaway-crawler', 'explain-design', 'turbo-route'];
		const shown = await screen.waitForScreen(all(header, /· model routes · concurrency 3 · run \S+/, ...names.map((name, index) => new RegExp(`t0${index + 1} ${name}`)), /● running/, /t08 turbo-route +⊖ refused/), {message: 'the demo header and all eight panes'});
		expect(shown.split('\n')[0]).toMatch(header);
		expect(shown).toMatch(/q quit/);
		// The same frame in colour: the control for the NO_COLOR test below.
		expect(colourCodes(await screen.settled({escapes: true}))).not.toEqual([]);

		screen.sendKeys('q');
		await screen.waitForScreen(/Quit\? Stops \d running tasks?: SIGTERM to each process group, SIGKILL after 5s/);
		screen.sendKeys('y');
		const exit = await screen.waitForExit({timeoutMs: 30_000});

		// Quitting is how the demo ends and its failures are staged: exit 0, so `npm run demo`
		// ends cleanly; the results still say the batch was interrupted (`tui` would exit 130).
		expect(exit.code).toBe(0);
		expect(exit.screen).not.toMatch(/internal error/);
		const report = readResults(exit.screen);
		expect(report.interrupted).toBe(true);
		// One fixed demo home, whose runs are kept (the newest ten): the printed path stays valid.
		expect(path.dirname(report.run_dir)).toBe(path.join(demoHomePath({}, tmp), 'delegate', 'runs'));
		// Back on the main screen with a visible cursor: the terminal is as the operator left it.
		expect(screen.display('#{alternate_on} #{cursor_flag}')).toBe('0 1');
		expect(leftovers(report.run_dir)).toEqual({});
	});

	it('hostile output cannot retitle the terminal, clear the screen or leave escape debris', async () => {
		const test = home();
		const file = test.write('tasks.json', tasksJson({name: 'hostile-output', goal: 'Print nasty escapes', context: '[fake:escapes] [fake:duration=1]'}));
		const probe = 'hd-title-probe';
		// A title of our own first: it proves this tmux takes OSC titles, so an unchanged one means something.
		const screen = terminal(['/bin/sh', '-c', `printf '\\033]2;${probe}\\033\\\\'; exec "$@"`, 'sh', process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, '--no-mouse'], {env: {HERMES_HOME: test.dir}});

		const done = await screen.waitForScreen(all(/t01 hostile-output +✓ succeeded/, /end of hostile output/, /Fake answer/), {message: 'the hostile task to finish'});
		const lines = done.split('\n');
		expect(lines[0]).toMatch(header);
		expect(lines[1]).toMatch(/^1 task +✓ 1 succeeded/);
		expect(done).toMatch(/q quit/);
		// The lines are there, stripped of everything but their text.
		for (const text of ['coloured output is fine: red orange truecolor', 'window title:', 'cursor moves: overwritten', 'clear screen:', 'hyperlink:innocent text', 'progress 100%']) {
			expect(done).toContain(text);
		}

		expect(done).not.toMatch(/\[[\d;?]+[A-Za-z]|\][0-9]+;|pwned|evil\.example|\u001B/);
		expect(screen.display('#{pane_title}')).toBe(probe);
		// --no-mouse: any mouse mode on now would be the agent's (its ESC[?1000h).
		expect(screen.display('#{alternate_on} #{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}')).toBe('1 000');
		// SGR colour is the one thing subagent output may keep.
		expect(colourCodes(await screen.settled({escapes: true}))).toEqual(expect.arrayContaining(['\u001B[31m', '\u001B[38;5;208m']));

		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		expect((await screen.waitForExit()).code).toBe(0);
	});

	it('switches to the compact list when the terminal shrinks, and the frame still fits', async () => {
		const {home: test, screen} = dashboard(test => ['one', 'two', 'three', 'four', 'five'].map(word => ({name: `task-${word}`, goal: `Do task ${word}`, context: untilGo(test)})), ['--concurrency', '5']);

		// Panes side by side: the grid.
		await screen.waitForScreen(all(/t05 task-five +● running/, /[╮┓][╭┏]/), {message: 'the grid with five running tasks'});
		screen.resize(80, 20);
		expect(screen.display('#{pane_width}x#{pane_height}')).toBe('80x20');

		const list = await screen.waitForScreen(all(/^› t01 +● running/m, /^ {2}t05 +● running/m), {message: 'the list layout'});
		const lines = list.split('\n');
		// A frame taller than the terminal would scroll the header off and leave the footer short.
		expect(lines[0]).toMatch(header);
		expect(lines.slice(2, 7).map(line => /^[› ] (t0\d) /.exec(line)?.[1])).toEqual(['t01', 't02', 't03', 't04', 't05']);
		expect(list).not.toMatch(/[╮┓][╭┏]/);
		expect(lines.findLastIndex(line => /q quit/.test(line))).toBeGreaterThan(lines.findIndex(line => /┃ t01 task-one/.test(line)));

		screen.sendKeys('q');
		await screen.waitForScreen(/Quit\? Stops 5 running tasks/);
		screen.sendKeys('y');
		expect((await screen.waitForExit()).code).toBe(130);
		expect(leftovers(onlyRun(test))).toEqual({});
	});

	it('NO_COLOR=1 draws the whole frame, task output included, without a single colour', async () => {
		const {screen} = dashboard([
			// One step: its tool lines must not push the hostile lines out of the pane.
			{name: 'hostile-output', goal: 'Print coloured text', context: '[fake:escapes] [fake:duration=1] [fake:steps=1]'},
			{name: 'flaky-provider', goal: 'Fail on a rate limit', context: '[fake:fail] [fake:duration=1]'},
		], [], {env: {NO_COLOR: '1'}});

		await screen.waitForScreen(all(/t01 hostile-output +✓ succeeded/, /t02 flaky-provider +✗ failed exit 1/, /coloured output is fine: red orange truecolor/), {message: 'both tasks to end'});
		expect((await screen.settled()).split('\n')[0]).toMatch(header);
		expect(colourCodes(await screen.settled({escapes: true}))).toEqual([]);

		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		expect((await screen.waitForExit()).code).toBe(1);
	});

	// Ink reads CI / CONTINUOUS_INTEGRATION when it is first imported (is-in-ci) and then draws no
	// live frame at all; the CLI clears them for the dashboard when stdout is a terminal.
	it('draws the live dashboard even when CI=true is in the environment', async () => {
		const {home: test, screen} = dashboard(test => [{name: 'short-task', goal: 'Finish when told', context: untilGo(test)}], ['--exit-when-done'], {env: {CI: 'true'}});

		// The task runs until the file exists, so a live frame has all the time it needs to appear.
		await screen.waitForScreen(/● 1 running/, {message: 'a live frame while the task runs (none at all means Ink saw CI)'});
		go(test);
		expect((await screen.waitForExit()).code).toBe(0);
	});
});

describe('closing the terminal', () => {
	// Issue 24: the batch belongs to its runner host, so losing the terminal detaches the dashboard
	// (before the host it cancelled the batch). The cascade is then one `cancel` away.
	it('leaves the batch running; a cancel from the command line then ends it with the cascade, leaving nothing running', async () => {
		const {home: test, screen} = dashboard([
			{name: 'runaway', goal: 'Never stop', context: '[fake:forever] [fake:ignore-term] [fake:grandchild] [fake:ready]'},
		], ['--grace', '1']);
		// READY is printed after the grandchild's pid, so that line is drawn whole.
		const ready = await screen.waitForScreen(all(/grandchild pid \d+/, /READY/), {message: 'the runaway forked its grandchild'});
		const runDir = onlyRun(test);
		const grandchild = Number(/grandchild pid (\d+)/.exec(ready)![1]);

		screen.kill(); // the terminal goes away: SIGHUP, then every write to it fails
		await waitFor(() => readFileSync(path.join(runDir, 'host.json'), 'utf8').includes('"clients": 0'), {message: 'the runner host to see its dashboard go'});
		expect(existsSync(path.join(runDir, 'results.json'))).toBe(false);
		expect(Object.keys(leftovers(runDir))).toHaveLength(1);

		const cancelled = await runCli(test, ['cancel', path.basename(runDir)]);
		expect(cancelled.exitCode, cancelled.stderr).toBe(0);
		await waitFor(() => existsSync(path.join(runDir, 'results.json')), {timeoutMs: 30_000, message: 'results.json written after the cancel'});
		const report = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as BatchReport;
		expect(report.interrupted).toBe(true);
		expect(report.results[0]!.status).toBe('cancelled');
		await waitFor(() => Object.keys(leftovers(runDir)).length === 0 && !isProcessRunning(grandchild), {timeoutMs: 30_000, message: 'no process of the batch left'});
		// Nothing left to run and nobody attached: the host ends too.
		await waitFor(() => !isProcessRunning(readRunOwner(runDir)!.pid), {message: 'the runner host to end'});
	});
});

function demoRuns(tmp: string): string[] {
	const runs = path.join(demoHomePath({}, tmp), 'delegate', 'runs');
	return existsSync(runs) ? readdirSync(runs).map(run => path.join(runs, run)) : [];
}
