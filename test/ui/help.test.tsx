// The help overlay is generated from the binding table: every command, with its current keys.
import {cleanup} from 'ink-testing-library';
import {afterEach, expect, test, vi} from 'vitest';
import {helpEntries, resolveBindings} from '../../src/ui/keys/keys.js';
import {plannedTask, plannedTasks, render} from '../helpers/render.js';
import {zoomOf} from '../helpers/overlay.js';

afterEach(cleanup);

/** Every page of the open help, paged down with PgDn until nothing is below. */
async function helpPages(frame: () => string, stdin: {write(data: string): void}): Promise<string[]> {
	const seen = [frame()];
	for (let page = 0; page < 20 && /↓ \d+ more/.test(seen.at(-1)!); page++) {
		const before = frame();
		stdin.write('\u001B[6~');
		await vi.waitFor(() => {
			expect(frame()).not.toBe(before);
		});
		seen.push(frame());
	}

	return seen;
}

/** The help's text with the border and the wrapping taken out: each description reads as one run of words. */
function helpProse(pages: readonly string[]): string {
	return pages.join('\n').replaceAll(/\s*[│╰╭╮╯─]\s*/g, ' ').replaceAll(/\s+/g, ' ');
}

test('? lists every binding with its keys and its whole description, in one column; Esc closes it', async () => {
	const {frame, stdin} = render({tasks: plannedTasks(3), columns: 100, rows: 45});
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toContain('closes this help');
	});
	const pages = await helpPages(frame, stdin);
	const prose = helpProse(pages);
	for (const entry of helpEntries(resolveBindings({}))) {
		expect(pages.join('\n')).toMatch(new RegExp(`${escapeRegExp(entry.keys)} +${escapeRegExp(entry.description.split(' ').slice(0, 3).join(' '))}`));
		expect(prose).toContain(entry.description);
	}

	stdin.write('\u001B');
	await vi.waitFor(() => {
		expect(frame()).not.toContain('closes this help');
	});
});

test('at 200 columns the help is one readable column: M, P and E each read whole, none cut to look alike', async () => {
	const {frame, stdin} = render({tasks: plannedTasks(3), columns: 200, rows: 50});
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toContain('closes this help');
	});
	const pages = await helpPages(frame, stdin);
	const lines = pages.join('\n').split('\n');
	expect(lines.filter(line => /… *│$/.test(line))).toEqual([]);
	// One column: no line holds a second key column after a description.
	expect(lines.filter(line => /Focus the pane above .*\S+ {2,}\S/.test(line))).toEqual([]);
	const prose = helpProse(pages);
	for (const command of ['routes.model', 'routes.provider', 'routes.effort'] as const) {
		const entry = helpEntries(resolveBindings({})).find(item => item.command === command)!;
		expect(prose).toContain(`${entry.keys} ${entry.description}`);
	}
});

test('shows remapped keys, and says how many lines are below when the terminal is short', async () => {
	const {frame, stdin} = render({tasks: plannedTasks(3), columns: 80, rows: 16, bindings: resolveBindings({'layout.toggle': ['v']})});
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toContain('closes this help');
	});
	expect(frame()).toMatch(/↓ \d+ more · ↓\/PgDn scrolls/);
	expect((await helpPages(frame, stdin)).join('\n')).toMatch(/v +Switch between the grid/);
});

test('down keys that arrive together each scroll one line', async () => {
	const {frame, stdin} = render({tasks: plannedTasks(3), columns: 80, rows: 16});
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toMatch(/↓ \d+ more/);
	});
	expect(Number(/↓ (\d+) more/.exec(frame())![1])).toBeGreaterThan(3);
	stdin.write('\u001B[B\u001B[B\u001B[B');
	await vi.waitFor(() => {
		expect(frame()).toContain('↑ 3 more');
	});
});

test('at 80x24 with warnings the help scrolls to every binding, and scrolling leaves the zoom view alone', async () => {
	const warnings = ['first batch warning', 'second batch warning', 'third batch warning', 'a fourth warning that is long enough to wrap onto a second line of the help overlay at eighty columns'];
	const {frame, stdin, store} = render({tasks: plannedTasks(3), columns: 80, rows: 24, warnings});
	stdin.write('\r');
	await vi.waitFor(() => {
		expect(zoomOf(store.getState().overlay)).not.toBeNull();
	});
	const zoomBefore = zoomOf(store.getState().overlay);
	stdin.write('?');
	await vi.waitFor(() => {
		expect(frame()).toContain('closes this help');
	});
	const seen = [frame()];
	expect(frame()).toMatch(/↓ \d+ more/);
	for (let page = 0; page < 10 && /↓ \d+ more/.test(seen.at(-1)!); page++) {
		const before = frame();
		stdin.write('\u001B[6~');
		await vi.waitFor(() => {
			expect(frame()).not.toBe(before);
		});
		seen.push(frame());
	}

	expect(seen.at(-1)).toMatch(/↑ \d+ more/);
	expect(seen.at(-1)).not.toMatch(/↓ \d+ more/);
	const all = seen.join('\n');
	for (const entry of helpEntries(resolveBindings({}))) {
		expect(all).toMatch(new RegExp(`${escapeRegExp(entry.keys)} +${escapeRegExp(entry.description.slice(0, 20))}`));
	}

	expect(zoomOf(store.getState().overlay)).toEqual(zoomBefore);
	stdin.write('k');
	await vi.waitFor(() => {
		expect(frame()).toMatch(/↓ \d+ more/);
	});
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
