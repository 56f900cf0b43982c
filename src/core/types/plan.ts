// A batch's tasks as the operator wrote them, and the plan made from them before anything starts:
// each task's route, why it got it, and how it is launched.
import type {Route, RoutingMode} from './routes.js';

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
