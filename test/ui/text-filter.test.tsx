// / filters the grid and the list by what is typed: a task's id,
// name, goal, route, model or host; live while typed, kept with Enter, cleared with Esc.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {plannedTask, render} from '../helpers/render.js';

afterEach(cleanup);

const deep = {kind: 'model' as const, name: 'deep', description: 'Slow and careful', model: 'claude-opus-5', provider: 'anthropic'};
const tasks = [
	plannedTask(0, {spec: {name: 'capital-lookup', goal: 'What is the capital of France?'}}),
	plannedTask(1, {spec: {name: 'fix-flaky-test', goal: 'Fix the flaky retry test'}, decision: {route: deep}, effective: {model: 'claude-opus-5', provider: 'anthropic'}}),
	plannedTask(2, {spec: {name: 'changelog', goal: 'Summarise the changelog'}}),
];

function shown(frame: string): string[] {
	return ['t01', 't02', 't03'].filter(id => new RegExp(`${id} [a-z]`).test(frame));
}

describe('the text filter', () => {
	test('typed, it filters at once (by name, then by route); Enter keeps it and the footer says it; Esc clears it', async () => {
		const view = render({tasks, columns: 160, rows: 40});
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t01', 't02', 't03']);
		});
		view.stdin.write('/');
		view.stdin.write('CHANGE');
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t03']);
		});
		expect(view.frame()).toContain('/CHANGE▏  1 of 3 tasks');
		// Typing is not keys: the s typed above did not sort, the q did not quit.
		for (let index = 0; index < 'CHANGE'.length; index++) view.stdin.write('\u007F');
		view.stdin.write('deep');
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t02']);
		});
		view.stdin.write('\r');
		await vi.waitFor(() => {
			expect(view.frame().split('\n').at(-1)).toContain('/ filter "deep"');
		});
		expect(view.store.getState().focusedId).toBe('t02');
		expect(view.frame()).toContain('3 tasks');

		view.stdin.write('\u001B');
		await vi.waitFor(() => {
			expect(shown(view.frame())).toEqual(['t01', 't02', 't03']);
		});
		expect(view.frame().split('\n').at(-1)).not.toContain('filter "');
	});

	test('a filter that matches nothing says so, not that the batch has no tasks', async () => {
		const view = render({tasks, columns: 160, rows: 40});
		view.stdin.write('/');
		view.stdin.write('nothing-like-this');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('No task matches the filter');
		});
		expect(view.frame()).not.toContain('This batch has no tasks');
	});
});
