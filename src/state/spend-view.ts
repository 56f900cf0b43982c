// The batch's spend as the dashboard knows it, as pure functions of the store: every attempt that
// started counts, a finished one with its result's spend, a running one with its live spend
// (task.spend). Summed by core's spend-sum.ts, as results.json is, so the `$` table, the header
// and `hermes-delegate spend` read the same numbers the report does.
import type {SpendTotals} from '../core/types.js';
import {sumSpend} from '../core/run/spend-sum.js';
import {routeKeyOf} from '../core/run/results.js';
import type {TaskView, TimedAttemptSpend} from './task-view.js';

/** The route a view's attempt runs on, named as results.json's by_route names it. */
export function viewRouteKey(view: Pick<TaskView, 'routeName' | 'routeKind' | 'model'>): string {
	return routeKeyOf({name: view.routeName, kind: view.routeKind, model: view.model});
}

/** Every attempt of the task that started: the earlier ones (kept at re-route), then the current one. */
export function attemptsOf(view: TaskView): TimedAttemptSpend[] {
	const current = view.startedAt === null ? [] : [{route: viewRouteKey(view), model: view.model, spend: view.spend, startedAt: view.startedAt, until: view.finishedAt ?? view.spendAt}];
	return [...view.earlierAttempts, ...current];
}

type Tasks = {order: readonly string[]; tasks: Readonly<Record<string, TaskView>>};

/** Per route, per model and for the batch, every attempt that started (summed as results.json sums). */
export function spendTable(state: Tasks): SpendTotals {
	return sumSpend(state.order.flatMap(id => {
		const view = state.tasks[id];
		return view ? attemptsOf(view) : [];
	}));
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

/**
 * The batch's spend per minute over the last `windowMs` (shorter while the batch is younger). The
 * store keeps each attempt's spend as its row last stood, not a history, so each attempt's spend is
 * taken as spread evenly over the time it covers (its start to its end, or to when it was read),
 * and the share inside the window counts. Per unit, null when no attempt in the window knows it;
 * partial when some attempt in it does not (a lower bound). Null when no attempt ran in the window.
 * Pure in `now`, so the clock stays out of the store.
 */
export type BurnRate = {usdPerMinute: number | null; tokensPerMinute: number | null; usdPartial: boolean; tokensPartial: boolean};

export const burnWindowMs = 5 * 60_000;

export function burnRate(state: Tasks & {startedAt: number}, now: number, windowMs = burnWindowMs): BurnRate | null {
	const from = Math.max(state.startedAt, now - windowMs);
	const minutes = Math.max(1000, now - from) / 60_000;
	let usd: number | null = null;
	let tokens: number | null = null;
	let usdPartial = false;
	let tokensPartial = false;
	let any = false;
	for (const id of state.order) {
		const view = state.tasks[id];
		if (!view) continue;
		for (const attempt of attemptsOf(view)) {
			// A running attempt not read yet covers up to now: it spent something we do not know.
			const end = attempt.until ?? now;
			if (end < from && attempt.until !== null) continue;
			any = true;
			const share = end <= attempt.startedAt ? 1 : (Math.min(end, now) - Math.max(attempt.startedAt, from)) / (end - attempt.startedAt);
			const {spend} = attempt;
			const known = spend !== null && spend.input_tokens !== null;
			if (known) tokens = (tokens ?? 0) + (((spend.input_tokens ?? 0) + (spend.output_tokens ?? 0)) * Math.max(0, share));
			else tokensPartial = true;
			if (known && spend.cost_usd !== null) usd = (usd ?? 0) + (spend.cost_usd * Math.max(0, share));
			else usdPartial = true;
		}
	}

	if (!any) return null;
	return {usdPerMinute: usd === null ? null : usd / minutes, tokensPerMinute: tokens === null ? null : tokens / minutes, usdPartial, tokensPartial};
}
