// The vocabulary of hermes-delegate, defined once. Core, state and UI all speak these types.
// Longer than ~300 lines on purpose: it is one idea, the words of the domain (task, route, plan,
// status, event, result, what Hermes can do), each defined in terms of the others above it. Split
// by noun, every layer would import from several files to say one thing; here a reader looks a
// word up in one place.

/** One task of a batch, as the operator wrote it (validated at the edge by tasks.ts). */
export type TaskSpec = {
	goal: string;
	context?: string | undefined;
	name?: string | undefined;
	characteristic?: string | undefined;
	/** A model route name from `model_map`. */
	option?: string | undefined;
	/** A profile route name from `profile_routes`. */
	profile?: string | undefined;
	/** Explicit model override: wins over every route. */
	model?: string | undefined;
	provider?: string | undefined;
	/** Seconds; the task's own timeout, overriding the batch timeout. */
	timeout?: number | undefined;
	/** `hermes chat -t`: the toolsets to enable, passed comma-joined. */
	toolsets?: string[] | undefined;
	/** `hermes chat -s`: skills to preload. */
	skills?: string[] | undefined;
	/** `hermes chat --max-turns`: tool-calling iterations per turn. */
	max_turns?: number | undefined;
	/** `hermes chat -w`: the task works in a git worktree of its own (parallel coding tasks on one repository). */
	worktree?: boolean | undefined;
};

/** delegation.backend in config.yaml. */
export const routingModes = ['model_map', 'profile_routes', 'default'] as const;
export type RoutingMode = (typeof routingModes)[number];

/** What the routes editor, `config route` and the store's port ask config.yaml to change. */
export type RouteList = 'model_map' | 'profile_routes';
export type RouteField = 'description' | 'model' | 'provider' | 'reasoning_effort';

/**
 * The keys of a model route that may be left out (Hermes's own setting then applies): never its
 * name, description or model. Leaving out provider is refused on save when no base_url is left.
 */
export const clearableFields = ['provider', 'base_url', 'reasoning_effort', 'service_tier', 'fallback_providers', 'api_key', 'api_mode'] as const;
export type ClearableField = typeof clearableFields[number];

export type NewModelRoute = {name: string; description: string; model: string; provider: string; reasoning_effort?: string | undefined};
export type NewProfileRoute = {name: string; description: string};

export type RouteEdit =
	| {kind: 'set-mode'; mode: RoutingMode}
	| {kind: 'set-field'; list: RouteList; name: string; field: RouteField; value: string}
	| {kind: 'clear-field'; list: RouteList; name: string; field: ClearableField}
	| {kind: 'set-default'; list: RouteList; name: string}
	| {kind: 'add-route'; list: 'model_map'; route: NewModelRoute}
	| {kind: 'add-route'; list: 'profile_routes'; route: NewProfileRoute}
	| {kind: 'remove-route'; list: RouteList; name: string};

// The levels Hermes's `--reasoning` and `agent.reasoning_effort` accept (hermes chat --help, 0.20.0).
export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

export type ModelRoute = {
	kind: 'model';
	name: string;
	description: string;
	model: string;
	provider?: string | undefined;
	base_url?: string | undefined;
	reasoning_effort?: ReasoningEffort | undefined;
	service_tier?: string | undefined;
	fallback_providers?: string[] | undefined;
	/** Plain-text secret from config.yaml: never printed, only its presence is reported. */
	api_key?: string | undefined;
	api_mode?: string | undefined;
};

export type ProfileRoute = {
	kind: 'profile';
	name: string;
	description: string;
	/**
	 * The model the profile's own config.yaml names (`model.default`, or `model` as a string), read
	 * when the config is loaded: what Hermes runs the task on unless the task names a model. Shown,
	 * never passed (Hermes reads it itself); absent when the profile's config names none.
	 */
	configured_model?: string | undefined;
};

export type Route = ModelRoute | ProfileRoute;

/**
 * Hermes's own flat keys under `delegation:` (read by its built-in delegate_task), as opposed to
 * `backend`/`backends`, which belong to the advanced-delegation plugin. They make the built-in
 * mode's route: subagents on `model` (and provider/base_url/effort) instead of the parent's model.
 */
export type BuiltinDelegation = {
	model?: string | undefined;
	provider?: string | undefined;
	base_url?: string | undefined;
	/** Plain-text secret: never printed. */
	api_key?: string | undefined;
	api_mode?: string | undefined;
	reasoning_effort?: ReasoningEffort | undefined;
	/** Passed as `--max-turns` to each subagent. */
	max_iterations?: number | undefined;
	/** The default concurrency when delegate.yaml sets none. */
	max_concurrent_children?: number | undefined;
};

/** The `delegation:` section of Hermes's config.yaml, validated. Each mode keeps its own settings. */
export type DelegationConfig = {
	mode: RoutingMode;
	/** Hermes's own flat delegation keys: the built-in mode's route. */
	builtin: BuiltinDelegation;
	modelMap: {options: ModelRoute[]; default?: string | undefined};
	profileRoutes: {profiles: ProfileRoute[]; default?: string | undefined};
	/** Where it came from, for error messages and for later saving. */
	source: {path: string; exists: boolean};
};

/** hermes-delegate's own settings ($HERMES_HOME/delegate.yaml), never mixed into Hermes's file. */
/** What R sends a task (back) into the queue on: a route of the active mode (by name), or an explicit model (and provider). */
export type RetryTarget = string | {model: string; provider?: string | undefined};

/** What a route edit, a mode switch or a re-read of config.yaml came to. */
export type SteerOutcome =
	| {ok: true; delegation: DelegationConfig; replanned: string[]; message: string}
	/** conflict: the file changed on disk in a way that stopped the save (or cannot be read): re-read it. */
	| {ok: false; message: string; conflict?: boolean};

export type DelegateSettings = {
	concurrency: number;
	graceSeconds: number;
	/** characteristic → route name, consulted before description matching. */
	characteristics: Record<string, string>;
	/** characteristic → words in a goal that imply it. */
	characteristicWords: Record<string, string[]>;
	theme?: string | undefined;
	/** command → key list overrides for the dashboard's binding table. */
	keys: Record<string, string[]>;
	/** delegate.yaml `mouse`: false leaves the mouse to the terminal (default: the dashboard reads it). */
	mouse?: boolean | undefined;
	/** Most bytes one task's log keeps (its first and last half); 0 = no limit. */
	logLimitBytes: number;
	/**
	 * `executor: {nats: URL}`: `run` and `tui` send the tasks to worker hosts through that NATS server
	 * (as --nats), with its credentials or TLS files (as --nats-creds, --nats-tls-*), and end a task
	 * no live worker can run after worker_wait seconds.
	 */
	executor?: {nats: string; creds?: string | undefined; tls_ca?: string | undefined; tls_cert?: string | undefined; tls_key?: string | undefined; worker_wait?: number | undefined} | undefined;
	/** concurrency_per_provider: provider → most attempts on it at once (issue 25). */
	concurrencyPerProvider?: Record<string, number> | undefined;
	/** budgets: route name → its budget in USD and/or tokens. */
	routeBudgets?: Record<string, {usd?: number | undefined; tokens?: number | undefined}> | undefined;
	/** budget_action: what a reached budget does to its scope's running tasks (default stop: nothing). */
	budgetAction?: 'stop' | 'cancel' | undefined;
	/** stuck_after in ms: quiet this long (no output, no tool activity) is "stuck?" (default 5 min). */
	stuckAfterMs?: number | undefined;
	/** mcp.max_tasks: most tasks one MCP `delegate` call may start (default 100). */
	mcpMaxTasks?: number | undefined;
};

/** Why a task got the route it got: always recorded, shown in the dashboard and results. */
export type RouteDecision = {
	/** null: the parent's own model (no -m / -p). */
	route: Route | null;
	/** Explicit task model/provider, which win over the route's. */
	modelOverride?: {model: string; provider?: string | undefined} | undefined;
	refused: boolean;
	reason: string;
};

export type PlannedTask = {
	/** Position in the input; results keep this order. */
	index: number;
	/** Stable id used in events, logs and the store: `t01`, `t02`, ... */
	id: string;
	spec: TaskSpec;
	characteristic?: {value: string; inferred: boolean; from?: string | undefined} | undefined;
	decision: RouteDecision;
	/** Effective model/provider/effort after precedence, for display and results. */
	effective: {
		model: string | null;
		provider: string | null;
		reasoning_effort: string | null;
		service_tier: string | null;
		profile: string | null;
	};
	/** How it is launched, beyond the route (decided against the installed Hermes's flags). */
	launch: {
		/** --max-turns: the task's max_turns, else Hermes's delegation.max_iterations in the built-in mode. */
		max_turns: number | null;
		/** The prompt is too long for one argument and goes through --query-file. */
		prompt_file: boolean;
		/** A base_url route's endpoint, passed in the child's environment (hermes/flags.ts baseUrlTarget). */
		base_url: string | null;
	};
	/** Non-fatal notes about this task's route (e.g. a field with no CLI flag). */
	warnings: string[];
	/**
	 * The operator sent the task to this route or model (R). Not a task-file field: `spec` stays as
	 * the task file has it, and a route chosen here holds only while it is a route of the mode it
	 * was chosen in; elsewhere the task file decides again (replan.ts).
	 */
	rerouted?: OperatorRoute | undefined;
};

export type OperatorRoute = {
	/** A route of `mode` by name, or an explicit model (and provider). */
	target: {mode: RoutingMode; route: string} | {model: string; provider?: string | undefined};
	/** The decision's reason while the choice holds ("re-routed to "deep" by the operator (attempt 2)"). */
	reason: string;
};

/** A plan for the whole batch, made before anything starts. Pure data; recomputable for a subset. */
export type RoutePlan = {
	mode: RoutingMode;
	tasks: PlannedTask[];
	/** Batch-level warnings (plain-text api_key, profile shared by two tasks, ...). */
	warnings: string[];
};

export type TaskStatus =
	| 'queued'
	| 'running'
	| 'cancelling'
	| 'succeeded'
	| 'failed'
	| 'cancelled'
	| 'timed_out'
	| 'refused'
	/**
	 * Ran on a worker host that stopped heartbeating mid-attempt (distributed runs): what became of
	 * it is unknown, and it is never re-run by itself, since the agent may have had side effects.
	 */
	| 'lost';

export const finalStatuses: ReadonlySet<TaskStatus> = new Set([
	'succeeded',
	'failed',
	'cancelled',
	'timed_out',
	'refused',
	'lost',
]);

/** Statuses of a task that still holds (or may still start) a process. */
export const activeStatuses: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'cancelling']);

export function isActive(status: TaskStatus): boolean {
	return activeStatuses.has(status);
}

export function isFinal(status: TaskStatus): boolean {
	return finalStatuses.has(status);
}

/**
 * Why a cascade was started; decides the final status (cancelled vs timed_out). `budget`: a
 * reached budget with budget_action cancel (cancelled); `stuck`: quiet for --stuck-timeout (timed_out).
 */
export const stopReasons = ['cancel', 'timeout', 'fail-fast', 'shutdown', 'budget', 'stuck'] as const;
export type StopReason = (typeof stopReasons)[number];

/** The kill cascade's visible progress, so the dashboard can count down. */
export type CancellingInfo = {
	reason: StopReason;
	/** epoch ms when SIGTERM went to the group. */
	termSentAt: number;
	/** epoch ms when SIGKILL is due (== termSentAt when the grace period was skipped). */
	killDueAt: number;
	killSent: boolean;
};

/** Everything the runner announces. `run --jsonl` prints these; the store is fed by them. */
export type BatchEvent =
	| {type: 'batch.planned'; runId: string; runDir: string; plan: RoutePlan; at: number}
	/** The routing changed during the run: tasks that had not started took new plans (only those whose plan changed are listed); the batch's warnings and every task's, as they now stand. */
	| {type: 'batch.replanned'; mode: RoutingMode; tasks: Array<{id: string; plan: PlannedTask}>; warnings: string[]; at: number}
	/** The operator sent the task to another route (retryTask): queued again, as attempt `attempt`. */
	| {type: 'task.requeued'; id: string; attempt: number; plan: PlannedTask; at: number}
	/** host: the worker host it runs on (tasks on worker hosts); pid is a pid there. */
	| {type: 'task.started'; id: string; pid: number; argv: string[]; host?: string | undefined; at: number}
	| {type: 'task.cancelling'; id: string; cancelling: CancellingInfo; at: number}
	| {type: 'task.killed'; id: string; at: number}
	| {type: 'task.telemetry'; id: string; telemetry: TaskTelemetry; at: number}
	/**
	 * What the running attempt has spent so far, as its session row in state.db now stands (issue
	 * 25): a whole snapshot, so the newest replaces the ones before. Sent while the attempt runs,
	 * when the row changes; the final figure is the result's `spend` (task.finished).
	 */
	| {type: 'task.spend'; id: string; attempt: number; spend: Spend; at: number}
	/**
	 * What a queued task waits for, each time that changes (issue 25): a free slot of the batch,
	 * its provider's slots (concurrency_per_provider), ... as a sentence for the pane; null when
	 * it waits for nothing but its turn. Refusals for a reached budget are task.finished (refused).
	 */
	| {type: 'task.waiting'; id: string; waitingFor: string | null; at: number}
	/**
	 * A running attempt had neither output nor tool activity for stuck_after (stuck: true), or
	 * showed some again (stuck: false). Nothing is killed for it unless --stuck-timeout says so.
	 */
	| {type: 'task.stuck'; id: string; attempt: number; stuck: boolean; quietSince: number; at: number}
	/** A budget's standing changed: 80 % reached (warning), or the budget reached (no further task of its scope starts). */
	| {type: 'batch.budget'; budget: BudgetStanding; at: number}
	/** Tasks on worker hosts: the fleet changed (a worker's free slots, one lost or back, the runner host's own NATS connection). A whole snapshot. */
	| {type: 'batch.fleet'; fleet: FleetStanding; at: number}
	| {type: 'task.finished'; id: string; result: TaskResult; at: number}
	/**
	 * Every task has ended and results.json is written. In the dashboard a retry after that re-opens
	 * the batch (batch.reopened), and it is announced again, with the new report, when that ends:
	 * the last batch.finished is the batch's report. `run` ends at the first, so it says it once.
	 */
	| {type: 'batch.finished'; report: BatchReport; at: number}
	/** A retry (R) after batch.finished: the batch runs again; task.requeued follows, and batch.finished again at the end. */
	| {type: 'batch.reopened'; at: number};

/** The worker hosts of a batch that runs on them, as its runner host sees them. */
export type FleetStanding = {
	/** The NATS server's URL (credentials in it are not kept here). */
	server: string;
	/** epoch ms since when the runner host has no connection to NATS (it reconnects by itself); null: connected. */
	offlineSince: number | null;
	/** The live workers: free of all slots. */
	workers: Array<{name: string; slots: number; free: number}>;
	/** Workers lost while this batch ran, until they come back: why, and when. */
	lost: Array<{name: string; why: string; at: number}>;
};

/** One budget (--budget-usd, --budget-tokens, a route's `budget` in delegate.yaml) as known spend stands against it. */
export type BudgetStanding = {
	/** `batch`, or the route's name for a per-route budget. */
	scope: {kind: 'batch'} | {kind: 'route'; route: string};
	unit: 'usd' | 'tokens';
	limit: number;
	/** Known spend of the scope: finished attempts' spend plus running attempts' live spend; unknown counts as nothing. */
	spent: number;
	level: 'warning' | 'reached';
	/** budget_action: `stop` starts no further task of the scope; `cancel` also cancels its running ones with the cascade. */
	action: 'stop' | 'cancel';
};

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

/** Token counts as Hermes reports them (stream-json `result.tokens`); a task whose counts are unknown has null, never zeros. */
export type TokenCounts = {input: number; output: number; total: number; cache_read: number; cache_write: number};

/**
 * What one session spent, as Hermes recorded it in its home's state.db (`sessions` row; docs/spend.md
 * "Spend"). null is unknown, never 0: a row Hermes has not finished (tokens and API calls are
 * written when the turn ends; an interrupted turn keeps zeros) gives null counts, and cost is null
 * where Hermes has no price (cost_status says why). tool_calls counts live, so it is known earlier.
 */
export type Spend = {
	input_tokens: number | null;
	output_tokens: number | null;
	cache_read_tokens: number | null;
	cache_write_tokens: number | null;
	reasoning_tokens: number | null;
	api_calls: number | null;
	tool_calls: number | null;
	cost_usd: number | null;
	/** Hermes's own word: `unknown` (no price for that provider), `estimated`, ...; null when no row was read. */
	cost_status: string | null;
	/** The model the session ran on. */
	model: string | null;
	billing_provider: string | null;
};

/**
 * Sums of Spend over attempts. Each number sums only the attempts where it is known (null when none
 * is); unknown_attempts counts the attempts that ran whose counts are unknown, so a sum with
 * unknown_attempts > 0 is a lower bound. unpriced_attempts: counts known but no cost.
 */
export type SpendSum = {
	input_tokens: number | null;
	output_tokens: number | null;
	cache_read_tokens: number | null;
	cache_write_tokens: number | null;
	reasoning_tokens: number | null;
	api_calls: number | null;
	tool_calls: number | null;
	cost_usd: number | null;
	attempts: number;
	unknown_attempts: number;
	unpriced_attempts: number;
};

export type SpendTotals = {total: SpendSum; by_route: Record<string, SpendSum>; by_model: Record<string, SpendSum>};

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

/** One entry of `results` in the output JSON (PRODUCT.md format, extended). */
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
	/** The answer (same as `answer`; kept under the PRODUCT.md name). */
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
	 * never started (refused, cancelled while queued). Absent only in results made before issue 25.
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

/** What the installed `hermes` can do, read from `hermes --version` and `hermes chat --help`. */
export type HermesCapabilities = {
	/** The path probed. */
	bin: string;
	/** e.g. "0.19.0"; null when `--version` named no release (`vgit.<sha>`, `vunknown`) or nothing we understand. */
	version: string | null;
	/** What `--version` printed in place of the release where that is more (`0.21.5+3160.g42d70d2.dirty`, `git.42d70d2`). */
	versionLabel?: string | undefined;
	/** false: not probed (no binary, e.g. `--dry-run` without Hermes): the oldest supported Hermes is assumed. */
	probed: boolean;
	/** Why probing failed, when it did. */
	problem?: string | undefined;
	/** The `hermes chat` flags found in its --help. */
	flags: {
		quiet: boolean;
		reasoning: boolean;
		/** `--format stream-json` (Hermes 0.20.6+). */
		streamJson: boolean;
		queryFile: boolean;
		runBudget: boolean;
		maxTurns: boolean;
		toolsets: boolean;
		skills: boolean;
		worktree: boolean;
		source: boolean;
		provider: boolean;
		/**
		 * `chat --cli`: the classic prompt even where `display.interface: tui` or HERMES_TUI=1 asks for
		 * Hermes's TUI (which, without a terminal, exits 0 having done nothing). Optional: absent
		 * (capabilities written before it was probed) means not passed.
		 */
		cli?: boolean;
	};
};
