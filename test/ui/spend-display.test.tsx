// Spend on the panes and in the header: unknown is shown as unknown, never as 0; a
// budget at 80 % warns, a reached one is marked; stuck tasks are counted.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import type {BudgetStanding, Spend} from '../../src/core/types.js';
import {paneSpendLine} from '../../src/ui/text/spend.js';
import {finishTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

const unknown: Spend = {input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, reasoning_tokens: null, api_calls: null, tool_calls: 2, cost_usd: null, cost_status: null, model: 'm1', billing_provider: null};
const known: Spend = {...unknown, input_tokens: 1500, output_tokens: 300, api_calls: 1, tool_calls: 3, cost_usd: 0.0123, cost_status: 'estimated'};

function budget(level: BudgetStanding['level'], spent: number): BudgetStanding {
	return {scope: {kind: 'batch'}, unit: 'usd', limit: 10, spent, level, action: 'stop'};
}

describe('spend on the panes', () => {
	test('a running task whose row has no tokens yet shows ?, not 0; known spend shows its numbers', async () => {
		const {frame, store} = render({tasks: plannedTasks(2), columns: 160});
		startTask(store, 't01', t0);
		startTask(store, 't02', t0);
		await vi.waitFor(() => {
			expect(frame()).toContain('spend not read yet');
		});
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: unknown, at: t0 + 1000});
		store.getState().applyEvent({type: 'task.spend', id: 't02', attempt: 1, spend: known, at: t0 + 1000});
		await vi.waitFor(() => {
			expect(frame()).toContain('? in · ? out tokens · $? · 2 tool calls');
			expect(frame()).toContain('1.5k in · 300 out tokens · ~$0.012 · 3 tool calls');
		});
		expect(frame()).not.toMatch(/\b0 in\b/);
	});

	test('known tokens without a price say unpriced', async () => {
		const {frame, store} = render({tasks: plannedTasks(1), columns: 120});
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: {...known, cost_usd: null, cost_status: 'unknown'}, at: t0 + 1000});
		await vi.waitFor(() => {
			expect(frame()).toContain('unpriced');
		});
	});

	test('a narrow pane keeps a shorter spend line, still with the unknown marked', async () => {
		const {frame, store} = render({tasks: plannedTasks(1), columns: 60});
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: unknown, at: t0 + 1000});
		await vi.waitFor(() => {
			expect(frame()).toContain('? in · ? out tokens · $? · 2 tool calls');
		});
		expect(frame()).not.toContain('not yet known');
		for (const line of frame().split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
		// Narrower still, the shortest form keeps the ? marks.
		expect(paneSpendLine(unknown, true, 20)).toBe('?/? $? 2t');
		expect(paneSpendLine(known, true, 32)).toBe('1.5k/300 tok · ~$0.012 · 3 tools');
		expect(paneSpendLine(null, false, 80)).toBeNull();
		// Wording: one call is a call; a finished task's unknown is not "yet" to come.
		expect(paneSpendLine({...known, tool_calls: 1}, true, 80)).toContain('· 1 tool call');
		expect(paneSpendLine({...known, tool_calls: 1}, true, 80)).not.toContain('1 tool calls');
		expect(paneSpendLine(unknown, true, 80)).toContain('(? = not yet known)');
		expect(paneSpendLine(unknown, true, 80, true)).toContain('(? = not known)');
	});
});

describe('stream-json counts beside the spend line', () => {
	test('the route line shows them only while the spend line does not know them', async () => {
		const {frame, store} = render({tasks: plannedTasks(1), columns: 160});
		startTask(store, 't01', t0);
		const tokens = {input: 1490, output: 10, total: 1500, cache_read: 0, cache_write: 0};
		store.getState().applyEvent({type: 'task.telemetry', id: 't01', telemetry: {model_used: null, session_id: 's1', tokens, cost_usd: null, tool_calls: 3}, at: t0 + 500});
		// The row says 2 tool calls and no tokens yet: stream-json's tokens are the only ones known.
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: unknown, at: t0 + 1000});
		await vi.waitFor(() => {
			expect(frame()).toContain('? in · ? out tokens · $? · 2 tool calls');
		});
		const routeRow = () => frame().split('\n').find(line => line.includes('gemini-3-flash-preview'))!;
		expect(routeRow()).toContain('1.5k tok');
		expect(routeRow()).not.toContain('tools');
		// Once the row has them, they are said once, on the spend line.
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: known, at: t0 + 2000});
		await vi.waitFor(() => {
			expect(frame()).toContain('1.5k in · 300 out tokens');
		});
		expect(routeRow()).not.toContain('tok');
	});
});

describe('spend in the header', () => {
	test('the batch spend is a lower bound (≥) while an attempt is unknown, exact when all are known', async () => {
		const {frame, store} = render({tasks: plannedTasks(2), columns: 160});
		startTask(store, 't01', t0);
		startTask(store, 't02', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: known, at: t0 + 1000});
		await vi.waitFor(() => {
			expect(frame()).toContain('spend ≥$0.012 · ≥1.8k tokens');
		});
		finishTask(store, 't02', 'cancelled', {startedAt: t0, finishedAt: t0 + 2000});
		store.getState().applyEvent({type: 'task.spend', id: 't02', attempt: 1, spend: known, at: t0 + 1500});
		await vi.waitFor(() => {
			expect(frame()).toContain('spend $0.025 · 3.6k tokens');
		});
	});

	test('the burn rate shows beside the spend while tasks run, from the store\'s clock; ? when unknown; gone once nothing runs', async () => {
		const {frame, store} = render({tasks: plannedTasks(2), columns: 160});
		startTask(store, 't01', t0);
		store.getState().tick(t0 + 30_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('· 30s ·');
		});
		expect(frame()).not.toContain('burn'); // no spend known at all: the header says nothing of it
		// t02 spent something long ago; t01, running, is not known yet: the rate of the last minutes is not.
		startTask(store, 't02', t0 - 3_600_000);
		finishTask(store, 't02', 'succeeded', {startedAt: t0 - 3_600_000, finishedAt: t0 - 3_000_000, exitCode: 0, spend: known});
		await vi.waitFor(() => {
			expect(frame()).toContain('burn ?/min');
		});
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: {...known, input_tokens: 500, output_tokens: 100, cost_usd: 0.3}, at: t0 + 60_000});
		store.getState().tick(t0 + 60_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('spend $0.312 · 2.4k tokens · burn $0.300/min');
		});
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 61_000, exitCode: 0});
		await vi.waitFor(() => {
			expect(frame()).not.toContain('burn');
		});
	});

	test('a budget at 80 % warns; a reached one is marked, before the status counts', async () => {
		const {frame, store} = render({tasks: plannedTasks(1), columns: 100});
		await vi.waitFor(() => {
			expect(frame()).toContain('1 task');
		});
		expect(frame()).not.toContain('budget');
		store.getState().applyEvent({type: 'batch.budget', budget: budget('warning', 8.1), at: t0});
		await vi.waitFor(() => {
			expect(frame()).toContain('⚠ budget 81 %: batch $8.10 of $10.00');
		});
		store.getState().applyEvent({type: 'batch.budget', budget: budget('reached', 10.2), at: t0});
		await vi.waitFor(() => {
			expect(frame()).toContain('⛔ BUDGET REACHED: batch $10.20 of $10.00 — no new task starts');
		});
		expect(frame()).not.toContain('budget 81');
	});

	test('stuck tasks are counted in the header', async () => {
		const {frame, store} = render({tasks: plannedTasks(2), columns: 120});
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.stuck', id: 't01', attempt: 1, stuck: true, quietSince: t0, at: t0 + 60_000});
		await vi.waitFor(() => {
			expect(frame()).toContain('⚠ 1 stuck?');
		});
		store.getState().applyEvent({type: 'task.stuck', id: 't01', attempt: 1, stuck: false, quietSince: t0, at: t0 + 61_000});
		await vi.waitFor(() => {
			expect(frame()).not.toContain('stuck?');
		});
	});
});
