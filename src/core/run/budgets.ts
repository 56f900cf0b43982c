// Budgets (docs/spend.md): --budget-usd and --budget-tokens for the batch, delegate.yaml's `budgets`
// per route. Known spend is what the finished attempts' results say plus the newest task.spend
// of the running ones; what is unknown counts as nothing (and the report says so). Tokens are
// input + output as Hermes's session row counts them: cache reads/writes and reasoning are not
// added, since providers report them as parts of input and output, and adding them would count
// the same tokens twice.
import type {BudgetStanding, DelegationConfig, PlannedTask, Spend} from '../types.js';

export type BudgetLimit = Omit<BudgetStanding, 'spent' | 'level'>;

export type BudgetHooks = {
	announce: (standing: BudgetStanding) => void;
	/** A budget with action `cancel` was reached: its scope's running attempts get the cascade. */
	reached: (budget: BudgetLimit) => void;
};

type AttemptSpend = {route: string | null; spend: Spend; final: boolean};

const warningShare = 0.8;

export function budgetName(budget: BudgetLimit): string {
	const unit = budget.unit === 'usd' ? `USD budget of $${budget.limit}` : `token budget of ${budget.limit} tokens`;
	return budget.scope.kind === 'batch' ? `the batch's ${unit} (${budget.unit === 'usd' ? '--budget-usd' : '--budget-tokens'})` : `route "${budget.scope.route}"'s ${unit} (delegate.yaml budgets)`;
}

export function inScope(budget: BudgetLimit, route: string | null): boolean {
	return budget.scope.kind === 'batch' || budget.scope.route === route;
}

/** What one attempt's spend counts toward a budget in `unit`: unknown is nothing. */
export function spendIn(unit: BudgetLimit['unit'], spend: Spend): number {
	if (unit === 'usd') return spend.cost_usd ?? 0;
	return (spend.input_tokens ?? 0) + (spend.output_tokens ?? 0);
}

export class BatchBudgets {
	private readonly attempts = new Map<string, AttemptSpend>();
	private readonly warned = new Set<BudgetLimit>();
	private readonly reachedOnes = new Set<BudgetLimit>();

	constructor(readonly limits: readonly BudgetLimit[], private readonly hooks: BudgetHooks) {}

	get any(): boolean {
		return this.limits.length > 0;
	}

	/** A running attempt's newest spend (task.spend). A figure for an attempt that has ended is late news: kept out. */
	live(id: string, attempt: number, route: string | null, spend: Spend): void {
		const key = `${id}#${attempt}`;
		if (this.attempts.get(key)?.final) return;
		this.attempts.set(key, {route, spend, final: false});
		this.weigh();
	}

	/** The attempt ended: its result's spend stands, unless it knows less than the last live figure did. */
	finished(id: string, attempt: number, route: string | null, spend: Spend | null | undefined): void {
		const key = `${id}#${attempt}`;
		const live = this.attempts.get(key);
		const known = spend && spend.input_tokens !== null ? spend : (live?.spend ?? spend ?? null);
		if (known === null) return; // never started: spent nothing
		this.attempts.set(key, {route, spend: known, final: true});
		this.weigh();
	}

	/** Why a task of `route` may not start: the first reached budget of its scope. */
	refusal(task: PlannedTask): string | undefined {
		const route = task.decision.route?.name ?? null;
		for (const budget of this.reachedOnes) {
			if (inScope(budget, route)) return `not started: ${budgetName(budget)} is reached (${formatSpent(budget, this.spent(budget))} known spent)`;
		}

		return undefined;
	}

	/** The report's word on attempts whose spend was unknown, when there are budgets to count it against. */
	unknownNote(): string | undefined {
		if (!this.any) return undefined;
		const unknown = [...this.attempts.values()].filter(attempt => attempt.final && attempt.spend.input_tokens === null).length;
		return unknown === 0 ? undefined : `spend was partly unknown: ${unknown} attempt${unknown > 1 ? 's' : ''} without a readable session row counted as nothing against the budgets`;
	}

	private spent(budget: BudgetLimit): number {
		let sum = 0;
		for (const attempt of this.attempts.values()) {
			if (inScope(budget, attempt.route)) sum += spendIn(budget.unit, attempt.spend);
		}

		return sum;
	}

	private weigh(): void {
		for (const budget of this.limits) {
			if (this.reachedOnes.has(budget)) continue;
			const spent = this.spent(budget);
			if (spent >= budget.limit) {
				this.reachedOnes.add(budget);
				this.warned.add(budget);
				this.hooks.announce({...budget, spent, level: 'reached'});
				if (budget.action === 'cancel') this.hooks.reached(budget);
			} else if (spent >= budget.limit * warningShare && !this.warned.has(budget)) {
				this.warned.add(budget);
				this.hooks.announce({...budget, spent, level: 'warning'});
			}
		}
	}
}

function formatSpent(budget: BudgetLimit, spent: number): string {
	return budget.unit === 'usd' ? `$${spent.toFixed(4)}` : `${spent} tokens`;
}

/**
 * Before anything starts: a USD budget over routes Hermes cannot price (a base_url endpoint or a
 * `custom` provider: their rows keep cost_status unknown, docs/spend.md) can count only what it can.
 */
export function unpricedWarnings(limits: readonly BudgetLimit[], tasks: readonly PlannedTask[]): string[] {
	const warnings: string[] = [];
	for (const budget of limits.filter(limit => limit.unit === 'usd')) {
		const unpriced = new Set(tasks
			.filter(task => !task.decision.refused && inScope(budget, task.decision.route?.name ?? null))
			.filter(task => task.launch.base_url !== null || task.effective.provider === 'custom')
			.map(task => task.decision.route?.name ?? '(parent model)'));
		if (unpriced.size > 0) {
			warnings.push(`${budgetName(budget)}: Hermes cannot price route${unpriced.size > 1 ? 's' : ''} ${[...unpriced].map(name => `"${name}"`).join(', ')} (base_url or custom provider: cost unknown), so their tasks count nothing toward it; a token budget can cap them`);
		}
	}

	return warnings;
}

/**
 * Before anything starts: a delegate.yaml budget for a route config.yaml does not have (in either
 * mode) caps nothing, which a typo would hide until the money is spent. Named, with the fix.
 */
export function unknownRouteBudgetWarnings(limits: readonly BudgetLimit[], delegation: Pick<DelegationConfig, 'modelMap' | 'profileRoutes' | 'source'>, settingsFile: string): string[] {
	const routes = [...delegation.modelMap.options.map(route => route.name), ...delegation.profileRoutes.profiles.map(route => route.name)];
	const named = new Set(limits.flatMap(limit => (limit.scope.kind === 'route' ? [limit.scope.route] : [])));
	return [...named].filter(route => !routes.includes(route)).map(route => `${settingsFile}: budgets.${route}: ${delegation.source.path} has no route "${route}" (${routes.length > 0 ? `its routes: ${routes.join(', ')}` : 'it has no routes'}), so this budget caps nothing; fix the route name, or remove the entry`);
}

/** The batch's budgets from the flags and delegate.yaml's per-route ones; budget_action applies to all. */
export function budgetLimits(input: {usd?: number | undefined; tokens?: number | undefined; routeBudgets?: Record<string, {usd?: number | undefined; tokens?: number | undefined}> | undefined; action?: 'stop' | 'cancel' | undefined}): BudgetLimit[] {
	const action = input.action ?? 'stop';
	const limits: BudgetLimit[] = [];
	if (input.usd !== undefined) limits.push({scope: {kind: 'batch'}, unit: 'usd', limit: input.usd, action});
	if (input.tokens !== undefined) limits.push({scope: {kind: 'batch'}, unit: 'tokens', limit: input.tokens, action});
	for (const [route, budget] of Object.entries(input.routeBudgets ?? {})) {
		if (budget.usd !== undefined) limits.push({scope: {kind: 'route', route}, unit: 'usd', limit: budget.usd, action});
		if (budget.tokens !== undefined) limits.push({scope: {kind: 'route', route}, unit: 'tokens', limit: budget.tokens, action});
	}

	return limits;
}
