// The zoom's search marks every match on screen, not only the one it jumped to, in the theme's
// search.match background, or in inverse video under the no-color theme.
import '../helpers/force-color.js';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {loadTheme, type Theme} from '../../src/core/theme/themes.js';
import {plannedTasks, render, startTask, stripAnsi, t0} from '../helpers/render.js';

afterEach(cleanup);

const enter = '\r';
const underline = '\u001B[4m';

/** Zoomed on 100 lines at the top of the output, searched for `query` (typed, then Enter). */
async function searchedFor(query: string, theme: Theme) {
	const view = render({tasks: plannedTasks(2), columns: 100, rows: 24, theme});
	startTask(view.store, 't01', t0);
	view.control.write('t01', Array.from({length: 100}, (_, index) => `entry-${String(index + 1).padStart(3, '0')} \u001B[32mdetail\u001B[0m`));
	view.control.publish();
	view.stdin.write(enter);
	await vi.waitFor(() => {
		expect(view.frame()).toContain('entry-100 detail');
	});
	view.stdin.write('g');
	view.stdin.write('/');
	view.stdin.write(query);
	await vi.waitFor(() => {
		expect(view.frame()).toContain(`/${query}▏`);
	});
	return view;
}

/** The frame's row that shows `entry` (a mark may split it), with its styling. */
function row(frame: string | undefined, entry: string): string {
	return (frame ?? '').split('\n').find(text => stripAnsi(text).includes(`${entry} detail`)) ?? '';
}

describe('search marks', () => {
	test('after Enter, every other match on screen is marked, in its own spelling', async () => {
		const view = await searchedFor('ENTRY-01', loadTheme('dark', {noColor: false}));
		// Typing is not searching yet: nothing is marked.
		expect(view.lastFrame()).not.toContain(underline);
		view.stdin.write(enter);
		// The search goes up from the bottom of the view: entry-016 is the current match.
		await vi.waitFor(() => {
			expect(view.frame()).toContain('match "ENTRY-01" at line 16');
		});
		const frame = view.lastFrame();
		// entry-010 … entry-015 match too, and are marked on blue (the dark theme's search.match).
		for (const entry of ['entry-010', 'entry-012', 'entry-015']) {
			expect(row(frame, entry)).toMatch(/\u001B\[4m(?:\u001B\[[\d;]+m)*entry-01/);
			expect(row(frame, entry)).toContain('\u001B[44m');
		}

		// The rest of a marked line is not: the mark covers the match only.
		expect(row(frame, 'entry-012')).not.toMatch(/\u001B\[4m[^\u001B]*detail/);
		expect(row(frame, 'entry-005')).not.toContain(underline);
	});

	test('under the no-color theme the marks are inverse video, with no colour', async () => {
		const view = await searchedFor('entry-01', loadTheme(undefined, {noColor: true}));
		view.stdin.write(enter);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('match "entry-01" at line 16');
		});
		const marked = row(view.lastFrame(), 'entry-012');
		expect(marked).toContain('\u001B[7m');
		expect(marked).not.toMatch(/\u001B\[(?:3\d|4\d|9\d|10\d)(?:;[\d;]*)?m/);
	});
});
