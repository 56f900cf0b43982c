// What a batch leaves in results.json (docs/results.md): one entry per task, and the
// batch's report around them.
import type {HermesCapabilities} from './hermes.js';
import type {RoutingMode} from './routes.js';
import type {Spend, SpendTotals, TokenCounts} from './spend.js';
import type {TaskStatus} from './status.js';

export type ResultRoute = {
	name: string | null;
	kind: 'model' | 'profile' | 'parent' | 'explicit';
	/** The endpoint a base_url route was sent to, else null. */
	base_url?: string | null;
	provider: string | null;
	model: string | null;
	reasoning_effort: string | null;
	service_tier: string | null;
	profile: string | null;
	refused: boolean;
	reason: string;
};

/** One tool call of a subagent: stream-json `tool_use` paired with its `tool_result` (by tool_call_id when sent, else by name in order). */
export type ToolCallRecord = {
	name: string;
	id: string | null;
	/** The input, as compact JSON, cut to a few hundred characters. */
	input: string | null;
	duration_ms: number | null;
	/** null while the call has no result yet. */
	is_error: boolean | null;
	/**
	 * Present (true) when this call overlapped another call of the same tool and neither had a
	 * tool_call_id: results are paired in arrival order, so its duration and error may be the other's.
	 */
	ambiguous?: true;
};

/** What Hermes told us about a run beyond its text: live in the dashboard, final in the results. */
export type TaskTelemetry = {
	/** The model the session ran on (state.db's session row, read in a later issue); null until known. */
	model_used: string | null;
	/**
	 * stream-json `system/init`'s model: what was configured before start-up (ahead of -m, the
	 * profile, any fallback), possibly empty. Not the model used, and never shown as such.
	 */
	configured_model?: string | null;
	session_id: string | null;
	tokens: TokenCounts | null;
	cost_usd: number | null;
	tool_calls: number;
};

/**
 * Why a task that ran did not succeed, read from Hermes's exit code and output
 * (hermes/exit-reasons.ts): `quota_wall` exit 75, `provider_refused` exit 78, `interrupted` 130,
 * `usage` 2, `session_limit` (max_concurrent_sessions), `max_turns`, `no_answer` (exit 0 that
 * answered nothing), `killed` (a signal we did not send), `error` anything else.
 */
export const failureReasons = ['error', 'quota_wall', 'provider_refused', 'interrupted', 'usage', 'session_limit', 'max_turns', 'no_answer', 'killed'] as const;
export type FailureReason = (typeof failureReasons)[number];

/** One entry of `results` in the output JSON (docs/results.md). */
export type TaskResult = {
	id: string;
	name: string | null;
	goal: string;
	model: string | null;
	route: ResultRoute;
	status: TaskStatus;
	success: boolean;
	exit_code: number | null;
	signal: string | null;
	started_at: string | null;
	finished_at: string | null;
	duration_ms: number | null;
	/** The answer (same as `answer`; kept under the name the first format used). */
	result: string;
	result_truncated?: boolean;
	/** The exact reply: stream-json text, or `-Q` stdout; empty when the task did not succeed. */
	answer: string;
	session_id: string | null;
	hermes_version: string | null;
	tokens: TokenCounts | null;
	/** The model the session ran on, from state.db's session row (a later issue); null until then. */
	model_used: string | null;
	/** stream-json `system/init`'s model: configured before start-up, not necessarily the one used; null with -Q. */
	configured_model?: string | null;
	/** What Hermes reported the run cost, where it reports it. */
	cost_usd?: number;
	/**
	 * What this attempt spent, from its session's row in state.db, read when it ended; null when it
	 * never started (refused, cancelled while queued). Absent only in results made before spend was read.
	 */
	spend?: Spend | null;
	tool_calls: ToolCallRecord[];
	/** Hermes's own error message (or what we did, for a stop we asked for): never the session line. */
	error?: string;
	/** Why it failed, where Hermes's exit said (absent for a success and for a stop we asked for). */
	failure_reason?: FailureReason;
	/** Route fields that could not be passed to `hermes chat`, and similar notes; absent when none. */
	warnings?: string[];
	log: string | null;
	/** The worker host the attempt ran on (`run --nats`); absent for a local run. `log` is a path on that host. */
	host?: string;
	/** Present from the second attempt on (the operator re-routed the task): this attempt's number. */
	attempt?: number;
	/** The results of the earlier attempts, oldest first, each with its own log. */
	earlier_attempts?: TaskResult[];
};

export type BatchReport = {
	summary: string;
	run_id: string;
	run_dir: string;
	results_file: string;
	/** Present when results_file could not be written (full disk): the results are only in the output. */
	results_error?: string;
	mode: RoutingMode;
	interrupted: boolean;
	/** The Hermes that ran the batch, as probed. */
	hermes: {
		bin: string;
		version: string | null;
		/** `--version`'s word where it says more than the release (a source build, or no release). */
		version_label?: string;
		probed: boolean;
		problem?: string;
		/** How its output was read: stream-json events, -Q (reply verbatim), or its formatted text. */
		output: 'stream-json' | 'quiet' | 'text';
		flags: HermesCapabilities['flags'];
	};
	warnings: string[];
	/**
	 * Tokens Hermes reported (stream-json), for the batch and per route; absent when none were.
	 * unknown_attempts: attempts that ran whose tokens Hermes did not know (not in the sums, which
	 * are then a lower bound).
	 */
	tokens?: {total: TokenCounts; by_route: Record<string, TokenCounts>; unknown_attempts: number};
	/** Spend from state.db for the batch, per route and per model (every attempt that ran counts). */
	spend?: SpendTotals;
	results: TaskResult[];
};
