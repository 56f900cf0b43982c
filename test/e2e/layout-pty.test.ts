// The dashboard's layout and discoverability in a real terminal (tmux): the list shows each
// task's model at 80 columns, the footer offers R on a failed task, the help at 200 columns is
// one column of whole descriptions, and emoji with skin tones or joiners leave every pane border
// where it belongs. Every wait polls the screen; nothing sleeps.
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {steeringConfig} from '../helpers/steering-config.js';
import {startTmux, type TmuxSession} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const all = (...patterns: RegExp[]) => (screen: string) => patterns.every(pattern => pattern.test(screen));
const emojiGoal = 'Thank the team \u{1F44D}\u{1F3FD} and the \u{1F468}\u200D\u{1F469}\u200D\u{1F467} family';

/** A steerable batch: t01 (a goal with emoji sequences) runs until released, t02 fails at once, t03 succeeds. */
function dashboard(columns: number, rows: number): {screen: TmuxSession; go(): void} {
	const test = makeHome(steeringConfig);
	cleanups.push(() => test.remove());
	for (const profile of ['coder', 'writer']) mkdirSync(path.join(test.dir, 'profiles', profile), {recursive: true});
	const release = path.join(test.dir, 'go');
	const file = test.write('tasks.json', tasksJson(
		{goal: emojiGoal, context: `[fake:until-file=${release}]`},
		{name: 'flaky-provider', goal: 'Fail on a rate limit', context: '[fake:fail] [fake:duration=0]'},
		{name: 'long-report', goal: 'Write the long report', context: '[fake:duration=0]'},
	));
	const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, '-j', '3'], {columns, rows, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
	cleanups.push(() => screen.kill());
	return {screen, go: () => writeFileSync(release, '')};
}

describe('layout and keys in a real terminal', () => {
	it('80x24: the list shows every model, and the footer offers R on the failed task', async () => {
		const {screen, go} = dashboard(80, 24);
		await screen.waitForScreen(/t02 flaky-prov\S* +✗ failed/, {message: 't02 failed'});
		screen.sendKeys('L');
		await screen.waitForScreen(/^› t01 /m, {message: 'the list'});
		const list = await screen.waitForScreen(/^ {2}t02 ✗ failed/m, {message: 't02 in the list'});
		for (const id of ['t01', 't02', 't03']) {
			expect(list.split('\n').find(line => line.slice(2).startsWith(`${id} `)), id).toMatch(/fast · google\/gemini-3-flash-preview/);
		}

		screen.sendKeys('Down');
		const focused = await screen.waitForScreen(/^› t02 /m, {message: 't02 focused'});
		expect(focused.trimEnd().split('\n').at(-1)).toMatch(/R re-route.*\? help +q quit/);
		go();
	});

	it('200x50: ? shows one column, each description whole', async () => {
		const {screen, go} = dashboard(200, 50);
		await screen.waitForScreen(/t01 Thank the team .*● running/, {message: 't01 running'});
		screen.sendKeys('?');
		const help = await screen.waitForScreen(all(/closes this help/, /Dashboard/), {message: 'the help'});
		expect(help).not.toMatch(/ro…/);
		expect(help.split('\n').filter(line => /Focus the pane above\s+\S/.test(line.replace(/│\s*$/, '')))).toEqual([]);
		screen.sendKeys('PageDown');
		const more = await screen.waitForScreen(/M +Edit the selected model route's model\s*│/, {message: 'M in the help'});
		expect(more).toMatch(/P +Edit the selected model route's provider \(emptied/);
		go();
	});

	it('emoji with a skin tone or joiners leave every pane border in its column', async () => {
		const {screen, go} = dashboard(160, 48);
		const shown = await screen.waitForScreen(all(/t01 Thank the team .*● running/, /⚙ web_search \{"query":"Thank the team \u{1F44D}/u, /t03 long-report .*✓ succeeded/), {message: 't01 printing its goal, t03 done'});
		// The first row: t01's pane (its title and output hold the emoji) beside t02's. Were the
		// emoji drawn wider than measured, t02's pane would be pushed past the edge and wrap.
		const lines = shown.split('\n');
		const body = lines.slice(2, lines.findIndex((line, index) => index > 2 && /^[┗╰]/.test(line)) + 1);
		expect(body.length).toBeGreaterThan(10);
		expect(body.filter(line => !/^[┃┏┗].*[┃┏┗┓┛│╭╰╮╯].*[│╮╯]$/u.test(line.trimEnd()))).toEqual([]);
		go();
	});
});
