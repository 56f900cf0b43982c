// `attach RUN` on a finished run, in a real terminal: a batch of the fake agent runs to its end
// with `run`, then attach opens it read-only from its run folder: its panes, the zoom, a search in
// it, the spend table, and a steering key that says why it does nothing. A run with no results to
// show (swept by gc, or unrecorded on a full disk) says so instead. Every wait polls the screen.
import {chmodSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {attachEnv, attachRun as attach, finishedRun} from '../helpers/finished-run.js';
import {cliPath} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

const all = (...patterns: RegExp[]) => (screen: string) => patterns.every(pattern => pattern.test(screen));

describe('attach on a finished run', () => {
	it('opens it read-only: panes, zoom, search, spend; steering keys are refused in one sentence', async () => {
		const {test, runId} = await finishedRun();
		const screen = attach(test, runId);
		await screen.waitForScreen(all(/finished after .* read-only/, new RegExp(`run ${runId}`), /t01 lookup +✓ succeeded/, /t02 second +✓ succeeded/, /Fake answer: Answer at once/), {message: 'the finished run, read-only'});

		screen.sendKeys('c');
		await screen.waitForScreen(/this run has finished: read-only/i, {message: 'c refused'});
		expect(screen.capture()).not.toMatch(/Cancel t01\?/);

		screen.sendKeys('Enter');
		await screen.waitForScreen(all(/why: /, /⚙ web_extract/), {message: 'the zoom on t01'});
		screen.sendKeys('/');
		await screen.waitForScreen(/Enter find/i, {message: 'the search field'});
		screen.sendKeys('-l', 'web_extract');
		screen.sendKeys('Enter');
		await screen.waitForScreen(/match "web_extract" at line \d+/, {message: 'the search found the tool line'});

		screen.sendKeys('$');
		await screen.waitForScreen(all(/Esc or \$ closes/, /batch +2 /), {message: 'the spend table'});
		// One Escape at a time: two at once read as one Alt+Escape.
		screen.sendKeys('Escape');
		await screen.waitForScreen(screen => !screen.includes('Esc or $ closes') && /Esc back/.test(screen), {message: 'the zoom again'});
		screen.sendKeys('Escape');
		await screen.waitForScreen(all(/t01 lookup/, /t02 second/, /Enter zoom/), {message: 'back at the grid'});

		screen.sendKeys('q');
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(/^2\/2 tasks succeeded$/m);
	});

	it('o hands the terminal to $PAGER with the task\'s whole log, and takes it back, as on a live run', async () => {
		const {test, runId} = await finishedRun();
		// The pager as a test device: it records a copy of the file and a line typed to it.
		const recorder = test.write('pager.sh', `#!/bin/sh\necho "$1" > "${test.dir}/pager-arg"\ncp "$1" "${test.dir}/pager-saw"\necho "PAGER SHOWING $(wc -l < "$1") lines"\nread -r typed\necho "$typed" > "${test.dir}/pager-typed"\n`);
		chmodSync(recorder, 0o755);
		const screen = attach(test, runId, {PAGER: recorder});
		await screen.waitForScreen(all(/read-only/, /t01 lookup +✓ succeeded/), {message: 'the finished run'});
		screen.sendKeys('o');
		await screen.waitForScreen(/PAGER SHOWING \d+ lines/, {message: 'the pager running'});
		// The dashboard is off the terminal: no alternate screen, no mouse reports, no bracketed paste.
		expect(screen.display('#{alternate_on}#{mouse_standard_flag}#{mouse_sgr_flag}')).toBe('000');
		screen.sendKeys('typed-to-the-pager', 'Enter');
		const back = await screen.waitForScreen(/t01's log was shown in/, {message: 'the dashboard back, saying so'});
		expect(back).toMatch(/finished after .* read-only/);
		expect(screen.display('#{alternate_on}#{mouse_standard_flag}#{mouse_sgr_flag}')).toBe('111');
		expect(readFileSync(path.join(test.dir, 'pager-typed'), 'utf8').trim()).toBe('typed-to-the-pager');
		expect(readFileSync(path.join(test.dir, 'pager-saw'), 'utf8')).toContain('Fake answer: Answer at once');
		const argument = readFileSync(path.join(test.dir, 'pager-arg'), 'utf8').trim();
		expect(argument).toMatch(new RegExp(`${runId}-t01\\.log$`));
		expect(existsSync(argument)).toBe(false);
		screen.sendKeys('q');
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(/^2\/2 tasks succeeded$/m);
	});

	it('q then y: q leaves at once (nothing runs), and the y does not reach the shell', async () => {
		const {test, runId} = await finishedRun();
		const script = '"$@"; echo READY; read -r line; echo "SHELL GOT=[$line]"';
		const screen = startTmux(['bash', '-c', script, 'bash', process.execPath, cliPath, 'attach', runId], {columns: 120, rows: 30, env: attachEnv(test)});
		onTestFinished(() => screen.kill());
		await screen.waitForScreen(/read-only/, {message: 'the finished run'});
		screen.sendKeys('q');
		// The y as a finger sends it: after q has taken the dashboard off the screen.
		for (let polls = 0; screen.display('#{alternate_on}') === '1' && polls < 10_000; polls++);
		screen.sendKeys('y');
		await screen.waitForScreen(/^READY$/m, {message: 'the dashboard gone and the shell reading'});
		screen.sendKeys('Enter');
		const after = await screen.waitForScreen(/SHELL GOT=\[.*\]/, {message: 'the shell to say what it read'});
		expect(after).toContain('SHELL GOT=[]');
	});

	it('--exit-when-done on a finished run leaves at once with its summary and run\'s exit code', async () => {
		const {test, runId} = await finishedRun();
		const screen = startTmux([process.execPath, cliPath, 'attach', runId, '--exit-when-done'], {columns: 120, rows: 20, env: attachEnv(test)});
		onTestFinished(() => screen.kill());
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(/^2\/2 tasks succeeded$/m);
	});

	it('a run swept by gc says it has no results to show', async () => {
		const {test, runId} = await finishedRun();
		const dir = path.join(test.runsDir, runId);
		rmSync(path.join(dir, 'results.json'));
		writeFileSync(path.join(dir, 'swept.json'), '{}\n');
		const exit = await attach(test, runId).waitForExit();
		expect(exit.code).toBe(2);
		expect(exit.screen.replaceAll('\n', '')).toMatch(new RegExp(`cannot open run ${runId}: .*\`gc\` has swept it since \\(swept\\.json\\): there are no results to show`));
	});

	it('an unrecorded run (its results.json could not be written) says so', async () => {
		const {test, runId} = await finishedRun();
		const dir = path.join(test.runsDir, runId);
		cpSync(path.join(dir, 'results.json'), path.join(test.dir, 'kept.json'));
		rmSync(path.join(dir, 'results.json'));
		writeFileSync(path.join(dir, 'host.log'), 'results.json could not be written: ENOSPC\n');
		const exit = await attach(test, runId).waitForExit();
		expect(exit.code).toBe(2);
		expect(exit.screen.replaceAll('\n', '')).toMatch(new RegExp(`cannot open run ${runId}: the batch finished, but its results\\.json could not be written \\(a full disk\\?\\)`));
	});
});
