// Step two of the config: text → validated DelegationConfig. Pure: the file's text comes in,
// whether a profile exists is asked of the caller, and nothing here touches the disk. The parsed
// values are derived from the Document and never written back into it, so an edit applied to
// the Document (config/edit.ts) always starts from what the file really says.
import {z} from 'zod';
import {parseBuiltinDelegation} from './builtin.js';
import {checkHermesReadable, checkUniqueKeys, textAsWritten} from '../yaml/pyyaml.js';
import {routeNameProblem} from './route-name.js';
import {InputError, InputErrors} from '../errors.js';
import {normaliseProfileName} from '../hermes/home.js';
import {routingModes, type DelegationConfig, type ModelRoute, type ProfileRoute, type RoutingMode} from '../types.js';
import {reasoningEfforts} from '../types.js';
import {formatPath, lineOf, readYamlText, type LocatedDocument} from '../text/yaml-locate.js';
import {describeIssue, parseWorded} from '../text/zod-messages.js';

const text = z.string().trim().min(1, 'must not be empty');

// PyYAML reads `reasoning_effort: off` (or `no`, `false`) as the boolean false, and Hermes's own
// reader takes false to mean no reasoning (hermes_constants.parse_reasoning_effort): `none` here.
const effort = z.preprocess(value => (value === false ? 'none' : value), z.enum(reasoningEfforts).optional());

const modelRouteSchema = z
	.looseObject({
		name: text,
		description: text,
		model: text,
		provider: text.optional(),
		base_url: text.optional(),
		reasoning_effort: effort,
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
	backend: z.enum(routingModes).optional(),
	backends: z
		.looseObject({
			model_map: z
				.looseObject({options: z.array(modelRouteSchema).optional().nullable(), default: text.optional()})
				.optional()
				.nullable(),
			profile_routes: z
				.looseObject({profiles: z.array(profileRouteSchema).optional().nullable(), default: text.optional()})
				.optional()
				.nullable(),
		})
		.optional()
		.nullable(),
});

const knownModelRouteFields = new Set(['name', 'description', 'model', 'provider', 'base_url', 'reasoning_effort', 'service_tier', 'fallback_providers', 'api_key', 'api_mode']);

export type ParseConfigOptions = {
	/** Named in every message. */
	file: string;
	/** Whether `$HERMES_HOME/profiles/<name>` exists, for a valid, normalised profile name. */
	profileExists(name: string): boolean;
	/** Where that profile's folder is, for messages (default `profiles/<name>`). */
	profileFolder?: ((name: string) => string) | undefined;
	/** Whether the text came from a file (false: the default path is absent, text is empty). */
	exists?: boolean | undefined;
	/** The model that profile's own config.yaml names, if any (shown in its panes; see ProfileRoute). */
	profileModel?: ((name: string) => string | undefined) | undefined;
};

export type ParsedConfig = {
	delegation: DelegationConfig;
	located: LocatedDocument;
	warnings: string[];
};

export function parseHermesConfig(text: string, options: ParseConfigOptions): ParsedConfig {
	const configPath = options.file;
	const source = {path: configPath, exists: options.exists ?? true};
	checkHermesReadable(text, configPath);
	checkUniqueKeys(text, configPath);
	const {located, value: root} = readYamlText(text, {file: configPath, fix: 'fix the YAML syntax at that line', hermes: true});
	const empty: DelegationConfig = {mode: 'default', builtin: {}, modelMap: {options: []}, profileRoutes: {profiles: []}, source};
	const section = typeof root === 'object' && root !== null ? (root as Record<string, unknown>)['delegation'] : undefined;
	if (section === undefined || section === null) {
		return {delegation: empty, located, warnings: []};
	}

	const at = (pathParts: Array<string | number>) => ({file: configPath, path: formatPath(pathParts), line: lineOf(located, pathParts)});
	const readWarnings: string[] = [];
	if (typeof section === 'object') {
		textAsWritten(section as Record<string, unknown>, located, (pathParts, message) => readWarnings.push(`${configPath}: ${formatPath(pathParts)}: ${message}`));
	}

	const parsed = parseWorded(delegationSchema, section);
	if (!parsed.success) {
		throw new InputErrors(parsed.error.issues.map(issue => {
			const problem = describeIssue(issue);
			const fullPath = ['delegation', ...problem.path];
			return new InputError(problem.message, at(fullPath as Array<string | number>), fixFor(fullPath) ?? problem.fix);
		}));
	}

	const builtin = parseBuiltinDelegation(section as Record<string, unknown>);
	const warnings = [...readWarnings, ...builtin.warnings.map(warning => `${configPath}: ${formatPath(['delegation', warning.key])}: ${warning.message}`)];
	const builtinProblems = builtin.problems.map(problem => new InputError(problem.message, at(['delegation', problem.key]), problem.fix));

	const value = parsed.data;
	const modelMap = value.backends?.model_map ?? undefined;
	const profileRoutes = value.backends?.profile_routes ?? undefined;
	const delegation: DelegationConfig = {
		mode: (value.backend ?? 'default') as RoutingMode,
		builtin: builtin.builtin,
		modelMap: {options: (modelMap?.options ?? []).map(toModelRoute), default: modelMap?.default},
		profileRoutes: {profiles: (profileRoutes?.profiles ?? []).map(toProfileRoute), default: normalisedOrAsWritten(profileRoutes?.default)},
		source,
	};

	const problems = [...builtinProblems, ...checkConsistency(delegation, {located, configPath, profileExists: options.profileExists, profileFolder: options.profileFolder ?? (name => `profiles/${name}`), warnings, rawProfiles: profileRoutes?.profiles ?? []})];
	if (problems.length > 0) {
		throw problems.length === 1 ? problems[0]! : new InputErrors(problems);
	}

	for (const route of delegation.profileRoutes.profiles) {
		const model = options.profileModel?.(route.name);
		if (model !== undefined) {
			route.configured_model = model;
		}
	}

	return {delegation, located, warnings};
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

// Hermes trims and lower-cases profile names, so `Coder` and `coder` are one profile: the route
// carries the name Hermes will use (an invalid name is kept as written, and refused below).
function toProfileRoute(route: z.infer<typeof profileRouteSchema>): ProfileRoute {
	return {kind: 'profile', name: normalisedOrAsWritten(route.name)!, description: route.description};
}

function normalisedOrAsWritten(name: string | undefined): string | undefined {
	return name === undefined ? undefined : normaliseProfileName(name) ?? name;
}

type CheckContext = {located: LocatedDocument; configPath: string; profileExists(name: string): boolean; profileFolder(name: string): string; warnings: string[]; rawProfiles: ReadonlyArray<{name: string}>};

function checkConsistency(delegation: DelegationConfig, context: CheckContext): InputError[] {
	const {located, configPath, profileExists, profileFolder, warnings, rawProfiles} = context;
	const problems: InputError[] = [];
	const at = (pathParts: Array<string | number>) => ({file: configPath, path: formatPath(pathParts), line: lineOf(located, pathParts)});
	const modelBase = ['delegation', 'backends', 'model_map'];
	const profileBase = ['delegation', 'backends', 'profile_routes'];

	checkUnique(delegation.modelMap.options.map(route => route.name), [...modelBase, 'options'], at, problems);
	for (const [index, route] of delegation.modelMap.options.entries()) {
		const problem = routeNameProblem(route.name);
		if (problem) {
			problems.push(new InputError(problem.message, at([...modelBase, 'options', index, 'name']), problem.fix));
		}
	}

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

	const validProfiles: number[] = [];
	for (const [index, raw] of rawProfiles.entries()) {
		if (normaliseProfileName(raw.name) === undefined) {
			problems.push(new InputError(`"${raw.name}" is not a valid profile name`, at([...profileBase, 'profiles', index, 'name']), 'profile names are 1-64 characters of a-z, 0-9, "_" and "-", starting with a letter or digit'));
		} else {
			validProfiles.push(index);
		}
	}

	checkUnique(delegation.profileRoutes.profiles.map(route => route.name), [...profileBase, 'profiles'], at, problems);
	for (const index of validProfiles) {
		const name = delegation.profileRoutes.profiles[index]!.name;
		const pathParts = [...profileBase, 'profiles', index, 'name'];
		if (!profileExists(name)) {
			const message = `profile "${name}" does not exist (no folder ${profileFolder(name)})`;
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

