// The dashboard sends the terminal only the cells that changed (ui/terminal/diff-writer.ts), so a
// cell it forgets stays on screen. After each layout change, the screen drawn that way must be the
// screen drawn whole: tmux's picture of it (characters and colours) is compared with the one after
// a resize away and back, which makes the writer draw every row from nothing. Clocks and the burn
// rate are masked (they may move between the two); nothing else on these screens changes by itself: the agents
// print once and wait. Every wait polls the screen; nothing sleeps.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {cellsOf, styleSequence} from '../../src/ui/terminal/cells.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {startTmux, type TmuxSession} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const columns = 120;
const rows = 36;

/** Elapsed times ("12s", "1m 05s", "0.4 s ago") and the burn rate ("$0.014/min"): they move between two captures. */
const clocks = /(?:\d+(?:\.\d+)? ?(?:ms|s|m|h)\b)(?: \d+(?:ms|s|m|h)\b)*|\$[\d.]+\/min/g;

/**
 * A captured screen (capture-pane -e) as what a person sees: each cell's character and style, a
 * blank cell only by what shows on a blank (background, inverse, underline, strikethrough), and
 * blank cells at the end of a row dropped. Rows that are not simple (wide characters) compare as
 * captured.
 */
function seen(capture: string): string[] {
	// capture-pane -e carries the style from one row's end into the next row: each row is read
	// after the escapes of the rows above it.
	let above = '';
	return capture.split('\n').map(line => {
		const cells = cellsOf(above + line);
		above += (line.match(/\u001B\[[\d;]*m/g) ?? []).join('');
		if (!cells) return line.replaceAll(clocks, '#');
		const shown = [...cells.text].map((char, index) => {
			const codes = /^\u001B\[0;(.*)m$/.exec(styleSequence(cells.styles[index] ?? 0))?.[1]?.split(';') ?? [];
			const visible = char === ' ' ? codes.filter(code => /^(?:4\d|10\d|7|4|21|9|53)$/.test(code) || code.startsWith('48')) : codes;
			return visible.length === 0 ? char : `${char}[${visible.join(';')}]`;
		});
		const ticking = [...cells.text.matchAll(clocks)];
		for (const clock of ticking) shown.fill('', clock.index, clock.index + clock[0].length).splice(clock.index, 1, '#');
		while (shown.at(-1) === ' ') shown.pop();
		// A right-aligned badge moves left as its clock grows: the padding before it is not compared.
		return ticking.length > 0 ? shown.join('').replaceAll(/ {2,}/g, ' ') : shown.join('');
	});
}

/** The screen as drawn by changes equals the screen drawn whole, at the current size. */
async function expectNoStaleCell(screen: TmuxSession, step: string): Promise<void> {
	const changed = seen(await screen.settled({escapes: true}));
	screen.resize(columns - 30, rows - 10);
	await screen.waitForScreen(text => text.split('\n').length <= rows - 10 + 1 && text.split('\n').every(line => line.length <= columns - 30), {message: `${step}: the smaller window`});
	screen.resize(columns, rows);
	await screen.waitForScreen(text => text.split('\n').some(line => line.length > columns - 30), {message: `${step}: the window back to its size`});
	const whole = seen(await screen.settled({escapes: true}));
	expect(changed, step).toEqual(whole);
}

describe('a screen drawn by its changed cells equals the screen drawn whole', () => {
	it('after help, zoom, the filter, the layout key and tasks finishing, each checked through a resize', async () => {
		const test = makeHome();
		cleanups.push(() => test.remove());
		const release = path.join(test.dir, 'go');
		const file = test.write('tasks.json', tasksJson(
			...Array.from({length: 5}, (_, index) => ({goal: `Survey module ${index + 1} and report`, context: `[fake:until-file=${release}-${index + 1}] [fake:duration=600] [fake:steps=1]`})),
			{name: 'quick-one', goal: 'Answer at once', context: '[fake:duration=0]'},
		));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, '-j', '6'], {columns, rows, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
		cleanups.push(() => screen.kill());
		await screen.waitForScreen(text => /5 running/.test(text) && /quick-one.*✓ succeeded/.test(text) && (text.match(/· 1 tool call\b/g) ?? []).length === 5 && !/spend not read yet/.test(text), {message: 'five running (each in its tool call, its spend read), one done'});
		await expectNoStaleCell(screen, 'the first grid');

		screen.sendKeys('?');
		await screen.waitForScreen(/closes this help/, {message: 'the help'});
		await expectNoStaleCell(screen, 'help open');
		screen.sendKeys('?');
		await screen.waitForScreen(text => !/closes this help/.test(text), {message: 'the help closed'});
		await expectNoStaleCell(screen, 'help closed');

		screen.sendKeys('Enter');
		await screen.waitForScreen(/Esc back/, {message: 'the zoom'});
		await expectNoStaleCell(screen, 'zoomed');
		screen.sendKeys('Escape');
		await screen.waitForScreen(text => !/Esc back/.test(text), {message: 'the grid again'});
		await expectNoStaleCell(screen, 'zoom closed');

		screen.sendKeys('/');
		screen.sendKeys('-l', 'module 3');
		await screen.waitForScreen(/module 3/, {message: 'the filter typed'});
		screen.sendKeys('Enter');
		await expectNoStaleCell(screen, 'filtered');
		screen.sendKeys('/');
		screen.sendKeys('Escape');
		await screen.waitForScreen(/module 1/, {message: 'the filter cleared'});
		await expectNoStaleCell(screen, 'filter cleared');

		screen.sendKeys('L');
		await screen.waitForScreen(/^› t0\d /m, {message: 'the list'});
		await expectNoStaleCell(screen, 'the list');
		screen.sendKeys('L');
		await screen.waitForScreen(text => !/^› t0\d /m.test(text), {message: 'the grid'});

		writeFileSync(`${release}-2`, '');
		writeFileSync(`${release}-4`, '');
		await screen.waitForScreen(/3 running/, {message: 't02 and t04 finished'});
		await expectNoStaleCell(screen, 'two tasks finished, the grid reflowed');
		for (const index of [1, 3, 5]) writeFileSync(`${release}-${index}`, '');
	});
});
