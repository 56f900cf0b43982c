// o opens the focused task's whole log in $PAGER: sanitised (the agent's escape
// sequences never reach the terminal), in a private temporary file removed afterwards; while the
// pager runs it has the terminal (the keys typed go to it, not the dashboard; mouse reporting and
// bracketed paste are off), and the dashboard comes back when it ends, saying so.
import {chmodSync, existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function start(pager: string | undefined) {
	const test = makeHome();
	cleanups.push(() => test.remove());
	const file = test.write('tasks.json', tasksJson(
		{name: 'hostile', goal: 'Print hostile output', context: '[fake:duration=0] [fake:escapes] [fake:answer=paged-answer]'},
		{name: 'other', goal: 'Say hello', context: '[fake:duration=0]'},
	));
	// The pager as a test device: it records its argument, a copy of the file and a line typed to it.
	const recorder = test.write('pager.sh', `#!/bin/sh\necho "$1" > "${test.dir}/pager-arg"\ncp "$1" "${test.dir}/pager-saw"\necho "PAGER SHOWING $(wc -l < "$1") lines"\nread -r typed\necho "$typed" > "${test.dir}/pager-typed"\n`);
	chmodSync(recorder, 0o755);
	const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath], {
		columns: 160, rows: 40,
		env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache'), ...(pager === undefined ? {} : {PAGER: pager === 'recorder' ? recorder : pager})},
	});
	cleanups.push(() => screen.kill());
	return {test, screen};
}

describe('o: the task\'s log in $PAGER', () => {
	it('hands the terminal to the pager with the sanitised log, and takes it back', async () => {
		const {test, screen} = start('recorder');
		await screen.waitForScreen(/finished after/, {message: 'the batch finished'});
		expect(screen.capture().split('\n').findLast(line => line.trim() !== '')).toContain('o open log');
		screen.sendKeys('o');
		await screen.waitForScreen(/PAGER SHOWING \d+ lines/, {message: 'the pager running'});
		// The dashboard is off the terminal: no alternate screen, no mouse reports, no bracketed paste.
		expect(screen.display('#{alternate_on}#{mouse_standard_flag}#{mouse_sgr_flag}')).toBe('000');
		screen.sendKeys('typed-to-the-pager', 'Enter');
		const back = await screen.waitForScreen(/t01's log was shown in/, {message: 'the dashboard back, saying so'});
		expect(back).toContain('finished after');
		expect(screen.display('#{alternate_on}#{mouse_standard_flag}#{mouse_sgr_flag}')).toBe('111');
		expect(readFileSync(path.join(test.dir, 'pager-typed'), 'utf8').trim()).toBe('typed-to-the-pager');
		const saw = readFileSync(path.join(test.dir, 'pager-saw'), 'utf8');
		expect(saw).toContain('paged-answer');
		expect(saw).toContain('end of hostile output');
		expect(saw).not.toMatch(/[\u001B\u009B\u0007]/);
		// The temporary copy is gone once the pager has ended.
		const argument = readFileSync(path.join(test.dir, 'pager-arg'), 'utf8').trim();
		expect(argument).toMatch(/t01\.log$/);
		expect(existsSync(argument)).toBe(false);
		screen.sendKeys('q');
		expect((await screen.waitForExit()).code).toBe(0);
	});

	it('a pager that cannot be found is said in the footer, with where the log is', async () => {
		const {screen} = start('no-such-pager-anywhere');
		await screen.waitForScreen(/finished after/, {message: 'the batch finished'});
		screen.sendKeys('o');
		const back = await screen.waitForScreen(/not found/, {message: 'the notice'});
		// The notice is cut at the screen's edge: the file's folder is the start of its path.
		expect(back).toMatch(/pager `no-such-pager-anywhere` not found \(exit 127\); the log is in \S*hermes-delegate-log-/);
		screen.sendKeys('q');
		await screen.waitForExit();
	});
});
