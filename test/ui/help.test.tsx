// The help overlay is generated from the binding table: every command, with its current keys.
import {cleanup} from 'ink-testing-library';
import {afterEach, expect, test, vi} from 'vitest';
import {helpEntries, resolveBindings} from '../../src/ui/keys.js';
import {plannedTask, plannedTasks, render} from '../helpers/render.js';

afterEach(cleanup);

test('? lists every binding with its keys; Esc closes it', async () => {
	const {frame, stdin} = render({tasks: plannedTasks(3), columns: 100, rows: 45});
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toContain('closes this help');
	});
	for (const entry of helpEntries(resolveBindings({}))) {
		// Descriptions may be cut at the column edge; their start identifies them.
		expect(frame()).toMatch(new RegExp(`${escapeRegExp(entry.keys)} +${escapeRegExp(entry.description.slice(0, 20))}`));
	}

	expect(frame()).not.toContain('more: enlarge');
	stdin.write('\u001B');
	await vi.waitFor(() => {
		expect(frame()).not.toContain('closes this help');
	});
});

test('shows remapped keys, and says so when the terminal is too short for all of them', async () => {
	const {frame, stdin} = render({tasks: plannedTasks(3), columns: 80, rows: 16, bindings: resolveBindings({'layout.toggle': ['v']})});
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toContain('closes this help');
	});
	expect(frame()).toMatch(/v +Switch between the grid/);
	expect(frame()).toMatch(/… \d+ more: enlarge the terminal/);
});

function escapeRegExp(text: string): string {
	return text.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);
}

test('lists every warning of the batch, the tasks\' own included, whole', async () => {
	const fieldWarning = 'route "fast": base_url, service_tier have no `hermes chat` flag and are not passed; the subagent uses what its Hermes profile configures for them';
	const tasks = [{...plannedTask(0), warnings: [fieldWarning]}, {...plannedTask(1), warnings: [fieldWarning]}];
	const batchWarnings = ['first batch warning', 'second batch warning', 'third batch warning'];
	const {frame, stdin} = render({tasks, columns: 80, rows: 30, warnings: batchWarnings});
	await vi.waitFor(() => {
		expect(frame()).toContain('⚠ 4 warnings (? lists all)');
	});
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toContain('Warnings (4)');
	});
	const text = frame().replaceAll(/\s*[│╰╭]\s*/g, ' ').replaceAll(/\s+/g, ' ');
	for (const warning of [fieldWarning, ...batchWarnings]) {
		expect(text).toContain(warning);
	}

	expect(text.indexOf(fieldWarning)).toBeLessThan(text.indexOf('first batch warning'));
});
