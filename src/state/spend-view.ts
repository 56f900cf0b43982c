// The batch's spend as the dashboard knows it, as pure functions of the store: every attempt that
// started counts, a finished one with its result's spend, a running one with its live spend
// (task.spend). Summed by core's spend-sum.ts, as results.json is, so the `$` table, the header
// and `hermes-delegate spend` read the same numbers the report does.
import type {SpendTotals} from '../core/types.js';
import {sumSpend, type AttemptSpend} from '../core/run/spend-sum.js';
import {routeKeyOf} from '../core/run/results.js';
import type {TaskView} from './task-view.js';

/** The route a view's attempt runs on, named as results.json's by_route names it. */
export function viewRouteKey(view: Pick<TaskView, 'routeName' | 'routeKind' | 'model'>): string {
	return routeKeyOf({name: view.routeName, kind: view.routeKind, model: view.model});
}

/** Every attempt of the task that started: the earlier ones (kept at re-route), then the current one. */
export function attemptsOf(view: TaskView): AttemptSpend[] {
	const current = view.startedAt === null ? [] : [{route: viewRouteKey(view), model: view.model, spend: view.spend}];
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
