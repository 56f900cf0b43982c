// The result format (docs/results.md): Hermes's answer, with the route, status, timings and log path.
import {exitCodes} from '../errors.js';
import type {BatchReport, FailureReason, PlannedTask, ResultRoute, Spend, StopReason, TaskResult, TaskStatus, TokenCounts, ToolCallRecord} from '../types.js';

/**
 * Which route ran the task (name, provider, model, reasoning effort, service tier).
 * service_tier is the route's configured value: `hermes chat` has no flag for it, so the
 * result's `warnings` also say it was not passed.
 */
export function resultRoute(task: PlannedTask): ResultRoute {
	const {decision, effective} = task;
	const route = decision.route;
	const kind = route ? route.kind : decision.modelOverride ? 'explicit' : 'parent';
	return {
		name: route?.name ?? null,
		kind,
		base_url: task.launch.base_url,
		provider: effective.provider,
		model: effective.model,
		reasoning_effort: effective.reasoning_effort,
		service_tier: effective.service_tier,
		profile: effective.profile,
		refused: decision.refused,
		reason: decision.reason,
	};
}

export type TaskOutcome = {
	status: TaskStatus;
	exitCode: number | null;
	signal: string | null;
	startedAt: number | null;
	finishedAt: number | null;
	stdout: {text: string; truncated: boolean};
	errorText?: string | undefined;
	failureReason?: FailureReason | undefined;
	/** What happened to this run of the task that a script should know (added to `warnings`). */
	notes?: string[] | undefined;
	logPath: string | null;
	answer?: string | undefined;
	sessionId?: string | null | undefined;
	hermesVersion?: string | null | undefined;
	tokens?: TokenCounts | null | undefined;
	configuredModel?: string | null | undefined;
	toolCalls?: ToolCallRecord[] | undefined;
	costUsd?: number | null | undefined;
	/** From state.db (spend.ts adds it once the attempt has ended); null until then. */
	spend?: Spend | null | undefined;
};

export function buildResult(task: PlannedTask, outcome: TaskOutcome): TaskResult {
	return {
		id: task.id,
		name: task.spec.name ?? null,
		goal: task.spec.goal,
		model: task.effective.model,
		route: resultRoute(task),
		status: outcome.status,
		success: outcome.status === 'succeeded',
		exit_code: outcome.exitCode,
		signal: outcome.signal,
		started_at: outcome.startedAt === null ? null : new Date(outcome.startedAt).toISOString(),
		finished_at: outcome.finishedAt === null ? null : new Date(outcome.finishedAt).toISOString(),
		duration_ms: outcome.startedAt !== null && outcome.finishedAt !== null ? outcome.finishedAt - outcome.startedAt : null,
		result: outcome.stdout.text,
		...(outcome.stdout.truncated ? {result_truncated: true} : {}),
		answer: outcome.answer ?? (outcome.status === 'succeeded' ? outcome.stdout.text : ''),
		session_id: outcome.sessionId ?? null,
		hermes_version: outcome.hermesVersion ?? null,
		tokens: outcome.tokens ?? null,
		// Known only from state.db's session row (a later issue): never stream-json init's model.
		model_used: null,
		configured_model: outcome.configuredModel ?? null,
		tool_calls: outcome.toolCalls ?? [],
		...(outcome.costUsd === undefined || outcome.costUsd === null ? {} : {cost_usd: outcome.costUsd}),
		spend: outcome.spend ?? null,
		...(outcome.errorText === undefined ? {} : {error: outcome.errorText}),
		...(outcome.failureReason === undefined || outcome.status !== 'failed' ? {} : {failure_reason: outcome.failureReason}),
		// A script reading one result must see that part of the route was not applied.
		...(task.warnings.length > 0 || outcome.notes?.length ? {warnings: [...task.warnings, ...(outcome.notes ?? [])]} : {}),
		log: outcome.logPath,
	};
}

export function refusedResult(task: PlannedTask, hermesVersion: string | null = null): TaskResult {
	return buildResult(task, {
		hermesVersion,
		status: 'refused',
		exitCode: null,
		signal: null,
		startedAt: null,
		finishedAt: null,
		stdout: {text: '', truncated: false},
		errorText: task.decision.reason,
		logPath: null,
	});
}

export function summarize(results: readonly TaskResult[]): string {
	const succeeded = results.filter(result => result.success).length;
	const others = (['failed', 'cancelled', 'timed_out', 'lost', 'refused'] as const)
		.map(status => [status, results.filter(result => result.status === status).length] as const)
		.filter(([, count]) => count > 0)
		.map(([status, count]) => `${count} ${status.replace('_', ' ')}`);
	const base = `${succeeded}/${results.length} tasks succeeded`;
	return others.length > 0 ? `${base} (${others.join(', ')})` : base;
}

/** 0 all succeeded, 1 anything else (failed, timed out, cancelled, refused, or lost with its worker), 130 when the operator interrupted the run. */
export function exitCodeOf(report: Pick<BatchReport, 'interrupted' | 'results'>): number {
	if (report.interrupted) {
		return exitCodes.interrupted;
	}

	return report.results.every(result => result.success) ? exitCodes.ok : exitCodes.taskFailed;
}

/** How a stopped process's task ends: a stop we asked for decides, else its exit code. */
export function finalStatus(stopReason: StopReason | undefined, exitCode: number | null): TaskStatus {
	if (stopReason === 'timeout' || stopReason === 'stuck') {
		return 'timed_out';
	}

	if (stopReason) {
		return 'cancelled';
	}

	return exitCode === 0 ? 'succeeded' : 'failed';
}

/** The error text of a task whose stderr said nothing. */
export function describeExit(status: TaskStatus, exitCode: number | null, signal: string | null, stopReason?: StopReason, timeout?: TimeoutLimit): string {
	if (status === 'timed_out') {
		return stopReason === 'stuck' ? stoppedBecause.stuck : timedOutWords(timeout);
	}

	if (status === 'cancelled') {
		const why = {cancel: 'by the operator', 'fail-fast': 'by --fail-fast after another task failed', shutdown: 'because hermes-delegate was stopped', timeout: 'by its timeout', budget: 'because a budget of its scope was reached (budget_action: cancel)', stuck: 'because it was stuck'};
		return `cancelled ${why[stopReason ?? 'cancel']}`;
	}

	return signal ? `killed by ${signal}` : `exited with code ${exitCode}`;
}

/** Why a stop ended a task, as its error text begins. */
export const stoppedBecause: Readonly<Record<StopReason, string>> = {cancel: 'cancelled by the operator', 'fail-fast': 'cancelled by --fail-fast after another task failed', shutdown: 'cancelled because hermes-delegate was stopped', timeout: 'timed out', budget: 'cancelled because a budget of its scope was reached (budget_action: cancel)', stuck: 'timed out: stuck, no output or tool activity for --stuck-timeout'};

export type StopFacts = {
	reason: StopReason;
	termSentAt: number;
	/** When the task's process (the group leader) exited. */
	endedAt: number;
	signal: string | null;
	exitCode: number | null;
	/** SIGKILL was needed. */
	forced: boolean;
	/** When SIGKILL was due: K (kill now, `cancel --kill`) moves it to the moment it was asked. */
	killDueAt?: number;
	/** The grace period the batch gives a stop. */
	graceMs?: number;
	/** A timeout's limit, and whose it was: said with it, so the operator knows what to raise. */
	timeout?: TimeoutLimit;
};

/** The limit a task ran into: its own `timeout` in the task file, or the batch's (--timeout). */
export type TimeoutLimit = {ms: number; own: boolean};

/** "timed out after its 30 s limit (the task's timeout)". */
export function timedOutWords(limit: TimeoutLimit | undefined): string {
	if (limit === undefined) return stoppedBecause.timeout;
	const seconds = Number((limit.ms / 1000).toFixed(3));
	return `timed out at its limit of ${seconds} s (${limit.own ? 'the task\'s "timeout"' : 'the batch\'s timeout, --timeout'})`;
}

/**
 * A stop we asked for, said as what we did and what happened: "cancelled by the operator: SIGTERM
 * sent; ended 2.1 s later (by SIGINT)". Hermes turns SIGTERM into a KeyboardInterrupt and prints a
 * traceback on its way out; that stays in the log, where it is no news to anyone.
 */
export function describeStop(facts: StopFacts): string {
	const why = facts.reason === 'timeout' ? timedOutWords(facts.timeout) : stoppedBecause[facts.reason];
	const seconds = Math.max(0, (facts.endedAt - facts.termSentAt) / 1000).toFixed(1);
	const how = facts.signal ? `by ${facts.signal}` : `exit code ${facts.exitCode}`;
	if (facts.forced && facts.signal === 'SIGKILL') {
		// As the pane says it (state/task-view.ts): a kill asked for did not wait for the grace
		// period, so the process cannot be said to have ignored SIGTERM.
		const grace = facts.killDueAt === undefined ? undefined : facts.killDueAt - facts.termSentAt;
		if (grace !== undefined && grace <= 0) {
			return `${why}: killed with SIGKILL at once, without a grace period (SIGTERM went with it)`;
		}

		if (grace !== undefined && facts.graceMs !== undefined && grace < facts.graceMs) {
			return `${why}: SIGTERM sent to its process group; killed with SIGKILL ${(grace / 1000).toFixed(1)} s later, the grace period cut short`;
		}

		return `${why}: SIGTERM sent to its process group; it ignored SIGTERM and was killed with SIGKILL ${seconds} s later`;
	}

	return `${why}: SIGTERM sent to its process group; ended ${seconds} s later (${how})`;
}

/** How totals name a route: its name, else how the task chose its model. */
export function routeKey(result: Pick<TaskResult, 'route'>): string {
	return routeKeyOf(result.route);
}

/** The same, from the route's parts (a planned task's, or the dashboard's view of one). */
export function routeKeyOf(route: {name: string | null; kind: string; model: string | null}): string {
	return route.name ?? (route.kind === 'explicit' ? `(explicit ${route.model ?? ''})` : '(parent)');
}

/**
 * The batch's tokens and each route's ("(parent)" for tasks on the parent's model), and how many
 * attempts that ran are not in them (unknown); undefined when Hermes reported none.
 */
export function tokenTotals(results: readonly TaskResult[]): BatchReport['tokens'] {
	// Every attempt was paid for: an attempt re-routed with R counts on the route it ran on.
	const attempts = results.flatMap(result => [...(result.earlier_attempts ?? []), result]);
	const withTokens = attempts.filter(result => result.tokens !== null);
	if (withTokens.length === 0) {
		return undefined;
	}

	// An attempt that ran but whose tokens Hermes did not know (interrupted, failed, no result
	// event) spent something all the same: the sums below are then a lower bound, and say so.
	const unknown = attempts.filter(result => result.tokens === null && result.started_at !== null).length;

	const zero = (): TokenCounts => ({input: 0, output: 0, total: 0, cache_read: 0, cache_write: 0});
	const add = (sum: TokenCounts, tokens: TokenCounts) => {
		for (const key of ['input', 'output', 'total', 'cache_read', 'cache_write'] as const) {
			sum[key] += tokens[key];
		}
	};

	const total = zero();
	const byRoute: Record<string, TokenCounts> = {};
	for (const result of withTokens) {
		add(total, result.tokens!);
		add(byRoute[routeKey(result)] ??= zero(), result.tokens!);
	}

	return {total, by_route: byRoute, unknown_attempts: unknown};
}
