// Narrow screens in a real terminal: at 80 columns the header keeps the run
// id (what attach, logs and wait need); at 50 the zoom's footer keeps `Esc back`; at 70 the routes
// editor keeps each route's task counts.
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

describe('narrow screens', () => {
	it('keep the run id at 80, Esc back at 50 and the routes\' counts at 70', async () => {
		const test = makeHome(steeringConfig);
		cleanups.push(() => test.remove());
		const file = test.write('tasks.json', tasksJson(
			{name: 'summaries', goal: 'Summaries of the logs', context: '[fake:duration=0]'},
			{name: 'other', goal: 'Say hello', context: '[fake:duration=0]'},
		));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath], {columns: 80, rows: 24, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
		cleanups.push(() => screen.kill());
		const done = await screen.waitForScreen(/finished after/, {message: 'the batch finished'});
		const runId = test.runs()[0]!;
		expect(done.split('\n')[0]).toContain(`run ${runId}`);

		screen.resize(70, 24);
		screen.sendKeys('r');
		const routes = await screen.waitForScreen(/Routes · /, {message: 'the routes editor'});
		const fast = routes.split('\n').find(line => line.includes('fast (default)'));
		expect(fast).toMatch(/\d+ queued, \d+ running, \d+ done/);
		screen.sendKeys('Escape');
		await screen.waitForScreen(current => !current.includes('Routes · '), {message: 'the editor closed'});

		screen.resize(50, 24);
		screen.sendKeys('Enter');
		const zoom = await screen.waitForScreen(/why:/, {message: 'the zoom'});
		expect(zoom.trimEnd().split('\n').at(-1)).toContain('Esc back');
		screen.sendKeys('Escape', 'q');
		await screen.waitForExit();
	});
});
