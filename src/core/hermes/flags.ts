// Which parts of a task's route and fields reach `hermes chat`, decided against the flags the
// installed Hermes has (hermes/probe.ts). One place answers it for the plan (warnings, refusals,
// the effective values shown and reported) and for the launcher (the argv), so what --dry-run
// and the results say is exactly what was passed.
import type {HermesCapabilities, ModelRoute, RouteDecision, TaskSpec} from '../types.js';

/**
 * Linux caps one argument at MAX_ARG_STRLEN (32 pages = 128 KiB, the terminating NUL included):
 * a longer prompt makes spawn fail with E2BIG. `-q` and the prompt may be one argument (`-q-…`).
 */
export const maxPromptArgBytes = 128 * 1024 - 1 - 2;

export type OutputMode = 'stream-json' | 'quiet' | 'text';

/** stream-json where Hermes has it (live tool calls and tokens), else -Q (exact answer, honest exit code). */
export function outputModeOf(flags: HermesCapabilities['flags']): OutputMode {
	return flags.streamJson ? 'stream-json' : flags.quiet ? 'quiet' : 'text';
}

/**
 * How a route's base_url reaches Hermes: a provider of Hermes's that reads its endpoint and key
 * from the environment, which we set in that child's environment only. An OpenAI-compatible
 * server (vLLM, llama.cpp, a gateway) speaks chat completions: Hermes's `lmstudio` provider does,
 * on every release, from LM_BASE_URL / LM_API_KEY. `openai-api` (OPENAI_BASE_URL / OPENAI_API_KEY)
 * speaks the Responses API from 0.20.0 on, so it is used only when the route asks for that.
 */
export type BaseUrlTarget = {provider: string; urlVariable: string; keyVariable: string};

const chatCompletions: BaseUrlTarget = {provider: 'lmstudio', urlVariable: 'LM_BASE_URL', keyVariable: 'LM_API_KEY'};
const responses: BaseUrlTarget = {provider: 'openai-api', urlVariable: 'OPENAI_BASE_URL', keyVariable: 'OPENAI_API_KEY'};
const baseUrlProviders = new Set(['openai-api', 'openai', 'custom', 'lmstudio']);

export function baseUrlTarget(route: Pick<ModelRoute, 'base_url' | 'provider' | 'api_mode'>): BaseUrlTarget | undefined {
	if (route.base_url === undefined || (route.provider !== undefined && !baseUrlProviders.has(route.provider))) {
		return undefined;
	}

	const wantsResponses = route.provider === 'openai-api' || route.api_mode === 'codex_responses' || route.api_mode === 'responses';
	return wantsResponses ? responses : chatCompletions;
}

export function honoursBaseUrl(route: Pick<ModelRoute, 'base_url' | 'provider' | 'api_mode'>): boolean {
	return baseUrlTarget(route) !== undefined;
}

/** The child's extra environment for a base_url route; empty for any other. */
export function baseUrlEnv(route: ModelRoute): Record<string, string> {
	const target = baseUrlTarget(route);
	if (!target) {
		return {};
	}

	return {[target.urlVariable]: route.base_url!, ...(route.api_key === undefined ? {} : {[target.keyVariable]: route.api_key})};
}

export function promptOf(spec: Pick<TaskSpec, 'goal' | 'context'>): string {
	return spec.context ? `${spec.goal}\n\nContext:\n${spec.context}` : spec.goal;
}

export type RouteFlags = {
	/** What is passed: null where nothing is (the profile's or Hermes's own setting applies). */
	model: string | null;
	provider: string | null;
	reasoning_effort: string | null;
	/** Extra environment for this child (a base_url route's endpoint and key). */
	env: Record<string, string>;
	/** The endpoint a base_url route goes to, when it is honoured. */
	baseUrl: string | null;
	maxTurns: number | null;
	promptFile: boolean;
	warnings: string[];
	/** Set when the task cannot run on this Hermes at all: it is refused with this reason. */
	refusal?: string | undefined;
};

export type RouteFlagsInput = {
	spec: TaskSpec;
	decision: RouteDecision;
	/** Hermes's own `delegation.max_iterations`, applied in the built-in mode. */
	maxIterations?: number | undefined;
	/** undefined: plan as if every flag existed (pure planning without a binary). */
	capabilities?: HermesCapabilities | undefined;
};

export function routeFlags(input: RouteFlagsInput): RouteFlags {
	const {spec, decision, capabilities} = input;
	const flags = capabilities?.flags;
	const hermes = capabilities?.version ? `Hermes ${capabilities.version}` : 'the installed Hermes';
	const route = decision.route?.kind === 'model' ? decision.route : undefined;
	const warnings: string[] = route ? unpassedFieldWarnings(route) : [];
	const refusals: string[] = [];
	const override = decision.modelOverride;
	const env: Record<string, string> = {};

	let provider = override ? override.provider ?? null : route?.provider ?? null;
	const target = !override && route ? baseUrlTarget(route) : undefined;
	if (target) {
		provider = target.provider;
		Object.assign(env, baseUrlEnv(route!));
	}

	let reasoning = override ? null : route?.reasoning_effort ?? null;
	if (reasoning !== null && flags && !flags.reasoning) {
		warnings.push(`route "${route!.name}": reasoning_effort ${reasoning} is not passed: ${hermes} has no --reasoning flag (it arrived in 0.20.0), so the subagent uses its profile's agent.reasoning_effort`);
		reasoning = null;
	}

	const maxTurns = spec.max_turns ?? input.maxIterations ?? null;
	const needs = (has: boolean | undefined, field: string, flag: string) => {
		if (has === false) {
			refusals.push(`task.${field} needs \`hermes chat ${flag}\`, which ${hermes} does not have`);
		}
	};

	if (spec.toolsets) needs(flags?.toolsets, 'toolsets', '-t');
	if (spec.skills) needs(flags?.skills, 'skills', '-s');
	if (spec.worktree) needs(flags?.worktree, 'worktree', '-w');
	if (spec.max_turns !== undefined) needs(flags?.maxTurns, 'max_turns', '--max-turns');

	// Hermes strips the prompt and exits 2 on an empty one (also from an empty --query-file).
	if (promptOf(spec).trim() === '') {
		refusals.push('the task\'s prompt is empty (Hermes exits 2 on an empty query); give the task a goal');
	}

	const promptBytes = Buffer.byteLength(promptOf(spec));
	const promptFile = promptBytes > maxPromptArgBytes;
	if (promptFile && flags && !flags.queryFile) {
		refusals.push(`the prompt is ${Math.ceil(promptBytes / 1024)} KiB, over the 128 KiB Linux allows in one command-line argument, and ${hermes} has no --query-file to read it from a file (it arrived in 0.20.6); upgrade Hermes, or shorten the goal/context`);
	}

	return {
		model: override?.model ?? route?.model ?? null,
		provider,
		reasoning_effort: reasoning,
		env,
		baseUrl: target ? route!.base_url! : null,
		maxTurns: maxTurns !== null && flags?.maxTurns === false ? null : maxTurns,
		promptFile,
		warnings,
		...(refusals.length > 0 ? {refusal: refusals.join('; ')} : {}),
	};
}

/** Route fields `hermes chat` has no flag or environment for: passed nowhere, so say so. */
function unpassedFieldWarnings(route: ModelRoute): string[] {
	const warnings: string[] = [];
	const baseUrlHonoured = honoursBaseUrl(route);
	if (route.base_url !== undefined && !baseUrlHonoured) {
		warnings.push(`route "${route.name}": base_url is not passed: it reaches Hermes through the lmstudio (chat completions) or openai-api (Responses API) provider, and this route names provider "${route.provider}"; drop provider to use base_url, or drop base_url`);
	}

	// A base_url route's api_mode chose its provider and its api_key went to that provider: both passed.
	const unpassed = (['service_tier', 'fallback_providers', 'api_mode', 'api_key'] as const)
		.filter(field => route[field] !== undefined && !(baseUrlHonoured && (field === 'api_mode' || field === 'api_key')));
	if (unpassed.length > 0) {
		const many = unpassed.length > 1;
		warnings.push(`route "${route.name}": ${unpassed.join(', ')} ha${many ? 've' : 's'} no \`hermes chat\` flag and ${many ? 'are' : 'is'} not passed; the subagent uses what its Hermes profile configures for ${many ? 'them' : 'it'}`);
	}

	return warnings;
}
