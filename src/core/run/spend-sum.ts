// The one way spend is summed (docs/spend.md): per route, per model and for the batch. The report sums
// the results' attempts with it (spend.ts), the dashboard and `hermes-delegate spend` the store's
// (state/spend-view.ts), so the `$` table, the header, results.json and the command never disagree.
// Pure: no I/O.
import type {Spend, SpendSum, SpendTotals} from '../types.js';

/** One attempt that started: the route it ran on (results.json's by_route key), its planned model, and its spend (null: not read, or unknown). */
export type AttemptSpend = {route: string; model: string | null; spend: Spend | null};

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

/** by_model: the model the session row names, else the one planned. */
export function sumSpend(attempts: Iterable<AttemptSpend>): SpendTotals {
	const totals: SpendTotals = {total: emptySpendSum(), by_route: {}, by_model: {}};
	for (const attempt of attempts) {
		addSpend(totals.total, attempt.spend);
		addSpend(totals.by_route[attempt.route] ??= emptySpendSum(), attempt.spend);
		addSpend(totals.by_model[attempt.spend?.model ?? attempt.model ?? '(unknown)'] ??= emptySpendSum(), attempt.spend);
	}

	return totals;
}
