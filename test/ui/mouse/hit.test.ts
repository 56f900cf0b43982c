// Which task a click lands on comes from the frame plan the screen is drawn from.
import {describe, expect, test} from 'vitest';
import {planFrame} from '../../../src/ui/layout.js';
import {isDoubleClick} from '../../../src/ui/mouse/double-click.js';
import {taskIndexAt} from '../../../src/ui/mouse/hit.js';

const frame = (taskCount: number, preference: 'auto' | 'list' = 'auto', rows = 40) => planFrame({columns: 160, rows, taskCount, preference, warnings: false, statusLine: false, confirm: 0});

describe('the task under a click', () => {
	test('in a 2×2 grid: the pane under the cell; the header and the footer are no task', () => {
		const plan = frame(4);
		expect(plan.tooSmall === false && plan.body).toMatchObject({kind: 'grid', columns: 2});
		expect(taskIndexAt(plan, {x: 1, y: 3}, 4, 0)).toBe(0);
		expect(taskIndexAt(plan, {x: 81, y: 3}, 4, 0)).toBe(1);
		expect(taskIndexAt(plan, {x: 100, y: 30}, 4, 0)).toBe(3);
		expect(taskIndexAt(plan, {x: 10, y: 1}, 4, 0)).toBeUndefined();
		expect(taskIndexAt(plan, {x: 10, y: 39}, 4, 0)).toBeUndefined();
	});

	test('a grid with an empty last pane: no task there', () => {
		expect(taskIndexAt(frame(3), {x: 100, y: 30}, 3, 0)).toBeUndefined();
	});

	test('in the list: the line under the cell, past the "↑ N more" marker; the focused pane below it is no other task', () => {
		const plan = frame(30, 'list', 24);
		if (plan.tooSmall || plan.body.kind !== 'list') throw new Error('expected the list');
		// Focused far down: the list shows a later page, with "↑ N more" on its first line.
		const focused = 20;
		const above = taskIndexAt(plan, {x: 5, y: 3}, 30, focused);
		expect(above).toBeUndefined();
		const first = taskIndexAt(plan, {x: 5, y: 4}, 30, focused);
		expect(first).toBeGreaterThan(0);
		expect(taskIndexAt(plan, {x: 5, y: 5}, 30, focused)).toBe(first! + 1);
		expect(taskIndexAt(plan, {x: 5, y: 3 + plan.body.listHeight}, 30, focused)).toBeUndefined();
	});
});

describe('a double click', () => {
	test('two presses on one task within the interval; not on another task, not later', () => {
		expect(isDoubleClick({taskId: 't01', at: 1000}, 't01', 1400)).toBe(true);
		expect(isDoubleClick({taskId: 't01', at: 1000}, 't02', 1400)).toBe(false);
		expect(isDoubleClick({taskId: 't01', at: 1000}, 't01', 1600)).toBe(false);
		expect(isDoubleClick(undefined, 't01', 1000)).toBe(false);
	});
});
