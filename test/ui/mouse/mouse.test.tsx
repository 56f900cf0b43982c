// The mouse in the dashboard: a click focuses the pane under it, a double click zooms
// it, the wheel moves the focus in the grid and the list and scrolls the zoom and the help; a mouse
// report never types into a field, and none, however malformed or far off the screen, breaks the dashboard.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {plannedTasks, render, startTask, t0} from '../../helpers/render.js';

afterEach(cleanup);

const click = (x: number, y: number) => `\u001B[<0;${x};${y}M\u001B[<0;${x};${y}m`;
const wheel = (direction: 'up' | 'down', x = 5, y = 10) => `\u001B[<${direction === 'up' ? 64 : 65};${x};${y}M`;

describe('the mouse', () => {
	test('a click focuses the pane under it; a double click zooms it', async () => {
		// 4 tasks at 160×40: a 2×2 grid of 80-column panes below the 2-line header.
		const view = render({tasks: plannedTasks(4), columns: 160, rows: 40, mouse: true});
		await vi.waitFor(() => {
			expect(view.frame()).toContain('t04');
		});
		expect(view.store.getState().focusedId).toBe('t01');
		view.stdin.write(click(100, 30));
		await vi.waitFor(() => {
			expect(view.store.getState().focusedId).toBe('t04');
		});
		expect(view.store.getState().overlay).toBeNull();
		// A double click, as the terminal sends it: both presses in one read.
		view.stdin.write(click(10, 5) + click(10, 5));
		await vi.waitFor(() => {
			expect(view.store.getState().overlay?.kind).toBe('zoom');
		});
		expect(view.store.getState().focusedId).toBe('t01');
	});

	test('the wheel moves the focus a row of panes in the grid and a task in the list, stopping at the ends', async () => {
		// 4 tasks at 160×40: a 2×2 grid.
		const view = render({tasks: plannedTasks(4), columns: 160, rows: 40, mouse: true});
		const focused = async (id: string) => vi.waitFor(() => {
			expect(view.store.getState().focusedId).toBe(id);
		});
		await vi.waitFor(() => {
			expect(view.frame()).toContain('t04');
		});
		view.stdin.write(wheel('down'));
		await focused('t03');
		view.stdin.write(wheel('down'));
		view.stdin.write('l');
		// At the bottom row the wheel stays: the l after it moved from t03, not from a wrapped t01.
		await focused('t04');
		view.stdin.write(wheel('up'));
		await focused('t02');
		view.stdin.write(wheel('up'));
		view.stdin.write(wheel('up'));
		view.stdin.write('h');
		await focused('t01');
		view.stdin.write('L');
		await vi.waitFor(() => {
			expect(view.store.getState().layout).toBe('list');
		});
		view.stdin.write(wheel('down'));
		await focused('t02');
		view.stdin.write(wheel('down'));
		await focused('t03');
		expect(view.store.getState().overlay).toBeNull();
	});

	test('malformed, cut or far off-screen reports break nothing: the dashboard reads the next key as before', async () => {
		for (const [columns, rows] of [[160, 40], [20, 5]] as const) {
			// 20×5 is too small for the dashboard: no frame to hit.
			const view = render({tasks: plannedTasks(4), columns, rows, mouse: true});
			await vi.waitFor(() => {
				expect(view.frame()).not.toBe('');
			});
			const reports = [
				click(99_999, 99_999), click(1, 1), click(1, 40), wheel('down', 99_999, 99_999), wheel('up', 1, 1),
				'\u001B[<0;12M', '\u001B[<0;12;5', '\u001B[<;;M', '\u001B[<0;0;0M', '\u001B[<99999;1;1M', '\u001B[<0;123456789;1M',
				'\u001B[<64;5;5m', '\u001B[<66;5;5M', '\u001B[<2;5;5M', '\u001B[<1;5;5M', '\u001B[<35;5;5M', '\u001B[<0;-1;5M',
				'\u001B[M', '\u001B[M !', '\u001B[<', '\u001B[<0;5;5M\u001B[<0;5', ';5M',
			];
			for (const report of reports) view.stdin.write(report);
			view.stdin.write('?');
			await vi.waitFor(() => {
				expect(view.store.getState().overlay?.kind).toBe('help');
			});
			expect(view.store.getState().quitting).toBe(false);
			cleanup();
		}
	});

	test('the wheel scrolls the zoom', async () => {
		const view = render({tasks: plannedTasks(2), columns: 120, rows: 30, mouse: true});
		startTask(view.store, 't01', t0);
		view.control.write('t01', Array.from({length: 200}, (_, index) => `line-${String(index + 1).padStart(3, '0')}`));
		view.control.publish();
		view.stdin.write('\r');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('line-200');
		});
		view.stdin.write(wheel('up'));
		view.stdin.write(wheel('up'));
		// Two notches, three lines each.
		await vi.waitFor(() => {
			expect(view.frame()).toContain('line-194');
		});
		expect(view.frame()).not.toContain('line-195');
	});

	test('the wheel scrolls the help, which lists the mouse and how to select text', async () => {
		const view = render({tasks: plannedTasks(2), columns: 100, rows: 20, mouse: true});
		view.stdin.write('?');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('Keys');
		});
		const first = view.frame();
		expect(first).not.toMatch(/↑ \d+ more/);
		view.stdin.write(wheel('down'));
		await vi.waitFor(() => {
			expect(view.frame()).toContain('↑ 3 more');
		});
		for (let index = 0; index < 100; index++) view.stdin.write(wheel('down'));
		await vi.waitFor(() => {
			expect(view.frame()).toContain('Select text as usual');
		});
	});

	test('the footer says the mouse is on, how to select text where there is room, and keeps it on a narrow footer; without it, nothing', async () => {
		const on = render({tasks: plannedTasks(2), columns: 200, rows: 30, mouse: true});
		await vi.waitFor(() => {
			expect(on.frame().split('\n').at(-1)).toContain('mouse on (shift+drag selects)');
		});
		cleanup();
		const narrow = render({tasks: plannedTasks(2), columns: 60, rows: 30, mouse: true});
		await vi.waitFor(() => {
			expect(narrow.frame().split('\n').at(-1)).toMatch(/\? help {2}q quit {2}mouse on$/);
		});
		cleanup();
		const off = render({tasks: plannedTasks(2), columns: 200, rows: 30});
		await vi.waitFor(() => {
			expect(off.frame()).toContain('t02');
		});
		expect(off.frame()).not.toContain('mouse');
	});

	test('mouse reports never reach a text field, whole or malformed, mouse on or off', async () => {
		for (const mouse of [true, false]) {
			const view = render({tasks: plannedTasks(3), columns: 160, rows: 40, mouse});
			view.stdin.write('/');
			await vi.waitFor(() => {
				expect(view.store.getState().overlay?.kind).toBe('filter');
			});
			view.stdin.write(click(10, 5));
			view.stdin.write(wheel('down'));
			view.stdin.write('\u001B[<0;12M');
			view.stdin.write('\u001B[<99;1;1M');
			view.stdin.write('ab');
			await vi.waitFor(() => {
				expect(view.frame()).toContain('/ab▏');
			});
			const overlay = view.store.getState().overlay;
			expect(overlay?.kind === 'filter' ? overlay.field.value : undefined).toBe('ab');
			cleanup();
		}
	});

	test('with the mouse off, a click focuses nothing', async () => {
		const view = render({tasks: plannedTasks(4), columns: 160, rows: 40});
		await vi.waitFor(() => {
			expect(view.frame()).toContain('t04');
		});
		view.stdin.write(click(100, 30));
		view.stdin.write('j');
		await vi.waitFor(() => {
			expect(view.store.getState().focusedId).toBe('t03');
		});
	});
});
