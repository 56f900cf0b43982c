// Re-planning a batch that is already running: the whole batch is planned again on the new
// routing (pure, planBatch), and only tasks that have not started take the new plan. Warnings
// are those of the plan as it now stands: a profile shared between a running task and a
// re-planned queued one is still shared.
import {isDeepStrictEqual} from 'node:util';
import {activeRoutes, planBatch, sharedProfileWarnings, type PlanInput} from './routing.js';
import {maxOneLineLength} from '../input/tasks.js';
import {isActive, type DelegationConfig, type OperatorRoute, type PlannedTask, type RetryTarget, type RoutePlan, type TaskSpec, type TaskStatus} from '../types.js';

export type ReplanInput = {
	current: RoutePlan;
	delegation: DelegationConfig;
	settings: PlanInput['settings'];
	capabilities: PlanInput['capabilities'];
	/** Warnings from outside the plan (the config's, the open-files limit's): kept as they are. */
	outsideWarnings: readonly string[];
	status(id: string): TaskStatus;
	/** Whether the task may still take a new plan (queued, or refused before it started). */
	unstarted(id: string): boolean;
};

export type Replanned = {
	plan: RoutePlan;
	/** The new plans of unstarted tasks whose route, reason or launch changed. */
	changed: PlannedTask[];
};

export function replanBatch(input: ReplanInput): Replanned {
	const {current} = input;
	const planned = planBatch({tasks: current.tasks.map(task => planningSpec(task, input.delegation)), delegation: input.delegation, settings: input.settings, capabilities: input.capabilities});
	const fresh = withOperatorRoutes(current.tasks, input.delegation, planned.tasks);
	const changed = fresh.filter((task, position) => input.unstarted(task.id) && !samePlan(task, current.tasks[position]!));
	const byId = new Map(changed.map(task => [task.id, task]));
	const tasks = current.tasks.map(task => byId.get(task.id) ?? task);
	// planBatch's shared-profile warnings looked only at the new plans; the ones that count are
	// those of the tasks that hold or will hold a process, on the routes they really have.
	const freshShared = new Set(sharedProfileWarnings(fresh));
	const live = tasks.filter(task => isActive(input.status(task.id)) || byId.has(task.id));
	const warnings = [...new Set([...input.outsideWarnings, ...planned.warnings.filter(warning => !freshShared.has(warning)), ...sharedProfileWarnings(live)])];
	return {plan: {mode: input.delegation.mode, tasks, warnings}, changed};
}

function samePlan(a: PlannedTask, b: PlannedTask): boolean {
	return isDeepStrictEqual({decision: a.decision, effective: a.effective, launch: a.launch, warnings: a.warnings}, {decision: b.decision, effective: b.effective, launch: b.launch, warnings: b.warnings});
}

/** Whether the operator's route still applies: the route is one of the active mode's (an explicit model always is). */
function choiceHolds(choice: OperatorRoute, delegation: DelegationConfig): boolean {
	const {target} = choice;
	return 'model' in target || (target.mode === delegation.mode && activeRoutes(delegation).some(route => route.name === target.route));
}

/**
 * The spec a task is planned from: the task file's, with the operator's re-route (R) in the place
 * of its route or model while that choice holds. Otherwise the task file's own fields decide, so
 * a mode switch or a removed route never turns the operator's choice into a refusal that blames
 * the task file (\`task.option "deep"\` for a task that named no option).
 */
export function planningSpec(task: Pick<PlannedTask, 'spec' | 'rerouted'>, delegation: DelegationConfig): TaskSpec {
	const {spec, rerouted} = task;
	if (!rerouted || !choiceHolds(rerouted, delegation)) {
		return spec;
	}

	const {target} = rerouted;
	// An explicit model keeps only the profile the task is on under profile routes: a route name of
	// another mode would refuse it, and under model_map the model wins over any route anyway.
	return 'model' in target
		? {...spec, model: target.model, provider: target.provider, option: undefined, profile: delegation.mode === 'profile_routes' ? spec.profile : undefined}
		: {...spec, model: undefined, provider: undefined, option: target.mode === 'model_map' ? target.route : undefined, profile: target.mode === 'profile_routes' ? target.route : undefined};
}

/** planBatch's plans given back their task-file spec and the operator's choice, with its reason where it holds. */
function withOperatorRoutes(current: readonly PlannedTask[], delegation: DelegationConfig, planned: readonly PlannedTask[]): PlannedTask[] {
	return planned.map((task, position) => {
		const {spec, rerouted} = current[position]!;
		if (!rerouted) {
			return task;
		}

		const {target} = rerouted;
		const reason = !choiceHolds(rerouted, delegation) && 'route' in target
			? `${task.decision.reason} (the operator's re-route to "${target.route}" is not a route of ${delegation.mode}: the task file decides)`
			: task.decision.refused ? task.decision.reason : rerouted.reason;
		return {...task, spec, rerouted, decision: {...task.decision, reason}};
	});
}

export type RetryInput = {
	plan: RoutePlan;
	task: PlannedTask;
	status: TaskStatus;
	/** The task's attempt so far (1 until it is re-routed after ending). */
	attempt: number;
	delegation: DelegationConfig;
	target: RetryTarget;
	settings: PlanInput['settings'];
	capabilities: PlanInput['capabilities'];
};

/**
 * What R may send (back) into the queue: a task that holds no process. A queued one changes route;
 * one that ran runs again as its next attempt, a succeeded one included (its answer may be wrong,
 * or wanted from another model). A refused one never ran: a route change (m, r) re-plans it.
 */
const retryable: ReadonlySet<TaskStatus> = new Set(['queued', 'failed', 'cancelled', 'timed_out', 'lost', 'succeeded']);

/** The statuses R acts on, as the refusal and the help say them. */
export const retryableWords = 'a queued task, or one that ran and ended (succeeded, failed, cancelled, timed out or lost)';

/** Whether R can send a task in this status (back) into the queue: it must hold no process. */
export function isRetryable(status: string): boolean {
	return retryable.has(status as TaskStatus);
}

/**
 * The plan of a task the operator sends to a route of the active mode (R): named as a task names
 * a route (an explicit model of the task no longer wins), or run on an explicit model with the
 * precedence of a task file's `model` (under profile routes it still runs as its profile, the
 * model on top); or why it cannot be.
 */
export function planRetry(input: RetryInput): {ok: true; task: PlannedTask; attempt: number} | {ok: false; reason: string} {
	const {task, status, delegation, target} = input;
	if (!retryable.has(status)) {
		return {ok: false, reason: `${task.id} is ${status.replace('_', ' ')}: only ${retryableWords} can be re-routed`};
	}

	const explicit = typeof target === 'string' ? undefined : target.model.trim();
	const provider = typeof target === 'string' ? undefined : target.provider?.trim() || undefined;
	const refusal = explicit === undefined ? (delegation.mode === 'default' ? 'the built-in mode has no routes to choose from' : undefined) : explicitModelRefusal(explicit) ?? explicitProviderRefusal(provider ?? '');
	if (refusal !== undefined) {
		return {ok: false, reason: refusal};
	}

	const routeName = typeof target === 'string' ? target : undefined;
	const routes = activeRoutes(delegation);
	if (routeName !== undefined && !routes.some(route => route.name === routeName)) {
		// The operator's choice, not a task-file field: said as such, with the routes there are.
		return {ok: false, reason: `route "${routeName}" is not in ${delegation.mode} (routes: ${routes.map(route => route.name).join(', ')})`};
	}

	const choice: OperatorRoute['target'] = explicit === undefined ? {mode: delegation.mode, route: routeName!} : {model: explicit, provider};
	const respec = planningSpec({spec: task.spec, rerouted: {target: choice, reason: ''}}, delegation);
	const specs = input.plan.tasks.map(planned => (planned.id === task.id ? respec : planningSpec(planned, delegation)));
	const planned = planBatch({tasks: specs, delegation, settings: input.settings, capabilities: input.capabilities, indexes: [task.index]}).tasks[0]!;
	if (planned.decision.refused) {
		return {ok: false, reason: planned.decision.reason};
	}

	// A queued task only changes route; one that ended runs again as its next attempt.
	const attempt = status === 'queued' ? input.attempt : input.attempt + 1;
	const attemptNote = attempt > 1 ? ` (attempt ${attempt})` : '';
	const reason = explicit === undefined
		? `re-routed to "${planned.decision.route?.name ?? routeName}" by the operator${attemptNote}`
		: `${planned.decision.reason.replace(' (task.model)', '')}, set by the operator${attemptNote}`;
	return {ok: true, task: {...planned, spec: task.spec, rerouted: {target: choice, reason}, decision: {...planned.decision, reason}}, attempt};
}

/** Why a typed model name cannot be a task's `model` (the rules of a task file), or undefined. */
export function explicitModelRefusal(model: string): string | undefined {
	const trimmed = model.trim();
	return trimmed === '' ? 'a model name must not be empty'
		: trimmed.includes('\0') ? 'a model name cannot contain a NUL character (\\u0000): no command-line argument can carry it'
			: trimmed.length > maxOneLineLength ? `a model name is at most ${maxOneLineLength} characters` : undefined;
}

/** Why a typed provider cannot go with an explicit model (a task file's `provider`), or undefined; empty is none. */
export function explicitProviderRefusal(provider: string): string | undefined {
	const trimmed = provider.trim();
	return trimmed.includes('\0') ? 'a provider name cannot contain a NUL character (\\u0000): no command-line argument can carry it'
		: trimmed.length > maxOneLineLength ? `a provider name is at most ${maxOneLineLength} characters` : undefined;
}
