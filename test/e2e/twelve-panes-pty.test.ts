// 12 tasks at 160×48: the README's three-line rule holds in a real terminal.
// Every pane of the grid shows at least three lines of output below its title, route, spend and
// detail rows; before, two columns of six panes left each one line.
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {minTailLines, planFrame} from '../../src/ui/layout.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const output = /line 0000/;

describe('12 tasks at 160×48', () => {
	it('every pane shows at least three lines of output', async () => {
		const test = makeHome();
		cleanups.push(() => test.remove());
		// Each prints six lines and ends.
		const tasks = Array.from({length: 12}, (_, index) => ({name: `task-${index + 1}`, goal: `Task ${index + 1}`, context: '[fake:lines=6]'}));
		const file = test.write('tasks.json', tasksJson(...tasks));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, '-j', '12'], {columns: 160, rows: 48, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
		cleanups.push(() => screen.kill());

		const plan = planFrame({columns: 160, rows: 48, taskCount: 12, preference: 'auto', warnings: false, statusLine: false, confirm: 0});
		if (plan.tooSmall || plan.body.kind !== 'grid') throw new Error('expected a grid');
		const {columns, paneWidth, paneHeight} = plan.body;
		const panes = (shown: string) => {
			const lines = shown.split('\n');
			return Array.from({length: 12}, (_, index) => {
				const top = plan.header + (Math.floor(index / columns) * paneHeight);
				const left = (index % columns) * paneWidth;
				return lines.slice(top + 1, top + paneHeight - 1).map(line => [...line].slice(left + 2, left + paneWidth - 2).join(''));
			});
		};

		const shown = await screen.waitForScreen(current => /12 succeeded/.test(current) && panes(current).every(pane => pane.filter(line => output.test(line)).length >= minTailLines), {message: 'all 12 done, each pane with 3 lines of output', timeoutMs: 40_000});
		expect(columns).toBeGreaterThan(2);
		for (const pane of panes(shown)) {
			expect(pane[0]).toMatch(/t\d\d task-\d+/);
		}
	});
});
