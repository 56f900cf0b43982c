// The batch's spend as the dashboard knows it, as pure functions of the store: every attempt that
// started counts, a finished one with its result's spend, a running one with its live spend
// (task.spend). Summed into core's SpendTotals shape so the `$` table, the header and
// `hermes-delegate spend` read the same numbers. The sums are written here rather than borrowed
// from core/run/spend.ts because that one sums TaskResults and the store holds views.
import type {Spend, SpendSum, SpendTotals} from '../core/types.js';
import type {AttemptSpend, TaskView} from './task-view.js';

const summed = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'api_calls', 'tool_calls', 'cost_usd'] as const;

export function emptySpendSum(): SpendSum {
	return {input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, reasoning_tokens: null, api_calls: null, tool_calls: null, cost_usd: null, attempts: 0, unknown_attempts: 0, unpriced_attempts: 0};
}

/** Adds one attempt: unknown numbers are left out of the sum and counted in unknown_attempts, never added as 0. */
export function addSpend(sum: SpendSum, spend: Spend | null): void {
	sum.attempts++;
	for (const key of summed) {
		const value = spend?.[key] ?? null;
		if (value !== null) sum[key] = (sum[key] ?? 0) + value;
	}

	if (spend === null || spend.input_tokens === null) sum.unknown_attempts++;
	else if (spend.cost_usd === null) sum.unpriced_attempts++;
}

/** The route a view's attempt runs on, named as results.json's by_route names it (core routeKey). */
export function viewRouteKey(view: Pick<TaskView, 'routeName' | 'routeKind' | 'model'>): string {
	return view.routeName ?? (view.routeKind === 'explicit' ? `(explicit ${view.model ?? ''})` : '(parent)');
}

/** Every attempt of the task that started: the earlier ones (kept at re-route), then the current one. */
export function attemptsOf(view: TaskView): AttemptSpend[] {
	const current = view.startedAt === null ? [] : [{route: viewRouteKey(view), model: view.model, spend: view.spend}];
	return [...view.earlierAttempts, ...current];
}

type Tasks = {order: readonly string[]; tasks: Readonly<Record<string, TaskView>>};

/** Per route, per model and for the batch. by_model: the model the row names, else the one planned. */
export function spendTable(state: Tasks): SpendTotals {
	const totals: SpendTotals = {total: emptySpendSum(), by_route: {}, by_model: {}};
	for (const id of state.order) {
		const view = state.tasks[id];
		if (!view) continue;
		for (const attempt of attemptsOf(view)) {
			addSpend(totals.total, attempt.spend);
			addSpend(totals.by_route[attempt.route] ??= emptySpendSum(), attempt.spend);
			addSpend(totals.by_model[attempt.spend?.model ?? attempt.model ?? '(unknown)'] ??= emptySpendSum(), attempt.spend);
		}
	}

	return totals;
}

/** What the header says of the batch's spend: known sums, and whether part of it is not in them (a lower bound: "≥"). */
export type BatchSpendSummary = {costUsd: number | null; tokens: number | null; costPartial: boolean; tokensPartial: boolean; attempts: number};

export function batchSpendSummary(state: Tasks): BatchSpendSummary {
	const {total} = spendTable(state);
	const tokens = total.input_tokens === null && total.output_tokens === null ? null : (total.input_tokens ?? 0) + (total.output_tokens ?? 0);
	return {
		costUsd: total.cost_usd,
		tokens,
		costPartial: total.unknown_attempts + total.unpriced_attempts > 0,
		tokensPartial: total.unknown_attempts > 0,
		attempts: total.attempts,
	};
}

/** How many running tasks the runner called stuck (task.stuck). */
export function stuckCount(state: Tasks): number {
	return state.order.filter(id => state.tasks[id]?.stuckSince != null).length;
}
