// The mouse in the dashboard: a click focuses the pane under it, a double click zooms
// it, the wheel scrolls the zoom and the help; a mouse report never types into a field.
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
