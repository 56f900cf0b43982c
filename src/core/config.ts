// Reads the `delegation:` section of Hermes's own config.yaml. The parsed YAML Document is
// kept alongside the plain values because the routes editor (roadmap) must later save a
// change by touching only the changed node.
import {existsSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import type {Document} from 'yaml';
import {z} from 'zod';
import {InputError, InputErrors} from './errors.js';
import {normaliseProfileName, profileDir} from './hermes-home.js';
import type {DelegationConfig, ModelRoute, ProfileRoute, RoutingMode} from './types.js';
import {reasoningEfforts} from './types.js';
import {formatPath, lineOf, readYamlText, type LocatedDocument} from './yaml-locate.js';
import {describeIssue, parseWorded} from './zod-messages.js';

const text = z.string().trim().min(1, 'must not be empty');

const modelRouteSchema = z
	.looseObject({
		name: text,
		description: text,
		model: text,
		provider: text.optional(),
		base_url: text.optional(),
		reasoning_effort: z.enum(reasoningEfforts).optional(),
		service_tier: text.optional(),
		fallback_providers: z.array(text).optional(),
		api_key: z.string().optional(),
		api_mode: text.optional(),
	})
	.refine(route => route.provider !== undefined || route.base_url !== undefined, {
		message: 'needs "provider" or "base_url"',
		path: ['provider'],
	});

const profileRouteSchema = z.looseObject({name: text, description: text});

const delegationSchema = z.looseObject({
	backend: z.enum(['model_map', 'profile_routes', 'default']).optional(),
	backends: z
		.looseObject({
			model_map: z
				.looseObject({options: z.array(modelRouteSchema).optional(), default: text.optional()})
				.optional()
				.nullable(),
			profile_routes: z
				.looseObject({profiles: z.array(profileRouteSchema).optional(), default: text.optional()})
				.optional()
				.nullable(),
		})
		.optional()
		.nullable(),
});

const knownModelRouteFields = new Set(['name', 'description', 'model', 'provider', 'base_url', 'reasoning_effort', 'service_tier', 'fallback_providers', 'api_key', 'api_mode']);

export type LoadedConfig = {
	delegation: DelegationConfig;
	/** The parsed file, kept for node-level saving later; undefined when the file does not exist. */
	document: Document | undefined;
	hermesHome: string;
	warnings: string[];
};

export type LoadConfigOptions = {
	configPath: string;
	hermesHome: string;
	/**
	 * The path was given on purpose (`--config`): a missing file is then an error. The default
	 * path missing means Hermes was never configured for delegation: the built-in mode.
	 */
	explicit?: boolean | undefined;
};

export function loadHermesConfig(options: LoadConfigOptions): LoadedConfig {
	const {configPath, hermesHome} = options;
	const source = {path: configPath, exists: existsSync(configPath)};
	const empty: DelegationConfig = {mode: 'default', builtin: {}, modelMap: {options: []}, profileRoutes: {profiles: []}, source};
	if (!source.exists) {
		if (options.explicit) {
			throw new InputError(
				`config file not found: ${configPath}`,
				{file: configPath},
				`check the path, or leave --config out to use $HERMES_HOME/config.yaml (here ${defaultConfigPath(hermesHome)})`,
			);
		}

		return {delegation: empty, document: undefined, hermesHome, warnings: []};
	}

	let raw: string;
	try {
		if (statSync(configPath).isDirectory()) {
			throw new Error('is a directory');
		}

		raw = readFileSync(configPath, 'utf8');
	} catch (error) {
		throw new InputError(`cannot read Hermes config: ${(error as Error).message}`, {file: configPath}, 'check the path given to --config or HERMES_HOME');
	}

	const {located, value: root} = readYamlText(raw, {file: configPath, fix: 'fix the YAML syntax at that line (hermes-delegate never edits this file on its own)'});
	const section = typeof root === 'object' && root !== null ? (root as Record<string, unknown>)['delegation'] : undefined;
	if (section === undefined || section === null) {
		return {delegation: empty, document: located.document, hermesHome, warnings: []};
	}

	const parsed = parseWorded(delegationSchema, section);
	if (!parsed.success) {
		throw new InputErrors(parsed.error.issues.map(issue => {
			const problem = describeIssue(issue);
			const fullPath = ['delegation', ...problem.path];
			return new InputError(problem.message, {file: configPath, path: formatPath(fullPath), line: lineOf(located, fullPath)}, fixFor(fullPath) ?? problem.fix);
		}));
	}

	const value = parsed.data;
	const modelMap = value.backends?.model_map ?? undefined;
	const profileRoutes = value.backends?.profile_routes ?? undefined;
	const delegation: DelegationConfig = {
		mode: (value.backend ?? 'default') as RoutingMode,
		builtin: {},
		modelMap: {options: (modelMap?.options ?? []).map(toModelRoute), default: modelMap?.default},
		profileRoutes: {profiles: (profileRoutes?.profiles ?? []).map(toProfileRoute), default: profileRoutes?.default},
		source,
	};

	const warnings: string[] = [];
	const problems = checkConsistency(delegation, {located, configPath, hermesHome, warnings});
	if (problems.length > 0) {
		throw problems.length === 1 ? problems[0]! : new InputErrors(problems);
	}

	return {delegation, document: located.document, hermesHome, warnings};
}

function toModelRoute(route: z.infer<typeof modelRouteSchema>): ModelRoute {
	const out: ModelRoute = {kind: 'model', name: route.name, description: route.description, model: route.model};
	for (const key of ['provider', 'base_url', 'reasoning_effort', 'service_tier', 'fallback_providers', 'api_key', 'api_mode'] as const) {
		if (route[key] !== undefined) {
			(out as Record<string, unknown>)[key] = route[key];
		}
	}

	return out;
}

function toProfileRoute(route: z.infer<typeof profileRouteSchema>): ProfileRoute {
	return {kind: 'profile', name: route.name, description: route.description};
}

type CheckContext = {located: LocatedDocument; configPath: string; hermesHome: string; warnings: string[]};

function checkConsistency(delegation: DelegationConfig, context: CheckContext): InputError[] {
	const {located, configPath, hermesHome, warnings} = context;
	const problems: InputError[] = [];
	const at = (pathParts: Array<string | number>) => ({file: configPath, path: formatPath(pathParts), line: lineOf(located, pathParts)});
	const modelBase = ['delegation', 'backends', 'model_map'];
	const profileBase = ['delegation', 'backends', 'profile_routes'];

	checkUnique(delegation.modelMap.options.map(route => route.name), [...modelBase, 'options'], at, problems);

	for (const [index, route] of delegation.modelMap.options.entries()) {
		if (route.api_key !== undefined) {
			warnings.push(`${configPath}: ${formatPath([...modelBase, 'options', index, 'api_key'])}: an API key is stored in plain text in this file; prefer the profile's .env`);
		}

		const raw = located.document.getIn([...modelBase, 'options', index]) as {items?: Array<{key: {value?: unknown}}>} | undefined;
		for (const item of raw?.items ?? []) {
			const key = String(item.key?.value);
			if (!knownModelRouteFields.has(key)) {
				warnings.push(`${configPath}: ${formatPath([...modelBase, 'options', index, key])}: unknown route field, ignored by hermes-delegate (route fields: ${[...knownModelRouteFields].join(', ')})`);
			}
		}
	}

	// Hermes trims and lower-cases profile names, so `Coder` and `coder` are one profile:
	// normalise first, then look for duplicates.
	const validProfiles: number[] = [];
	for (const [index, route] of delegation.profileRoutes.profiles.entries()) {
		const name = normaliseProfileName(route.name);
		if (name === undefined) {
			problems.push(new InputError(`"${route.name}" is not a valid profile name`, at([...profileBase, 'profiles', index, 'name']), 'profile names are 1-64 characters of a-z, 0-9, "_" and "-", starting with a letter or digit'));
			continue;
		}

		route.name = name;
		validProfiles.push(index);
	}

	checkUnique(delegation.profileRoutes.profiles.map(route => route.name), [...profileBase, 'profiles'], at, problems);
	if (delegation.profileRoutes.default !== undefined) {
		delegation.profileRoutes.default = normaliseProfileName(delegation.profileRoutes.default) ?? delegation.profileRoutes.default;
	}

	for (const index of validProfiles) {
		const route = delegation.profileRoutes.profiles[index]!;
		const name = route.name;
		const pathParts = [...profileBase, 'profiles', index, 'name'];
		const directory = profileDir(hermesHome, name);
		if (!existsSync(directory)) {
			const message = `profile "${name}" does not exist (no folder ${directory})`;
			const fix = `create it with \`hermes profile create ${name}\`, or remove it from profile_routes`;
			if (delegation.mode === 'profile_routes') {
				problems.push(new InputError(message, at(pathParts), fix));
			} else {
				warnings.push(`${configPath}: ${formatPath(pathParts)}: ${message} (profile_routes is not the active mode)`);
			}
		}
	}

	const checkDefault = (routeDefault: string | undefined, names: string[], base: string[], listName: string) => {
		if (routeDefault !== undefined && !names.includes(routeDefault)) {
			problems.push(new InputError(`default "${routeDefault}" is not one of the ${listName} (${names.join(', ') || 'none'})`, at([...base, 'default']), `set default to one of: ${names.join(', ') || `add ${listName} first`}`));
		}
	};

	checkDefault(delegation.modelMap.default, delegation.modelMap.options.map(route => route.name), modelBase, 'model_map options');
	checkDefault(delegation.profileRoutes.default, delegation.profileRoutes.profiles.map(route => route.name), profileBase, 'profile_routes profiles');

	if (delegation.mode === 'model_map' && delegation.modelMap.options.length === 0) {
		problems.push(new InputError('the active backend is model_map but it has no options', at([...modelBase]), 'add routes under delegation.backends.model_map.options, or set delegation.backend to default'));
	}

	if (delegation.mode === 'profile_routes' && delegation.profileRoutes.profiles.length === 0) {
		problems.push(new InputError('the active backend is profile_routes but it lists no profiles', at([...profileBase]), 'add profiles under delegation.backends.profile_routes.profiles, or set delegation.backend to default'));
	}

	return problems;
}

function checkUnique(names: string[], base: Array<string | number>, at: (p: Array<string | number>) => {file: string; path: string; line: number | undefined}, problems: InputError[]): void {
	const seen = new Set<string>();
	for (const [index, name] of names.entries()) {
		if (seen.has(name)) {
			problems.push(new InputError(`route name "${name}" is used twice`, at([...base, index, 'name']), 'give every route a unique name: tasks pick routes by name'));
		}

		seen.add(name);
	}
}

function fixFor(pathParts: PropertyKey[]): string | undefined {
	const last = pathParts.at(-1);
	if (last === 'backend') {
		return 'set delegation.backend to model_map, profile_routes or default';
	}

	if (last === 'reasoning_effort') {
		return 'pick one of those, or leave reasoning_effort out to use what Hermes itself configures';
	}

	if (last === 'provider') {
		return 'a model route needs a provider (e.g. openrouter) or a base_url';
	}

	// A field of one route: say what a whole route looks like.
	if (pathParts[3] === 'options' && typeof pathParts[4] === 'number') {
		return 'a model route needs name, description, model, and provider or base_url; optional: reasoning_effort, service_tier, fallback_providers, api_key, api_mode';
	}

	if (pathParts[3] === 'profiles' && typeof pathParts[4] === 'number') {
		return 'a profile route needs name (the Hermes profile) and description (what it is for)';
	}

	return undefined;
}

export function defaultConfigPath(hermesHome: string): string {
	return path.join(hermesHome, 'config.yaml');
}
