// Pasting into the dashboard in a real terminal (tmux pastes the way a terminal does: with the
// ESC[200~ … ESC[201~ marks only when the app turned bracketed paste on). A pasted "xy" in the
// routes list would remove a route and confirm if it were keys; a two-line paste into a field
// would save a line per Enter. Neither may happen; Backspace sent with text deletes; after the dashboard ends, bracketed paste is
// off again, so a paste into the shell arrives without the marks. Every wait polls the screen.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {steeringConfig} from '../helpers/steering-config.js';
import {startTmux} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe('pasting in the dashboard', () => {
	it('takes a paste as text, never keys, and turns bracketed paste off when it ends', async () => {
		const test = makeHome(steeringConfig);
		cleanups.push(() => test.remove());
		for (const profile of ['coder', 'writer']) mkdirSync(path.join(test.dir, 'profiles', profile), {recursive: true});
		const release = path.join(test.dir, 'go');
		const file = test.write('tasks.json', tasksJson({name: 'long-report', goal: 'Write the long report', context: `[fake:until-file=${release}]`}));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath], {columns: 160, rows: 48, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
		cleanups.push(() => screen.kill());
		const config = () => readFileSync(path.join(test.dir, 'config.yaml'), 'utf8');

		await screen.waitForScreen(/t01 long-report +● running/, {message: 't01 running'});
		screen.sendKeys('r');
		await screen.waitForScreen(/▸ fast \(default\)/, {message: 'the routes editor'});
		screen.sendKeys('Down');
		await screen.waitForScreen(/▸ deep/);
		// As keys, x would ask to remove deep and y would confirm.
		screen.paste('xy');
		await screen.waitForScreen(/paste ignored: no text field is open here/, {message: 'the paste ignored'});
		expect(await screen.settled()).not.toMatch(/Remove route/);

		screen.sendKeys('e');
		await screen.waitForScreen(/Enter saves · Esc cancels/, {message: 'the description field'});
		screen.paste('Web research with sources\nxy');
		await screen.waitForScreen(/paste not used: it holds 2 lines/, {message: 'the two-line paste refused'});
		expect(await screen.settled()).not.toMatch(/Remove route/);
		expect(config()).toBe(steeringConfig);

		screen.sendKeys('C-u');
		await screen.waitForScreen(screen => !/Slow and careful/.test(screen), {message: 'the field emptied'});
		// Text and Backspace sent at once (one read, as when typing fast on a loaded machine).
		screen.sendKeys('qzxw', 'BSpace', 'BSpace');
		await screen.waitForScreen(screen => /qz/.test(screen) && !/qzx/.test(screen), {message: 'Backspace deleting after the text'});
		screen.sendKeys('C-u');
		await screen.waitForScreen(screen => !/qz/.test(screen), {message: 'the field emptied again'});
		screen.paste('Web research with sources\n');
		await screen.waitForScreen(/Web research with sources/, {message: 'the one-line paste in the field'});
		expect(config()).toBe(steeringConfig);
		screen.sendKeys('Enter');
		await screen.waitForScreen(/e description · M model/, {message: 'the field saved'});
		expect(config()).toContain('description: "Web research with sources"');

		screen.sendKeys('Escape');
		writeFileSync(release, '');
		await screen.waitForScreen(/t01 long-report +✓ succeeded/, {timeoutMs: 30_000, message: 't01 to succeed'});
		screen.sendKeys('q');
		await screen.waitForExit();

		// The shell's terminal echoes what is pasted: with bracketed paste left on, it would show ^[[200~.
		screen.paste('after-exit');
		const after = await screen.waitForScreen(/after-exit/, {message: 'the paste echoed after the exit'});
		expect(after).not.toMatch(/\^\[\[20[01]~/);
	});
});
