// The mouse in a real terminal: the dashboard turns SGR mouse reporting on (tmux then
// reports clicks as the terminal would), a double click on a pane zooms it, and quitting turns
// reporting off again, or the shell would get a report for every click; --no-mouse never turns it
// on. tmux's mouse_* formats say which modes the application set.
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {startTmux, type TmuxSession} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function dashboard(extra: string[]): TmuxSession {
	const test = makeHome();
	cleanups.push(() => test.remove());
	const file = test.write('tasks.json', tasksJson(
		{name: 'first', goal: 'Say hello', context: '[fake:duration=0]'},
		{name: 'second', goal: 'Say goodbye', context: '[fake:duration=0] [fake:answer=second-answer]'},
	));
	const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, ...extra], {
		columns: 160, rows: 40, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')},
	});
	cleanups.push(() => screen.kill());
	return screen;
}

/** The mouse modes the application in the pane set: standard (1000) and SGR (1006). */
function mouseModes(screen: TmuxSession): string {
	return screen.display('#{mouse_standard_flag}#{mouse_sgr_flag}');
}

/** Bytes to the application as the terminal would send them. */
function sendBytes(screen: TmuxSession, text: string): void {
	screen.sendKeys('-H', ...[...Buffer.from(text)].map(byte => byte.toString(16).padStart(2, '0')));
}

/** What a terminal sends for a left press and release at a 1-based cell, in the SGR encoding. */
function sendClick(screen: TmuxSession, x: number, y: number): void {
	const report = `\u001B[<0;${x};${y}M\u001B[<0;${x};${y}m`;
	sendBytes(screen, report + report);
}

describe('the mouse in a terminal', () => {
	it('is reported while the dashboard runs, a double click zooms the pane under it, and quitting turns it off', async () => {
		const screen = dashboard([]);
		await screen.waitForScreen(/finished after/, {message: 'the batch finished'});
		expect(mouseModes(screen)).toBe('11');
		// The footer says so (at 160 columns with every key: short).
		await screen.waitForScreen(current => /q quit.* mouse on$/.test(current.trimEnd().split('\n').at(-1) ?? ''), {message: 'the footer saying the mouse is on'});
		// Two panes side by side below the 2-line header: the right one is the second task.
		sendClick(screen, 120, 8);
		// The grid shows the answer too: the zoom is the one whose footer says Esc back.
		const zoomed = await screen.waitForScreen(current => current.includes('second-answer') && /Esc back/.test(current), {message: 'the second task zoomed'});
		expect(zoomed).toContain('t02');
		expect(zoomed).toContain('why:');
		screen.sendKeys('q');
		await screen.waitForExit();
		expect(mouseModes(screen)).toBe('00');
	});

	it('the wheel moves the focus in the list; malformed and off-screen reports change nothing and type nothing', async () => {
		const screen = dashboard([]);
		await screen.waitForScreen(/finished after/, {message: 'the batch finished'});
		// Cut, out of range, unknown buttons, the legacy X10 start with its three bytes, a drag: all dropped.
		sendBytes(screen, '\u001B[<0;12M\u001B[<;;M\u001B[<0;0;0M\u001B[<99999;1;1M\u001B[<0;99999;99999M\u001B[<66;5;5M\u001B[<32;5;5M\u001B[M !!');
		screen.sendKeys('L');
		await screen.waitForScreen(/Enter zoom/, {message: 'the list'});
		const list = await screen.waitForScreen(/› t01 /, {message: 't01 still focused'});
		// Nothing typed: no filter prompt, no question, no notice; the footer is the list's keys.
		expect(list.trimEnd().split('\n').at(-1)).toMatch(/^↑↓←→ move {2}Enter zoom/);
		// The wheel over the list: one notch down, the second task.
		sendBytes(screen, '\u001B[<65;10;5M');
		screen.sendKeys('Enter');
		// The zoom fills in from the host a moment after it opens: its answer says which task it is.
		const zoomed = await screen.waitForScreen(current => /Esc back/.test(current) && current.includes('second-answer'), {message: 't02 zoomed'});
		expect(zoomed).toMatch(/^t02 second/m);
		screen.sendKeys('q');
		expect((await screen.waitForExit()).code).toBe(0);
		expect(mouseModes(screen)).toBe('00');
	});

	it('--no-mouse leaves the mouse to the terminal', async () => {
		const screen = dashboard(['--no-mouse']);
		await screen.waitForScreen(/finished after/, {message: 'the batch finished'});
		expect(mouseModes(screen)).toBe('00');
		expect(screen.capture()).not.toContain('mouse on');
		screen.sendKeys('q');
		await screen.waitForExit();
	});
});
