// The store's spend, pure: every started attempt counts (earlier ones kept at re-route), unknown
// is counted as unknown and left out of the sums; tool activity and output moves are timed.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test} from 'vitest';
import type {Spend} from '../../src/core/types.js';
import {spendTotals} from '../../src/core/run/spend.js';
import {batchSpendSummary, burnRate, spendTable} from '../../src/state/spend-view.js';
import {burnText} from '../../src/ui/text/spend.js';
import {finishTask, plannedTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

const known: Spend = {input_tokens: 100, output_tokens: 20, cache_read_tokens: 5, cache_write_tokens: null, reasoning_tokens: null, api_calls: 2, tool_calls: 1, cost_usd: 0.5, cost_status: 'estimated', model: 'm-a', billing_provider: null};
const unknown: Spend = {...known, input_tokens: null, output_tokens: null, cache_read_tokens: null, api_calls: null, cost_usd: null, tool_calls: 4};

afterEach(cleanup);

describe('spendTable', () => {
	test('sums known numbers only, counts unknown and unpriced attempts, per route and per model', () => {
		const {store} = render({tasks: plannedTasks(3)});
		startTask(store, 't01', t0);
		startTask(store, 't02', t0);
		startTask(store, 't03', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: known, at: t0 + 1});
		store.getState().applyEvent({type: 'task.spend', id: 't02', attempt: 1, spend: unknown, at: t0 + 1});
		store.getState().applyEvent({type: 'task.spend', id: 't03', attempt: 1, spend: {...known, cost_usd: null, model: 'm-b'}, at: t0 + 1});
		const table = spendTable(store.getState());
		expect(table.total).toMatchObject({attempts: 3, unknown_attempts: 1, unpriced_attempts: 1, input_tokens: 200, output_tokens: 40, tool_calls: 6, api_calls: 4, cost_usd: 0.5, cache_write_tokens: null});
		expect(table.by_model['m-b']).toMatchObject({attempts: 1, unpriced_attempts: 1, cost_usd: null});
		expect(Object.values(table.by_route).reduce((sum, route) => sum + route.attempts, 0)).toBe(3);
	});

	test('a re-routed task\'s earlier attempt counts on its own route, as results.json counts it (one sum for both)', () => {
		const {store} = render({tasks: plannedTasks(2)});
		startTask(store, 't01', t0);
		const first = finishTask(store, 't01', 'failed', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 1, spend: known});
		const deep = plannedTask(0, {decision: {route: {kind: 'model', name: 'deep', description: 'Careful', model: 'm-deep', provider: 'anthropic'}}, effective: {model: 'm-deep', provider: 'anthropic'}});
		store.getState().applyEvent({type: 'task.requeued', id: 't01', attempt: 2, plan: deep, at: t0 + 2000});
		startTask(store, 't01', t0 + 2100);
		const second = finishTask(store, 't01', 'succeeded', {startedAt: t0 + 2100, finishedAt: t0 + 3000, exitCode: 0, spend: {...known, model: 'm-deep', cost_usd: 1}});
		startTask(store, 't02', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't02', attempt: 1, spend: unknown, at: t0 + 10});

		const table = spendTable(store.getState());
		expect(table.total).toMatchObject({attempts: 3, input_tokens: 200, cost_usd: 1.5, unknown_attempts: 1});
		expect(table.by_route['fast']).toMatchObject({attempts: 2, cost_usd: 0.5});
		expect(table.by_route['deep']).toMatchObject({attempts: 1, cost_usd: 1});
		expect(batchSpendSummary(store.getState())).toMatchObject({costUsd: 1.5, tokens: 240, attempts: 3});
		// What the report of the same attempts says (t02's running attempt as its result would be: unknown).
		const t02 = {...first, id: 't02', route: {...first.route, name: 'fast'}, spend: unknown};
		expect(table).toEqual(spendTotals([{...second, earlier_attempts: [first]}, t02]));
	});

	test('a queued task spent nothing and is not an attempt', () => {
		const {store} = render({tasks: plannedTasks(2)});
		expect(spendTable(store.getState()).total.attempts).toBe(0);
	});

	test('tool activity is timed when tool_calls grow, not when a snapshot repeats them', () => {
		const {store} = render({tasks: plannedTasks(1)});
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: known, at: t0 + 10});
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: known, at: t0 + 20});
		expect(store.getState().tasks['t01']!.lastToolAt).toBe(t0 + 10);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: {...known, tool_calls: 2}, at: t0 + 30});
		expect(store.getState().tasks['t01']!.lastToolAt).toBe(t0 + 30);
	});
});

describe('burnRate', () => {
	const minute = 60_000;
	const priced = (usd: number, tokens: number): Spend => ({...known, input_tokens: tokens, output_tokens: 0, cost_usd: usd});

	test('a running attempt\'s spend as read, spread over the time it covers, per minute of the (young) batch', () => {
		const {store} = render({tasks: plannedTasks(1)});
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: priced(0.6, 600), at: t0 + minute});
		expect(burnRate(store.getState(), t0 + minute)).toEqual({usdPerMinute: 0.6, tokensPerMinute: 600, usdPartial: false, tokensPartial: false});
		expect(burnText(burnRate(store.getState(), t0 + minute))).toBe('burn $0.600/min');
	});

	test('only the share inside the window counts; an attempt that ended before it is gone', () => {
		const {store} = render({tasks: plannedTasks(2)});
		startTask(store, 't01', t0);
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + minute, exitCode: 0, spend: priced(100, 1000)});
		startTask(store, 't02', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't02', attempt: 1, spend: priced(10, 10_000), at: t0 + (10 * minute)});
		// Window: the last 5 of t02's 10 minutes, half of its spend; t01 ended 9 minutes ago.
		expect(burnRate(store.getState(), t0 + (10 * minute))).toMatchObject({usdPerMinute: 1, tokensPerMinute: 1000});
	});

	test('unknown is unknown: ? when nothing in the window is known, ≥ when part is, tokens where no cost is known', () => {
		const {store} = render({tasks: plannedTasks(3)});
		startTask(store, 't01', t0);
		expect(burnText(burnRate(store.getState(), t0 + minute))).toBe('burn ?/min');
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: unknown, at: t0 + minute});
		expect(burnText(burnRate(store.getState(), t0 + minute))).toBe('burn ?/min');
		startTask(store, 't02', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't02', attempt: 1, spend: {...priced(0, 1200), cost_usd: null}, at: t0 + minute});
		expect(burnText(burnRate(store.getState(), t0 + minute))).toBe('burn ≥1.2k tok/min');
		startTask(store, 't03', t0);
		store.getState().applyEvent({type: 'task.spend', id: 't03', attempt: 1, spend: priced(0.3, 300), at: t0 + minute});
		expect(burnText(burnRate(store.getState(), t0 + minute))).toBe('burn ≥$0.300/min');
	});

	test('a re-routed task\'s earlier attempt counts while it is in the window', () => {
		const {store} = render({tasks: plannedTasks(1)});
		startTask(store, 't01', t0);
		finishTask(store, 't01', 'failed', {startedAt: t0, finishedAt: t0 + minute, exitCode: 1, spend: priced(0.5, 500)});
		store.getState().applyEvent({type: 'task.requeued', id: 't01', attempt: 2, plan: plannedTask(0), at: t0 + minute});
		startTask(store, 't01', t0 + minute);
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 2, spend: priced(0.5, 500), at: t0 + (2 * minute)});
		expect(burnRate(store.getState(), t0 + (2 * minute))).toMatchObject({usdPerMinute: 0.5, tokensPerMinute: 500});
	});

	test('no attempt ran in the window: nothing to say', () => {
		const {store} = render({tasks: plannedTasks(1)});
		expect(burnRate(store.getState(), t0 + minute)).toBeNull();
	});
});
