// `run --dry-run`'s table fits the terminal: each row wrapped at 80 columns.
import {describe, expect, it} from 'vitest';
import {dryRunTable} from '../../src/commands/dry-run-table.js';
import {plannedTask} from '../helpers/render.js';

const tasks = [
	plannedTask(0, {spec: {name: 'a-rather-long-task-name-for-the-table', goal: 'x'}, decision: {reason: 'characteristic research → research (the characteristics table in delegate.yaml)'}}),
	plannedTask(1, {effective: {model: 'deepseek/deepseek-v4-pro-with-a-long-suffix'}}),
	plannedTask(2, {decision: {refused: true, reason: 'option "turbo" is not in model_map (routes: fast, deep, research)'}}),
];

describe('the dry-run table', () => {
	it.each([60, 80, 120])('fits %i columns, every task on one line', columns => {
		const lines = dryRunTable(tasks, columns).trimEnd().split('\n');
		expect(lines).toHaveLength(4);
		for (const line of lines) expect([...line].length).toBeLessThan(columns);
		expect(lines[1]).toMatch(/^t01 /);
		expect(lines[3]).toMatch(/^t03 .*refused/);
	});
});
