// The vocabulary of hermes-delegate, defined once. Core, state and UI all speak these types.

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
};

export type RoutingMode = 'model_map' | 'profile_routes' | 'default';

export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
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
};

export type Route = ModelRoute | ProfileRoute;

/** The `delegation:` section of Hermes's config.yaml, validated. Each mode keeps its own settings. */
export type DelegationConfig = {
	mode: RoutingMode;
	modelMap: {options: ModelRoute[]; default?: string | undefined};
	profileRoutes: {profiles: ProfileRoute[]; default?: string | undefined};
	/** Where it came from, for error messages and for later saving. */
	source: {path: string; exists: boolean};
};

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
	/** Non-fatal notes about this task's route (e.g. a field with no CLI flag). */
	warnings: string[];
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
	| 'refused';

export const finalStatuses: ReadonlySet<TaskStatus> = new Set([
	'succeeded',
	'failed',
	'cancelled',
	'timed_out',
	'refused',
]);

/** Statuses of a task that still holds (or may still start) a process. */
export const activeStatuses: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'cancelling']);

export function isActive(status: TaskStatus): boolean {
	return activeStatuses.has(status);
}

export function isFinal(status: TaskStatus): boolean {
	return finalStatuses.has(status);
}

/** Why a cascade was started; decides the final status (cancelled vs timed_out). */
export type StopReason = 'cancel' | 'timeout' | 'fail-fast' | 'shutdown';

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
	| {type: 'task.started'; id: string; pid: number; argv: string[]; at: number}
	| {type: 'task.cancelling'; id: string; cancelling: CancellingInfo; at: number}
	| {type: 'task.killed'; id: string; at: number}
	| {type: 'task.finished'; id: string; result: TaskResult; at: number}
	| {type: 'batch.finished'; report: BatchReport; at: number};

export type ResultRoute = {
	name: string | null;
	kind: 'model' | 'profile' | 'parent' | 'explicit';
	provider: string | null;
	model: string | null;
	reasoning_effort: string | null;
	service_tier: string | null;
	profile: string | null;
	refused: boolean;
	reason: string;
};

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
	result: string;
	result_truncated?: boolean;
	error?: string;
	/** Route fields that could not be passed to `hermes chat`, and similar notes; absent when none. */
	warnings?: string[];
	log: string | null;
};

export type BatchReport = {
	summary: string;
	run_id: string;
	run_dir: string;
	results_file: string;
	mode: RoutingMode;
	interrupted: boolean;
	warnings: string[];
	results: TaskResult[];
};
