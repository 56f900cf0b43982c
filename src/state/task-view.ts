// What a pane shows about one task. Plain data, derived from the plan and then the events.
import type {CancellingInfo, PlannedTask, Spend, TaskResult, TaskStatus, TaskTelemetry} from '../core/types.js';
import {terminalSafe} from '../core/output/visible-text.js';
import type {AttemptSpend} from '../core/run/spend-sum.js';

export type TaskView = {
	id: string;
	index: number;
	title: string;
	goal: string;
	status: TaskStatus;
	routeName: string | null;
	routeKind: 'model' | 'profile' | 'explicit' | 'parent';
	model: string | null;
	provider: string | null;
	reasoningEffort: string | null;
	profile: string | null;
	/** Under a profile route, the model that profile's config.yaml names (null: none, or another route). */
	profileModel: string | null;
	reason: string;
	pid: number | null;
	startedAt: number | null;
	finishedAt: number | null;
	exitCode: number | null;
	signal: string | null;
	/** Why it ended badly in its own words (the result's error, how it was stopped) or why it was refused; null: none. */
	errorLine: string | null;
	/** The newest stderr line that matters, as its pane was last pushed: a failure without an error of its own shows it (failureLine). */
	stderrLine: string | null;
	/**
	 * The finished attempt's answer as the runner sent it, for `y` (copy); null until it has one. Made
	 * terminal-safe when copied (copy.ts), not here: it can be long, and most are never copied.
	 */
	answer: string | null;
	/** The stop under way, as the runner announced it (task.cancelling); null while `cancelling` is only this dashboard's y, not yet confirmed (intents.ts stopAsked). */
	cancelling: CancellingInfo | null;
	/** What Hermes reported (model used, tokens, tool calls); null until it says anything. */
	telemetry: TaskTelemetry | null;
	/** This attempt's spend as its session row last stood (task.spend while it runs, then the result's); null until read. */
	spend: Spend | null;
	/** When (epoch ms, the runner's clock) the newest task.spend of this attempt was read; null: none yet. The burn rate spreads a running attempt's spend up to here. */
	spendAt: number | null;
	/** What a queued task waits for (task.waiting); null: only its turn. */
	waitingFor: string | null;
	/** Since when (epoch ms) a running task showed neither output nor tool activity, once the runner called it stuck (task.stuck); null otherwise. */
	stuckSince: number | null;
	/** Hermes's session, once known: the zoom shows how to continue it. */
	sessionId: string | null;
	tail: string[];
	totalLines: number;
	outputVersion: number;
	/** 1, then one more each time the operator re-routes the task after it ended (R). */
	attempt: number;
	/** Tokens the earlier attempts spent (they count in the batch's total). */
	earlierTokens: number;
	/** The spend of this task's earlier attempts that started (kept at re-route: they count in the batch's spend). */
	earlierAttempts: TimedAttemptSpend[];
	/** When (epoch ms) the store last saw this attempt's tool calls grow (spend or telemetry); null: none yet. */
	lastToolAt: number | null;
	/** When (epoch ms, the runner's clock: from the output snapshot, never this store's) the task last printed; null: not yet. */
	lastOutputAt: number | null;
	/** The worker host this attempt runs or ran on (tasks on worker hosts); null: here, or not started. */
	host: string | null;
};

/** An attempt's spend with when it ran (epoch ms): `until` is its end, or for a running one when its spend was read (null: not yet). */
export type TimedAttemptSpend = AttemptSpend & {startedAt: number; until: number | null};

// Every text below comes from a task file or a config: sanitised once, here, as subagent output is.
export function taskViewFromPlan(task: PlannedTask): TaskView {
	const {decision, effective} = task;
	return {
		id: task.id,
		index: task.index,
		title: terminalSafe(task.spec.name ?? task.spec.goal),
		goal: terminalSafe(task.spec.goal),
		status: decision.refused ? 'refused' : 'queued',
		routeName: safeOrNull(decision.route?.name),
		routeKind: decision.route?.kind ?? (decision.modelOverride ? 'explicit' : 'parent'),
		model: safeOrNull(effective.model),
		provider: safeOrNull(effective.provider),
		reasoningEffort: safeOrNull(effective.reasoning_effort),
		profile: safeOrNull(effective.profile),
		profileModel: safeOrNull(decision.route?.kind === 'profile' ? decision.route.configured_model : undefined),
		reason: terminalSafe(decision.reason),
		pid: null,
		startedAt: null,
		finishedAt: null,
		exitCode: null,
		signal: null,
		errorLine: decision.refused ? terminalSafe(decision.reason) : null,
		stderrLine: null,
		cancelling: null,
		telemetry: null,
		spend: null,
		spendAt: null,
		waitingFor: null,
		stuckSince: null,
		sessionId: null,
		tail: [],
		totalLines: 0,
		outputVersion: -1,
		attempt: 1,
		earlierTokens: 0,
		earlierAttempts: [],
		lastToolAt: null,
		lastOutputAt: null,
		host: null,
		answer: null,
	};
}

/**
 * A task that had not started, re-planned: the new route and reason; a queued task refused by
 * its new plan shows why, a refused one given a route is queued again. Only unstarted tasks are
 * re-planned, so a running pane never changes here.
 */
export function replannedPatch(task: PlannedTask, current: TaskView): Partial<TaskView> {
	const fresh = taskViewFromPlan(task);
	const route = {routeName: fresh.routeName, routeKind: fresh.routeKind, model: fresh.model, provider: fresh.provider, reasoningEffort: fresh.reasoningEffort, profile: fresh.profile, profileModel: fresh.profileModel, reason: fresh.reason};
	if (current.status !== 'queued' && current.status !== 'refused') {
		return route;
	}

	return {...route, status: fresh.status, errorLine: fresh.errorLine, finishedAt: null, exitCode: null};
}

/**
 * A finished task: its final status, and the line that says why when it did not succeed. `cancelling`
 * is the task's kill cascade as the view last saw it (the patch clears it), `graceMs` the batch's grace.
 */
export function finishedPatch(result: TaskResult, cancelling: CancellingInfo | null, graceMs: number): Partial<TaskView> {
	return {
		status: result.status,
		exitCode: result.exit_code,
		signal: result.signal,
		finishedAt: result.finished_at ? Date.parse(result.finished_at) : Date.now(),
		startedAt: result.started_at ? Date.parse(result.started_at) : null,
		// Hermes's own message (-Q prints it on stdout, stream-json in its result event); the last
		// stderr line is only the fallback (failureLine), as with -Q it is the session id.
		errorLine: safeOrNull(result.status === 'failed' ? firstLine(result.error) ?? null : stopDetail(result, cancelling, graceMs)),
		cancelling: null,
		waitingFor: null,
		stuckSince: null,
		sessionId: safeOrNull(result.session_id),
		answer: result.answer === '' ? null : result.answer,
		...(result.host === undefined ? {} : {host: terminalSafe(result.host)}),
		...(hasTelemetry(result) ? {telemetry: telemetryOf(result)} : {}),
		...(result.spend === undefined ? {} : {spend: result.spend}),
	};
}

/**
 * The line a finished task shows under its status: its own (errorLine), or for a failure without
 * one the newest stderr line that matters, whenever its last output arrives (the host pushes the
 * output at its pace, the finish at once: either may come first).
 */
export function failureLine(task: Pick<TaskView, 'status' | 'errorLine' | 'stderrLine'>): string | null {
	return task.errorLine ?? (task.status === 'failed' ? task.stderrLine : null);
}

function hasTelemetry(result: TaskResult): boolean {
	return result.tokens !== null || result.model_used !== null || result.tool_calls.length > 0;
}

/** The final word on what Hermes reported, from the result (the live events may have missed the end). */
function telemetryOf(result: TaskResult): TaskTelemetry {
	return {model_used: result.model_used, session_id: result.session_id, tokens: result.tokens, cost_usd: null, tool_calls: result.tool_calls.length};
}

function safeOrNull(text: string | null | undefined): string | null {
	return text === null || text === undefined ? null : terminalSafe(text);
}

function firstLine(text: string | undefined): string | undefined {
	return text?.split('\n').findLast(line => line.trim() !== '');
}

/** How a stopped task ended: what the operator needs to know is whether SIGTERM was enough. */
function stopDetail(result: TaskResult, cancelling: CancellingInfo | null, graceMs: number): string | null {
	if (result.status !== 'cancelled' && result.status !== 'timed_out') {
		return null;
	}

	if (result.started_at === null) {
		return 'cancelled before it started';
	}

	if (result.signal === 'SIGKILL') {
		if (!cancelling) {
			return 'killed with SIGKILL';
		}

		// K (kill now) sets the deadline to the moment it was pressed: the process never had its
		// grace period, so it cannot be said to have ignored SIGTERM.
		return cancelling.killDueAt - cancelling.termSentAt < graceMs
			? 'killed with SIGKILL (grace period skipped)'
			: 'ignored SIGTERM: killed with SIGKILL after the grace period';
	}

	// Hermes answers SIGTERM with a KeyboardInterrupt and dies by SIGINT a moment later: say when,
	// which is what tells the operator the grace period was enough.
	if (result.signal || result.exit_code !== null) {
		const after = cancelling && result.finished_at ? ` ${Math.max(0, (Date.parse(result.finished_at) - cancelling.termSentAt) / 1000).toFixed(1)} s` : '';
		return `ended${after} after SIGTERM (${result.signal ? `by ${result.signal}` : `exit ${result.exit_code}`})`;
	}

	return result.exit_code === null ? 'stopped' : `exited ${result.exit_code} after SIGTERM`;
}
