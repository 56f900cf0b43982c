// NO_COLOR: no colour codes anywhere in the frame, including colours from the agents' output,
// while status, focus and the match stay distinguishable by symbol, word and border.
import '../helpers/force-color.js';
import {afterEach, expect, test, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {loadTheme} from '../../src/core/theme/themes.js';
import {finishTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

/** SGR parameters that set or reset a foreground or background colour. */
function colourCodes(frame: string): string[] {
	const found: string[] = [];
	for (const match of frame.matchAll(/\u001B\[([\d;:]*)m/g)) {
		const parameters = (match[1] ?? '').split(/[;:]/).map(Number);
		if (parameters.some(code => (code >= 30 && code <= 49) || (code >= 90 && code <= 107))) {
			found.push(match[0]);
		}
	}

	return found;
}

async function busyDashboard(theme: ReturnType<typeof loadTheme>) {
	const view = render({tasks: plannedTasks(4), columns: 100, rows: 30, theme, warnings: ['a warning']});
	startTask(view.store, 't01', t0);
	startTask(view.store, 't02', t0);
	view.control.write('t01', ['\u001B[31mred from the agent\u001B[0m', 'plain']);
	view.control.publish();
	finishTask(view.store, 't02', 'failed', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 1, error: 'boom'});
	view.stdin.write('c');
	await vi.waitFor(() => {
		expect(view.frame()).toContain('Cancel t01');
	});
	return view;
}

test('the no-color theme renders no colour codes, yet status and focus still show', async () => {
	const {lastFrame, frame} = await busyDashboard(loadTheme(undefined, {noColor: true}));
	expect(colourCodes(lastFrame() ?? '')).toEqual([]);
	expect(frame()).toContain('red from the agent');
	expect(frame()).toContain('● running');
	expect(frame()).toContain('✗ failed exit 1');
	expect(frame()).toContain('┃ t01');
});

test('the dark theme does colour the same frame (so the test above can fail)', async () => {
	const {lastFrame} = await busyDashboard(loadTheme('dark', {noColor: false}));
	expect(colourCodes(lastFrame() ?? '').length).toBeGreaterThan(0);
});
