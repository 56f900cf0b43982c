// The routing plan: every task gets a route and a recorded reason before any process
// starts. Pure: the same inputs give the same plan, and it can be recomputed for any
// subset of tasks (`indexes`), which the live routes editor of the roadmap will need.
import {inferCharacteristic, words} from './characteristics.js';
import {routeFlags} from '../hermes/flags.js';
import type {DelegateSettings, DelegationConfig, HermesCapabilities, ModelRoute, PlannedTask, Route, RouteDecision, RoutePlan, TaskSpec} from '../types.js';

export type PlanInput = {
	tasks: readonly TaskSpec[];
	delegation: DelegationConfig;
	settings: Pick<DelegateSettings, 'characteristics' | 'characteristicWords'>;
	/** Which input positions to plan; all when omitted. */
	indexes?: readonly number[];
	/** The installed Hermes's flags; undefined: plan as if it had every flag. */
	capabilities?: HermesCapabilities | undefined;
};

export function taskId(index: number): string {
	return `t${String(index + 1).padStart(2, '0')}`;
}

export function activeRoutes(delegation: DelegationConfig): readonly Route[] {
	switch (delegation.mode) {
		case 'model_map': {
			return delegation.modelMap.options;
		}

		case 'profile_routes': {
			return delegation.profileRoutes.profiles;
		}

		default: {
			return [];
		}
	}
}

/** The default route of the active mode; none in `default` mode. */
export function activeDefault(delegation: DelegationConfig): string | undefined {
	if (delegation.mode === 'model_map') {
		return delegation.modelMap.default;
	}

	return delegation.mode === 'profile_routes' ? delegation.profileRoutes.default : undefined;
}

export function planBatch(input: PlanInput): RoutePlan {
	const indexes = input.indexes ?? input.tasks.map((_, index) => index);
	const tasks = indexes.map(index => planTask(index, input));
	return {mode: input.delegation.mode, tasks, warnings: [...characteristicsTableWarnings(input), ...sharedProfileWarnings(tasks)]};
}

/**
 * The characteristics table is shared by both modes, so an entry naming a route of the inactive
 * mode is fine; one naming a route of neither is a typo that would otherwise be silently skipped.
 * With no routes configured at all the table cannot apply to anything, and saying so for every
 * entry on every run would only be noise.
 */
function characteristicsTableWarnings(input: PlanInput): string[] {
	const {modelMap, profileRoutes} = input.delegation;
	const names = new Set([...modelMap.options, ...profileRoutes.profiles].map(route => route.name));
	if (names.size === 0) {
		return [];
	}

	return Object.entries(input.settings.characteristics)
		.filter(([, route]) => !names.has(route))
		.map(([characteristic, route]) => `delegate.yaml characteristics.${characteristic} names route ${JSON.stringify(route)}, which is not in model_map or profile_routes`);
}

function planTask(index: number, input: PlanInput): PlannedTask {
	const spec = input.tasks[index];
	if (!spec) {
		throw new RangeError(`no task at index ${index}`);
	}

	const {settings} = input;
	const characteristic = spec.characteristic
		? {value: spec.characteristic, inferred: false}
		: withInferred(inferCharacteristic(spec.goal, settings.characteristicWords));
	const chosen = decide(spec, characteristic?.value, characteristic?.inferred ? characteristic.from : undefined, input);
	const builtinMode = input.delegation.mode === 'default';
	const flags = routeFlags({spec, decision: chosen, capabilities: input.capabilities, maxIterations: builtinMode ? input.delegation.builtin.max_iterations : undefined});
	// A task this Hermes cannot run as asked is refused on its own, before anything starts.
	const decision = flags.refusal && !chosen.refused ? {route: chosen.route, modelOverride: chosen.modelOverride, refused: true, reason: flags.refusal} : chosen;
	const route = decision.route;
	return {
		index,
		id: taskId(index),
		spec,
		characteristic,
		decision,
		effective: {
			model: flags.model,
			provider: flags.provider,
			reasoning_effort: flags.reasoning_effort,
			service_tier: route?.kind === 'model' ? route.service_tier ?? null : null,
			profile: route?.kind === 'profile' ? route.name : null,
		},
		launch: {max_turns: flags.maxTurns, prompt_file: flags.promptFile, base_url: flags.baseUrl},
		warnings: flags.warnings,
	};
}

function withInferred(inferred: {value: string; from: string} | undefined): PlannedTask['characteristic'] {
	return inferred ? {value: inferred.value, inferred: true, from: inferred.from} : undefined;
}

function decide(spec: TaskSpec, characteristic: string | undefined, inferredFrom: string | undefined, input: PlanInput): RouteDecision {
	const {delegation, settings} = input;
	const routes = activeRoutes(delegation);
	const override = spec.model ? {model: spec.model, provider: spec.provider} : undefined;
	const explicitNote = override ? `explicit model ${override.model}` : undefined;

	// A route the task names must exist, explicit model or not: a typo in a route name is refused
	// the same way in every mode rather than silently ignored.
	const named = namedRoute(spec, delegation, routes);
	if (named?.refused) {
		return named;
	}

	// 1. An explicit model wins outright in model_map and default modes. Under profile routes the
	// task still runs as a profile (its memory and tools) with the model overridden on top.
	if (override && delegation.mode !== 'profile_routes') {
		const routeName = spec.option ?? spec.profile;
		return {route: null, modelOverride: override, refused: false, reason: routeName ? `${explicitNote} (wins over the named route "${routeName}")` : `${explicitNote} (task.model)`};
	}

	const withOverride = (decision: RouteDecision): RouteDecision => override && !decision.refused
		? {...decision, modelOverride: override, reason: `${decision.reason}; ${explicitNote} overrides the profile's model`}
		: decision;

	// 2. A named route (checked above: it is in the active mode's list).
	if (named) {
		return withOverride(named);
	}

	// 3. Characteristic → route, through the configured table, else a route of the same name.
	if (characteristic) {
		const source = inferredFrom ? `characteristic ${characteristic} (inferred from '${inferredFrom}')` : `characteristic ${characteristic}`;
		const mapped = settings.characteristics[characteristic];
		const tabled = routes.find(candidate => candidate.name === mapped);
		if (tabled) {
			return withOverride({route: tabled, refused: false, reason: `${source} → ${tabled.name} (characteristics table)`});
		}

		const named = routes.find(candidate => candidate.name === characteristic);
		if (named) {
			return withOverride({route: named, refused: false, reason: `${source} → route of that name`});
		}

		// The descriptions decide where tasks go: a route whose description names the
		// characteristic ("Slow and careful: ... reasoning work") takes it, when only one does.
		const wanted = stem(characteristic.toLowerCase());
		const describing = routes.filter(candidate => words(candidate.description).some(word => stem(word) === wanted));
		if (describing.length === 1) {
			return withOverride({route: describing[0]!, refused: false, reason: `${source} → ${describing[0]!.name} (its description says "${characteristic}")`});
		}
	}

	// 4. The route whose name and description best match the goal's words, when one clearly does.
	const matched = bestMatch(spec, routes);
	if (matched) {
		return withOverride({route: matched.route, refused: false, reason: `goal matches route "${matched.route.name}" (${matched.words.join(', ')})`});
	}

	// 5. The mode's default; 6. the parent's own model.
	const defaultName = activeDefault(delegation);
	const fallback = routes.find(candidate => candidate.name === defaultName);
	if (fallback) {
		return withOverride({route: fallback, refused: false, reason: `default route of ${delegation.mode}`});
	}

	if (delegation.mode === 'default') {
		const builtin = builtinRoute(delegation);
		return builtin
			? {route: builtin, refused: false, reason: `built-in delegation: Hermes's delegation.model ${builtin.model}`}
			: {route: null, refused: false, reason: 'built-in delegation: the parent\'s own model (no delegation.model set)'};
	}

	return withOverride({route: null, refused: false, reason: `no route matched and ${delegation.mode} has no default: the parent's own model`});
}

/** The route name of Hermes's own flat delegation settings, in results and the dashboard. */
export const builtinRouteName = 'delegation';

/**
 * Hermes's own `delegation.model` (+ provider, base_url, reasoning_effort, ...) as a route: what its
 * built-in delegate_task would run subagents on. Without a model, subagents use the parent's.
 */
export function builtinRoute(delegation: DelegationConfig): ModelRoute | undefined {
	const {builtin} = delegation;
	if (!builtin.model) {
		return undefined;
	}

	const route: ModelRoute = {kind: 'model', name: builtinRouteName, description: 'Hermes\'s own delegation settings (delegation.model in config.yaml)', model: builtin.model};
	for (const key of ['provider', 'base_url', 'reasoning_effort', 'api_key', 'api_mode'] as const) {
		if (builtin[key] !== undefined) {
			(route as Record<string, unknown>)[key] = builtin[key];
		}
	}

	return route;
}

function namedRoute(spec: TaskSpec, delegation: DelegationConfig, routes: readonly Route[]): RouteDecision | undefined {
	const wanted = spec.option !== undefined ? {field: 'option', name: spec.option, mode: 'model_map'} : spec.profile !== undefined ? {field: 'profile', name: spec.profile, mode: 'profile_routes'} : undefined;
	if (!wanted) {
		return undefined;
	}

	if (delegation.mode !== wanted.mode) {
		// Called a route of the other mode only if it is one: a typo there is said as a typo.
		const other = wanted.mode === 'model_map' ? delegation.modelMap.options : delegation.profileRoutes.profiles;
		const otherName = wanted.field === 'profile' ? wanted.name.trim().toLowerCase() : wanted.name;
		return other.some(candidate => candidate.name === otherName)
			? {route: null, refused: true, reason: `task.${wanted.field} "${wanted.name}" names a ${wanted.mode} route, but the active mode is ${delegation.mode}`}
			: {route: null, refused: true, reason: `task.${wanted.field} "${wanted.name}" is not a ${wanted.mode} route (${wanted.mode}: ${other.map(candidate => candidate.name).join(', ') || 'none'}), and the active mode is ${delegation.mode}`};
	}

	const name = wanted.field === 'profile' ? wanted.name.trim().toLowerCase() : wanted.name;
	const route = routes.find(candidate => candidate.name === name);
	if (!route) {
		const list = routes.map(candidate => candidate.name).join(', ');
		return {route: null, refused: true, reason: `${wanted.field} "${wanted.name}" is not in ${wanted.mode} (routes: ${list})`};
	}

	return {route, refused: false, reason: `named by task.${wanted.field}`};
}

// Words too common to say anything about where a task should go.
const stopWords = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'is', 'are', 'be', 'it', 'this', 'that', 'by', 'as', 'at', 'from', 'into', 'about', 'work', 'tasks', 'task', 'not', 'no']);

/** A plural or a tense off a word: "fixes" → "fix", "notes" → "note" (not "not"), "tests" → "test". */
function stem(word: string): string {
	return /(?:[sxz]|ch|sh)es$/.test(word) ? word.slice(0, -2) : word.replace(/(?:ing|ed|s)$/, '');
}

/** `words`: the goal's own words that matched (as the goal writes them, never a stem), in the goal's order. */
function bestMatch(spec: TaskSpec, routes: readonly Route[]): {route: Route; words: string[]} | undefined {
	// Each stem, with the goal's first word that has it.
	const goalWords = new Map<string, string>();
	for (const word of words(`${spec.goal} ${spec.context ?? ''}`).filter(word => !stopWords.has(word))) {
		if (!goalWords.has(stem(word))) goalWords.set(stem(word), word);
	}

	let best: {route: Route; words: string[]} | undefined;
	let tie = false;
	for (const route of routes) {
		const routeWords = new Set(words(`${route.name} ${route.description}`).filter(word => !stopWords.has(word)).map(stem));
		const shared = [...goalWords].filter(([stemmed]) => stemmed.length > 2 && routeWords.has(stemmed)).map(([, word]) => word);
		if (shared.length === 0) {
			continue;
		}

		if (!best || shared.length > best.words.length) {
			best = {route, words: shared};
			tie = false;
		} else if (shared.length === best.words.length) {
			tie = true;
		}
	}

	// A tie is no evidence for either route; the default decides instead.
	return tie ? undefined : best;
}

/** Profiles that two or more tasks of the batch will run as, with those tasks' ids. */
export function sharedProfiles(tasks: readonly PlannedTask[]): Map<string, string[]> {
	const byProfile = new Map<string, string[]>();
	for (const task of tasks) {
		const route = task.decision.route;
		if (!task.decision.refused && route?.kind === 'profile') {
			byProfile.set(route.name, [...(byProfile.get(route.name) ?? []), task.id]);
		}
	}

	return new Map([...byProfile].filter(([, ids]) => ids.length > 1));
}

/** One warning per profile that two or more tasks share; planBatch puts them in the plan's warnings. */
export function sharedProfileWarnings(tasks: readonly PlannedTask[]): string[] {
	return [...sharedProfiles(tasks)].map(([profile, ids]) => `profile "${profile}" is used by ${ids.length} tasks (${ids.join(', ')}): run in parallel they all write that profile's memory`);
}

/** The batch's warnings and every task's, each once: what the operator and the results are told. */
export function allWarnings(plan: {tasks: readonly PlannedTask[]; warnings: readonly string[]}): string[] {
	return [...new Set([...plan.warnings, ...plan.tasks.flatMap(task => task.warnings)])];
}
