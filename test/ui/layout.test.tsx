// The frame always fits the terminal: the dashboard's speed depends on it (a frame as tall as
// the terminal makes Ink repaint the whole screen on every update), and so does its legibility.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {fittingGrid, listWindow, minTailLines, paneChrome, paneStatusLines, planFrame} from '../../src/ui/layout.js';
import {lineCount, plannedTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';
import {questionOf} from '../helpers/overlay.js';

afterEach(cleanup);

describe('planFrame', () => {
	const sizes = [[20, 5], [40, 8], [80, 20], [80, 24], [100, 30], [120, 40], [200, 60], [60, 100]] as const;
	const counts = [0, 1, 2, 5, 8, 13, 40];

	test('header, body, confirm bar and footer never add up past the terminal', () => {
		for (const [columns, rows] of sizes) {
			for (const taskCount of counts) {
				for (const preference of ['auto', 'grid', 'list'] as const) {
					for (const confirm of [0, 2]) {
						const frame = planFrame({columns, rows, taskCount, preference, warnings: true, statusLine: true, confirm});
						if (frame.tooSmall) {
							continue;
						}

						const where = `${columns}x${rows}, ${taskCount} tasks, ${preference}`;
						expect(frame.header + frame.bodyHeight + frame.confirm + frame.footer, where).toBeLessThan(rows);
						const {body} = frame;
						if (body.kind === 'grid') {
							expect(body.paneHeight * body.visibleRows, where).toBeLessThanOrEqual(frame.bodyHeight);
							expect(body.paneWidth * body.columns, where).toBeLessThanOrEqual(columns);
						} else {
							expect(body.listHeight + body.paneHeight, where).toBeLessThanOrEqual(frame.bodyHeight);
						}
					}
				}
			}
		}
	});

	test('auto picks the grid only while every pane shows at least 3 output lines', () => {
		const grid = planFrame({columns: 100, rows: 30, taskCount: 6, preference: 'auto', warnings: false, statusLine: false, confirm: 0});
		expect(grid.tooSmall ? undefined : grid.body).toMatchObject({kind: 'grid', columns: 2, visibleRows: 3, paneWidth: 50});
		const list = planFrame({columns: 80, rows: 20, taskCount: 8, preference: 'auto', warnings: false, statusLine: false, confirm: 0});
		expect(list.tooSmall ? undefined : list.body.kind).toBe('list');
		// 2 columns of 4 rows need 4 × 8 = 32 body lines: chrome, a spend/activity row, 3 of output.
		expect(fittingGrid(80, 32, 8)).toMatchObject({columns: 2, paneHeight: 8});
		expect(fittingGrid(80, 31, 8)).toBeUndefined();
	});

	test.each([8, 10])('160x48 with %i tasks: fewer, wider panes that show the model, rather than tall narrow ones', taskCount => {
		for (const warnings of [false, true]) {
			const frame = planFrame({columns: 160, rows: 48, taskCount, preference: 'auto', warnings, statusLine: false, confirm: 0});
			expect(frame.tooSmall ? undefined : frame.body).toMatchObject({kind: 'grid', columns: 2, paneWidth: 80});
			if (!frame.tooSmall && frame.body.kind === 'grid') {
				expect(frame.body.paneHeight - paneChrome - paneStatusLines).toBeGreaterThanOrEqual(minTailLines);
			}
		}
	});

	test('160x48 with 12 tasks: two columns of six would leave one line of output; the layout changes instead', () => {
		for (const warnings of [false, true]) {
			const frame = planFrame({columns: 160, rows: 48, taskCount: 12, preference: 'auto', warnings, statusLine: false, confirm: 0});
			if (frame.tooSmall || frame.body.kind !== 'grid') throw new Error('expected a grid');
			expect(frame.body.columns).toBeGreaterThan(2);
			expect(frame.body.paneHeight - paneChrome - paneStatusLines).toBeGreaterThanOrEqual(minTailLines);
		}
	});

	test('100x30 with the 8 demo tasks: the list, not three panes of 33 columns that show no model', () => {
		const frame = planFrame({columns: 100, rows: 30, taskCount: 8, preference: 'auto', warnings: false, statusLine: false, confirm: 0});
		expect(frame.tooSmall ? undefined : frame.body.kind).toBe('list');
		for (const [width, height, tasks] of [[100, 26, 8], [120, 40, 9], [99, 20, 3]] as const) {
			const grid = fittingGrid(width, height, tasks);
			expect(grid === undefined || grid.paneWidth >= 40, `${width}x${height}, ${tasks} tasks`).toBe(true);
		}
	});

	test('narrow panes only when wide ones cannot all show 3 lines of output', () => {
		// 16 tasks in 2 columns would need 8 rows of 8 lines; 4 columns of 40 fit.
		expect(fittingGrid(160, 44, 16)).toMatchObject({columns: 4, paneWidth: 40});
	});

	test('a grid the operator forces on a small terminal pages instead of overflowing', () => {
		const frame = planFrame({columns: 80, rows: 20, taskCount: 8, preference: 'grid', warnings: false, statusLine: false, confirm: 0});
		expect(frame.tooSmall ? undefined : frame.body).toMatchObject({kind: 'grid', columns: 2, visibleRows: 2, totalRows: 4});
	});
});

describe('list window', () => {
	test('pages stay put inside, and the last one backs up to stay full', () => {
		expect(listWindow(12, 30, 10)).toEqual({first: 9, count: 8, above: 9, below: 13, markers: true});
		expect(listWindow(16, 30, 10)).toEqual({first: 9, count: 8, above: 9, below: 13, markers: true});
		expect(listWindow(26, 30, 10)).toEqual({first: 21, count: 9, above: 21, below: 0, markers: true});
	});

	test('the focused task is always shown, and tasks plus markers fill the height exactly', () => {
		for (const height of [1, 2, 3, 5, 10]) {
			for (const total of [height + 1, height + 2, 3 * height + 1]) {
				for (let index = 0; index < total; index++) {
					const window = listWindow(index, total, height);
					const where = `${index} of ${total} in ${height}`;
					expect(index, where).toBeGreaterThanOrEqual(window.first);
					expect(index, where).toBeLessThan(window.first + window.count);
					expect(window.above + window.count + window.below, where).toBe(total);
					expect(window.markers, where).toBe(height >= 3);
					const markers = window.markers ? Number(window.above > 0) + Number(window.below > 0) : 0;
					expect(window.count + markers, where).toBe(height);
				}
			}
		}
	});
});

describe('rendered frame', () => {
	test('a list too short for "more" lines draws none, so they never cover the focused task', async () => {
		const {frame, stdin, store} = render({tasks: plannedTasks(35), columns: 80, rows: 13});
		for (let press = 0; press < 8; press++) {
			stdin.write('j');
		}

		await vi.waitFor(() => {
			expect(store.getState().focusedId).toBe('t09');
		});
		const plan = planFrame({columns: 80, rows: 13, taskCount: 35, preference: 'auto', warnings: false, statusLine: false, confirm: 0});
		// The case this is about: the list has room for fewer than 3 lines.
		expect(plan.tooSmall ? undefined : plan.body).toMatchObject({kind: 'list'});
		expect(plan.tooSmall || plan.body.kind !== 'list' ? 0 : plan.body.listHeight).toBeLessThan(3);
		await vi.waitFor(() => {
			expect(frame()).toMatch(/t09 Goal number 9/);
		});
		expect(frame()).not.toMatch(/more/);
		expect(lineCount(frame())).toBeLessThanOrEqual(13);
	});

	test('80x20 with 8 tasks: the list, a line per task, and the focused task in a pane', async () => {
		// A long title must not push the id and status off the row.
		const tasks = [plannedTask(0, {spec: {goal: `Refactor ${'the parser module '.repeat(10)}`}}), ...plannedTasks(8).slice(1)];
		const {frame, store, control} = render({tasks, columns: 80, rows: 20});
		startTask(store, 't01', t0);
		control.write('t01', ['compiling', 'running tests']);
		control.publish();
		await vi.waitFor(() => {
			expect(frame()).toContain('running tests');
		});
		for (const id of ['t01', 't02', 't07', 't08']) {
			expect(frame()).toMatch(new RegExp(`^[› ] ${id} `, 'm'));
		}

		expect(frame()).toMatch(/^› t01 ● running 0s +Refactor the parser/m);
		expect(frame()).toContain('┃ t01 Refactor the parser');
		expect(lineCount(frame())).toBeLessThanOrEqual(20);
	});

	test.each([
		[80, 20, 8], [80, 24, 3], [100, 30, 6], [100, 40, 13], [60, 12, 20], [40, 8, 2], [100, 10, 1], [30, 6, 4],
	])('%ix%i with %i tasks, warnings, a notice and a question: never more lines than rows, nor wider than columns', async (columns, rows, count) => {
		const tasks = plannedTasks(count).map((task, index) => (index === 0 ? plannedTask(0, {spec: {goal: `A goal long enough to wrap ${'many times over '.repeat(8)}`}}) : task));
		const {frame, store, control, lastFrame, stdin} = render({tasks, columns, rows, warnings: ['route deep has a plain-text api_key in config.yaml; move it to .env']});
		startTask(store, 't01', t0);
		control.write('t01', Array.from({length: 60}, (_, index) => `line ${index} ${'word '.repeat(30)}`));
		control.publish();
		stdin.write('K');
		await vi.waitFor(() => {
			expect(questionOf(store.getState())).not.toBeNull();
		});
		store.setState({notice: 'a notice for the footer'});
		// A frame with everything on it.
		await vi.waitFor(() => {
			expect(lastFrame()).toBeDefined();
			expect(frame()).toMatch(/Kill t01|too small/);
		});
		expect(lineCount(frame())).toBeLessThanOrEqual(rows);
		for (const line of frame().split('\n')) {
			expect([...line].length).toBeLessThanOrEqual(columns);
		}
	});

	test('160x48 with 8 tasks: every pane shows its whole route and model', async () => {
		const {frame} = render({tasks: plannedTasks(8), columns: 160, rows: 48});
		await vi.waitFor(() => {
			expect(frame()).toContain('t08');
		});
		expect(frame().match(/fast \(openrouter\) · google\/gemini-3-flash-preview/g)).toHaveLength(8);
		expect(lineCount(frame())).toBeLessThan(48);
	});

	test('80x24 with 12 tasks: the list says how many tasks are hidden and stays full at the end', async () => {
		const {frame, stdin} = render({tasks: plannedTasks(12), columns: 80, rows: 24});
		await vi.waitFor(() => {
			expect(frame()).toContain('› t01');
		});
		expect(frame()).toMatch(/^ +↓ 3 more$/m);
		expect(frame()).not.toMatch(/↑ \d+ more/);
		stdin.write('j'.repeat(11));
		await vi.waitFor(() => {
			expect(frame()).toContain('› t12');
		});
		expect(frame()).toMatch(/^ +↑ 3 more$/m);
		expect(frame()).not.toMatch(/↓ \d+ more/);
		for (const id of ['t04', 't05', 't06', 't07', 't08', 't09', 't10', 't11']) {
			expect(frame()).toMatch(new RegExp(`^  ${id} `, 'm'));
		}

		expect(frame()).not.toMatch(/^ {2}t03 /m);
	});

	test('a refused row\'s route text starts in the same column as the other rows\' routes', async () => {
		const refused = plannedTask(7, {decision: {route: null, refused: true, reason: 'no such route'}, effective: {model: null, provider: null}});
		const {frame} = render({tasks: [...plannedTasks(7), refused], columns: 80, rows: 20});
		await vi.waitFor(() => {
			expect(frame()).toMatch(/^ {2}t08 /m);
		});
		const lines = frame().split('\n');
		const routed = lines.find(line => /^[› ] t01 /.test(line))!;
		const refusedLine = lines.find(line => /^[› ] t08 /.test(line))!;
		expect(refusedLine.indexOf('refused: not run')).toBeGreaterThan(0);
		// At 80 columns the rows show the brief route (name and model).
		expect(refusedLine.indexOf('refused: not run')).toBe(routed.indexOf('fast · google/'));
	});

	test('L switches between grid and list, and back', async () => {
		const {frame, stdin} = render({tasks: plannedTasks(6), columns: 100, rows: 30});
		await vi.waitFor(() => {
			expect(frame()).toContain('┃ t01');
		});
		expect(frame()).not.toContain('› t01');
		stdin.write('L');
		await vi.waitFor(() => {
			expect(frame()).toContain('› t01');
		});
		stdin.write('L');
		await vi.waitFor(() => {
			expect(frame()).not.toContain('› t01');
		});
	});

	test('follows the terminal when it is resized', async () => {
		const {frame, stdout} = render({tasks: plannedTasks(8), columns: null, rows: null});
		// ink-testing-library's terminal is 100 columns and reports no rows, so the default 24 applies.
		await vi.waitFor(() => {
			expect(lineCount(frame())).toBeGreaterThan(15);
		});
		Object.defineProperty(stdout, 'rows', {value: 12, configurable: true});
		stdout.emit('resize');
		await vi.waitFor(() => {
			expect(lineCount(frame())).toBeLessThanOrEqual(12);
		});
	});
});
