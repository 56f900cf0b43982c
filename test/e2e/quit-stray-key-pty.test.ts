// q then y, when the batch finished while the finger moved: q quits at once
// (nothing runs any more, so there is no question), and the y meant for the question must not
// land in the shell. A shell reads the terminal after the dashboard: what it gets is what leaked.
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe('q then y on a batch that just finished', () => {
	it('the y does not reach the shell', async () => {
		const test = makeHome();
		cleanups.push(() => test.remove());
		const file = test.write('tasks.json', tasksJson({name: 'quick', goal: 'Say hello', context: '[fake:duration=0]'}));
		const script = '"$@"; echo READY; read -r line; echo "SHELL GOT=[$line]"';
		const screen = startTmux(['bash', '-c', script, 'bash', process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath], {
			columns: 120, rows: 30, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')},
		});
		cleanups.push(() => screen.kill());
		await screen.waitForScreen(/finished after/, {message: 'the batch finished'});
		screen.sendKeys('q');
		// The y as a finger sends it: after q has taken the dashboard off the screen.
		for (let polls = 0; screen.display('#{alternate_on}') === '1' && polls < 10_000; polls++);
		screen.sendKeys('y');
		await screen.waitForScreen(/^READY$/m, {message: 'the dashboard gone and the shell reading'});
		screen.sendKeys('Enter');
		const after = await screen.waitForScreen(/SHELL GOT=\[.*\]/, {message: 'the shell to say what it read'});
		expect(after).toContain('SHELL GOT=[]');
	});
});
