// Live activity on a release without stream-json, in a real terminal (tmux): the fake
// posing as 0.20.0 prints nothing under -Q until its answer, so the call its pane shows while the
// tool runs can only have come from the session's messages in state.db. Every wait polls the screen.
import path from 'node:path';
import {writeFileSync} from 'node:fs';
import {afterEach, describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {steeringConfig} from '../helpers/steering-config.js';
import {startTmux} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const all = (...patterns: RegExp[]) => (screen: string) => patterns.every(pattern => pattern.test(screen));

describe('live activity in a real terminal', () => {
	it('0.20.0: the pane shows ⚙ for the running tool before the answer, and ↳ when it returned', async () => {
		const test = makeHome(steeringConfig);
		cleanups.push(() => test.remove());
		const release = path.join(test.dir, 'go');
		const file = test.write('tasks.json', tasksJson({name: 'long-tool', goal: 'Survey the sources', context: `[fake:steps=1] [fake:until-file=${release}]`}));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath], {columns: 160, rows: 40, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache'), FAKE_HERMES_VERSION: '0.20.0'}});
		cleanups.push(() => screen.kill());
		const running = await screen.waitForScreen(all(/t01 long-tool +● running/, /⚙ web_search \{"query":"Survey the sources/), {message: 'the call on the running pane'});
		expect(running).not.toMatch(/Fake answer/);
		writeFileSync(release, '');
		const done = await screen.waitForScreen(all(/t01 long-tool +✓ succeeded/, /Fake answer: Survey the sources/), {message: 'the answer'});
		const lines = done.split('\n');
		expect(lines.findIndex(line => line.includes('⚙ web_search'))).toBeLessThan(lines.findIndex(line => line.includes('Fake answer: Survey')));
		expect(done).toMatch(/↳ web_search \d+\.\ds/);
		screen.sendKeys('q');
	});
});
