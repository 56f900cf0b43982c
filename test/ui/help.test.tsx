// The help overlay is generated from the binding table: every command, with its current keys.
import {cleanup} from 'ink-testing-library';
import {afterEach, expect, test, vi} from 'vitest';
import {helpEntries, resolveBindings} from '../../src/ui/keys.js';
import {plannedTasks, render} from '../helpers/render.js';

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
