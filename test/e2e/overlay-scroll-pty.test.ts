// The help and the spend table scroll in a real terminal (tmux): their window takes the scroll
// keys from the app's one key handler (ui/hooks/use-scroll-window.ts), a line with j or ↓ and a
// page with PgDn, and gives them back when it closes. Every wait polls the screen; nothing sleeps.
import {writeFileSync} from 'node:fs';
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
const hiddenAbove = (screen: string) => Number(/↑ (\d+) more/.exec(screen)?.[1] ?? 0);

/** A batch of four tasks on three routes, t01 running until released. */
function dashboard(columns: number, rows: number): {screen: TmuxSession; go(): void} {
	const test = makeHome(steeringConfig);
	cleanups.push(() => test.remove());
	const release = path.join(test.dir, 'go');
	const file = test.write('tasks.json', tasksJson(
		{name: 'held', goal: 'Wait for the word', context: `[fake:until-file=${release}]`},
		{name: 'quick', goal: 'Answer at once', context: '[fake:duration=0]', option: 'fast'},
		{name: 'deep-one', goal: 'Think it over', context: '[fake:duration=0]', option: 'deep'},
		{name: 'failing', goal: 'Fail on a rate limit', context: '[fake:fail] [fake:duration=0]'},
	));
	const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, '-j', '4'], {columns, rows, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
	cleanups.push(() => screen.kill());
	return {screen, go: () => writeFileSync(release, '')};
}

describe('overlays that scroll, in a real terminal', () => {
	it('80x24: the help scrolls a line with j and a page with PgDn, back with k, and Esc closes it', async () => {
		const {screen, go} = dashboard(80, 24);
		await screen.waitForScreen(/held .*● running/, {message: 't01 running'});
		screen.sendKeys('?');
		await screen.waitForScreen(all(/closes this help/, /↓ \d+ more/), {message: 'the help, longer than the screen'});
		screen.sendKeys('j');
		await screen.waitForScreen(/↑ 1 more/, {message: 'one line down'});
		screen.sendKeys('PageDown');
		const paged = await screen.waitForScreen(screen => hiddenAbove(screen) > 1, {message: 'a page down'});
		const afterPage = hiddenAbove(paged);
		screen.sendKeys('k');
		await screen.waitForScreen(screen => hiddenAbove(screen) === afterPage - 1, {message: 'one line back up'});
		screen.sendKeys('Escape');
		const closed = await screen.waitForScreen(screen => !/closes this help/.test(screen), {message: 'the help closed'});
		expect(closed).toMatch(/held/);
		go();
	});

	it('80x12: the spend table scrolls with j as the help does, and $ closes it', async () => {
		const {screen, go} = dashboard(80, 12);
		await screen.waitForScreen(/held/, {message: 'the dashboard'});
		screen.sendKeys('$');
		await screen.waitForScreen(all(/Spend \(Hermes/, /↓ \d+ more/), {message: 'the spend table, longer than the screen'});
		screen.sendKeys('j');
		const scrolled = await screen.waitForScreen(/↑ 1 more/, {message: 'one line down'});
		expect(scrolled).toMatch(/Spend \(Hermes/);
		screen.sendKeys('$');
		await screen.waitForScreen(screen => !/Spend \(Hermes/.test(screen), {message: 'the spend table closed'});
		go();
	});
});
