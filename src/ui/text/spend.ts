// Spend as the dashboard writes it. Unknown is never written as 0: `?` stands for "not known
// (yet)" — Hermes writes a turn's tokens to state.db when the turn ends — and a known count with
// no price says "unpriced". Pure text for the panes and the header (the `$` table's cells are in spend-table.ts).
import type {BudgetStanding, Spend} from '../../core/types.js';
import type {BatchSpendSummary, BurnRate} from '../../state/spend-view.js';
import {formatCount} from './format.js';

/** "$0.0123", "$1.50": small sums keep their digits (a test task costs fractions of a cent). */
export function formatUsd(usd: number): string {
	if (usd === 0) return '$0';
	if (usd < 0.01) return `$${usd.toFixed(4)}`;
	return usd < 1 ? `$${usd.toFixed(3)}` : `$${usd.toFixed(2)}`;
}

function count(value: number | null): string {
	return value === null ? '?' : formatCount(value);
}

/** The cost of one attempt: `$0.012`, `~$0.012` (Hermes estimated it), `unpriced`, or `$?` (not read yet). */
export function costText(spend: Spend): string {
	if (spend.cost_usd !== null) return `${spend.cost_status === 'estimated' ? '~' : ''}${formatUsd(spend.cost_usd)}`;
	return spend.input_tokens === null ? '$?' : 'unpriced';
}

/**
 * The pane's spend line, the longest form that fits `width`; null where there is nothing to say
 * (a task that has not started). `spend` null on a started task: its row is not read yet.
 */
export function paneSpendLine(spend: Spend | null, started: boolean, width: number, finished = false): string | null {
	if (!started && spend === null) return null;
	// A finished task's unknowns will not become known any more: "yet" would promise it.
	const unknown = finished ? '(? = not known)' : '(? = not yet known)';
	const calls = spend?.tool_calls === 1 ? 'tool call' : 'tool calls';
	const forms = spend === null
		? [finished ? 'spend not read (? = unknown)' : 'spend not read yet (? = unknown)', 'spend ?']
		: [
			`${count(spend.input_tokens)} in · ${count(spend.output_tokens)} out tokens · ${costText(spend)} · ${count(spend.tool_calls)} ${calls}${spend.input_tokens === null ? ` ${unknown}` : ''}`,
			`${count(spend.input_tokens)} in · ${count(spend.output_tokens)} out tokens · ${costText(spend)} · ${count(spend.tool_calls)} ${calls}`,
			`${count(spend.input_tokens)}/${count(spend.output_tokens)} tok · ${costText(spend)} · ${count(spend.tool_calls)} tools`,
			`${count(spend.input_tokens)}/${count(spend.output_tokens)} ${costText(spend)} ${count(spend.tool_calls)}t`,
		];
	return forms.find(form => [...form].length <= width) ?? forms.at(-1)!;
}

/**
 * The header's "spend ≥$0.42 · 12.3k tokens"; null until some attempt's spend is known (the header
 * then shows stream-json's tokens, if any). "≥": part of the spend is not known.
 */
export function headerSpendText(summary: BatchSpendSummary): string | null {
	if (summary.attempts === 0 || (summary.costUsd === null && summary.tokens === null)) return null;
	const cost = summary.costUsd === null ? '$?' : `${summary.costPartial ? '≥' : ''}${formatUsd(summary.costUsd)}`;
	const tokens = summary.tokens === null ? '? tokens' : `${summary.tokensPartial ? '≥' : ''}${formatCount(summary.tokens)} tokens`;
	return `spend ${cost} · ${tokens}`;
}

/**
 * The header's burn rate: `burn $0.012/min`, in tokens where no cost is known (`burn 1.2k tok/min`),
 * `≥` when an attempt in the window is unknown, `burn ?/min` when nothing in it is known yet; null
 * when no attempt ran in the window.
 */
export function burnText(rate: BurnRate | null): string | null {
	if (rate === null) return null;
	if (rate.usdPerMinute !== null) return `burn ${rate.usdPartial ? '≥' : ''}${formatUsd(rate.usdPerMinute)}/min`;
	if (rate.tokensPerMinute !== null) return `burn ${rate.tokensPartial ? '≥' : ''}${formatCount(Math.round(rate.tokensPerMinute))} tok/min`;
	return 'burn ?/min';
}

function budgetAmount(budget: BudgetStanding, value: number): string {
	return budget.unit === 'usd' ? formatUsd(value) : `${formatCount(value)} tokens`;
}

/**
 * The header's budget words, reached ones first: `⛔ budget reached: batch $10.20 of $10 — no new
 * task starts`, `⚠ budget 81 %: route deep $8.10 of $10`. Empty while no budget passed 80 %.
 */
export function budgetTexts(budgets: Readonly<Record<string, BudgetStanding>>): Array<{level: BudgetStanding['level']; text: string}> {
	const standings = Object.values(budgets).sort((a, b) => (a.level === b.level ? 0 : a.level === 'reached' ? -1 : 1));
	return standings.map(budget => {
		const scope = budget.scope.kind === 'batch' ? 'batch' : `route ${budget.scope.route}`;
		const amounts = `${scope} ${budgetAmount(budget, budget.spent)} of ${budgetAmount(budget, budget.limit)}`;
		if (budget.level === 'reached') {
			const consequence = budget.action === 'cancel' ? 'its tasks are cancelled' : 'no new task starts';
			return {level: budget.level, text: `⛔ BUDGET REACHED: ${amounts} — ${consequence}`};
		}

		const percent = budget.limit > 0 ? Math.floor((budget.spent / budget.limit) * 100) : 100;
		return {level: budget.level, text: `⚠ budget ${percent} %: ${amounts}`};
	});
}
