// `$`: the spend table per route, per model and for the batch. Unknown is `?` and
// never 0, a sum missing unknown attempts is `≥`, counts without a price say unpriced; it opens
// and closes as the help does (Esc or `$`; q asks to quit over it, as over every overlay), and
// the footer and the help offer it from the binding table.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import type {Spend, SpendTotals} from '../../src/core/types.js';
import {sumSpend} from '../../src/core/run/spend-sum.js';
import {resolveBindings} from '../../src/ui/keys/keys.js';
import {spendTableLines} from '../../src/ui/text/spend-table.js';
import {plannedTask, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

const known: Spend = {input_tokens: 1500, output_tokens: 300, cache_read_tokens: 1000, cache_write_tokens: null, reasoning_tokens: 40, api_calls: 2, tool_calls: 3, cost_usd: 0.0123, cost_status: 'estimated', model: 'm-fast', billing_provider: 'openrouter'};
const unknown: Spend = {...known, input_tokens: null, output_tokens: null, cache_read_tokens: null, reasoning_tokens: null, api_calls: null, cost_usd: null, tool_calls: 1, model: 'm-local'};
const unpriced: Spend = {...known, cost_usd: null, cost_status: 'unknown', model: 'm-local'};

const local = {kind: 'model' as const, name: 'local', description: 'On the machine', model: 'm-local', provider: 'custom'};
const tasks = [plannedTask(0), plannedTask(1, {decision: {route: local}, effective: {model: 'm-local', provider: 'custom'}}), plannedTask(2, {decision: {route: local}, effective: {model: 'm-local', provider: 'custom'}}), plannedTask(3)];

function spendy() {
	const rendered = render({tasks, columns: 120, rows: 40});
	const {store} = rendered;
	for (const id of ['t01', 't02', 't03']) startTask(store, id, t0);
	store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: known, at: t0 + 1000});
	store.getState().applyEvent({type: 'task.spend', id: 't02', attempt: 1, spend: unknown, at: t0 + 1000});
	store.getState().applyEvent({type: 'task.spend', id: 't03', attempt: 1, spend: unpriced, at: t0 + 1000});
	return rendered;
}

/** The table's row for `name` in the frame, its cells split on runs of spaces. */
function cells(frame: string, name: string): string[] {
	const line = frame.split('\n').find(text => text.replace(/^[│ ]+/, '').startsWith(`${name} `));
	if (!line) throw new Error(`no row ${name} in\n${frame}`);
	return line.replaceAll('│', '').trim().split(/ {1,}/);
}

describe('the $ spend table', () => {
	test('per route, per model and for the batch: ? for unknown (never 0), ≥ for a lower bound, unpriced marked', async () => {
		const {frame, stdin} = spendy();
		stdin.write('$');
		await vi.waitFor(() => {
			expect(frame()).toContain('Esc or $ closes');
		});
		const text = frame();
		expect(text).toMatch(/attempts +in +out +cache r +cache w +reason +API +tools +cost/);
		// fast: t01 alone, all known; its cache-write column was never written by Hermes: ?.
		expect(cells(text, 'fast')).toEqual(['fast', '1', '1.5k', '300', '1.0k', '?', '40', '2', '3', '$0.012']);
		// local: one unknown attempt, one unpriced: known counts are a lower bound (tool calls too, since a
		// sum does not say which numbers an unknown attempt did know), no cost at all.
		expect(cells(text, 'local')).toEqual(['local', '2', '≥1.5k', '≥300', '≥1.0k', '?', '≥40', '≥2', '≥4', 'unpriced', '1', 'unknown,', '1', 'unpriced']);
		expect(cells(text, 'm-local')).toEqual(cells(text, 'local').with(0, 'm-local'));
		expect(cells(text, 'batch')).toEqual(['batch', '3', '≥3.0k', '≥600', '≥2.0k', '?', '≥80', '≥4', '≥7', '≥$0.012', '1', 'unknown,', '1', 'unpriced']);
		// The queued task t04 spent nothing and is no attempt; nothing unknown reads as 0.
		expect(text).not.toMatch(/ 0 /);
		// Hermes's own records leave calls out: the table says its figures are a lower bound.
		expect(text.replaceAll(/\s+/g, ' ')).toMatch(/All figures are a lower bound: Hermes's own records \(state\.db\), which leave out auxiliary calls/);
	});

	test('Esc closes it, $ closes it, and q asks to quit over it as over every overlay', async () => {
		const {frame, stdin, store} = spendy();
		for (const close of ['\u001B', '$']) {
			stdin.write('$');
			await vi.waitFor(() => {
				expect(store.getState().overlay?.kind).toBe('spend');
			});
			stdin.write(close);
			await vi.waitFor(() => {
				expect(store.getState().overlay).toBeNull();
			});
			expect(frame()).not.toContain('closes');
		}

		stdin.write('$');
		await vi.waitFor(() => {
			expect(store.getState().overlay?.kind).toBe('spend');
		});
		stdin.write('q');
		await vi.waitFor(() => {
			expect(store.getState().overlay).toMatchObject({kind: 'confirm', question: {action: 'quit'}, under: {kind: 'spend'}});
		});
		stdin.write('n');
		await vi.waitFor(() => {
			expect(store.getState().overlay?.kind).toBe('spend');
		});
	});

	test('over a zoomed task it returns to the zoom', async () => {
		const {stdin, store} = spendy();
		stdin.write('\r');
		await vi.waitFor(() => {
			expect(store.getState().overlay?.kind).toBe('zoom');
		});
		stdin.write('$');
		await vi.waitFor(() => {
			expect(store.getState().overlay).toMatchObject({kind: 'spend', under: {kind: 'zoom'}});
		});
		stdin.write('\u001B');
		await vi.waitFor(() => {
			expect(store.getState().overlay?.kind).toBe('zoom');
		});
	});

	test('the footer offers it in the grid and says how to close it; a remapped key shows as remapped', async () => {
		const {frame, stdin} = render({tasks, columns: 160, rows: 30, bindings: resolveBindings({'spend.toggle': ['S']})});
		await vi.waitFor(() => {
			expect(frame().split('\n').at(-1)).toContain('S spend');
		});
		stdin.write('S');
		await vi.waitFor(() => {
			expect(frame()).toContain('Esc or S closes');
		});
		expect(frame()).toContain('No task has started yet: nothing spent.');
		expect(frame().split('\n').at(-1)).toMatch(/Esc back.*S spend/);
	});
});

describe('spendTableLines', () => {
	const totals: SpendTotals = sumSpend([
		{route: 'a-very-long-route-name-from-a-config', model: 'provider/a-model-with-a-long-name', spend: {...known, model: null}},
		{route: 'local', model: 'm-local', spend: unknown},
	]);

	test('fits narrow widths by dropping the least needed columns first, never the tokens or the cost', () => {
		for (const width of [56, 70, 80, 100]) {
			const lines = spendTableLines(totals, width);
			for (const line of lines) expect([...line.text].length).toBeLessThanOrEqual(width);
			const head = lines.find(line => line.kind === 'head')!.text;
			expect(head).toMatch(/ in +out .*cost/);
		}

		expect(spendTableLines(totals, 70).find(line => line.kind === 'head')!.text).not.toContain('cache w');
	});

	test('the cost is never what the width cuts: a note that does not fit gives way', () => {
		const partly = sumSpend([
			// A long name widens the name column until the cells end at the edge, leaving no room for the note.
			{route: 'research', model: 'deepseek/deepseek-v4-pro', spend: {...known, cost_usd: 0.012, model: 'deepseek/deepseek-v4-pro'}},
			{route: 'fast', model: 'google/gemini-3-flash-preview', spend: {...unknown, model: 'google/gemini-3-flash-preview'}},
		]);
		for (const width of [56, 70, 76, 80, 100]) {
			const batch = spendTableLines(partly, width).find(line => line.kind === 'total')!.text;
			expect([...batch].length).toBeLessThanOrEqual(width);
			expect(batch).toMatch(/ ≥\$0\.012(?: |$)/);
		}
	});

	test('piped (no width): every column, names whole', () => {
		const lines = spendTableLines(totals, Number.POSITIVE_INFINITY);
		expect(lines.find(line => line.kind === 'head')!.text).toContain('cache w');
		expect(lines.some(line => line.text.startsWith('a-very-long-route-name-from-a-config '))).toBe(true);
		expect(lines.some(line => line.text.startsWith('provider/a-model-with-a-long-name '))).toBe(true);
	});

	test('an escape sequence in a route name is made harmless', () => {
		const hostile = sumSpend([{route: 'evil\u001B]52;c;aGk=\u0007', model: null, spend: known}]);
		expect(spendTableLines(hostile, 100).map(line => line.text).join('\n')).not.toContain('\u001B');
	});
});
