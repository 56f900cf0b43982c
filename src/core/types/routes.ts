// The routes of config.yaml's `delegation:` section as hermes-delegate reads them, the edits the
// routes editor and `config route` ask of them, and delegate.yaml's own settings.
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

/** What R sends a task (back) into the queue on: a route of the active mode (by name), or an explicit model (and provider). */
export type RetryTarget = string | {model: string; provider?: string | undefined};

/** What a route edit, a mode switch or a re-read of config.yaml came to. */
export type SteerOutcome =
	| {ok: true; delegation: DelegationConfig; replanned: string[]; message: string}
	/** conflict: the file changed on disk in a way that stopped the save (or cannot be read): re-read it. */
	| {ok: false; message: string; conflict?: boolean};

/** hermes-delegate's own settings ($HERMES_HOME/delegate.yaml), never mixed into Hermes's file. */

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
	/** concurrency_per_provider: provider → most attempts on it at once. */
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
