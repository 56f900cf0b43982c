// `hermes-delegate config set-mode | route | add-route | remove-route`: route edits from the
// command line, through the same RouteEdits and the same save as the dashboard. Each prints
// what changed as `-`/`+` lines of the file; a bad value exits 2 naming the field and the fix,
// and leaves the file as it was.
import {defaultConfigPath, loadHermesConfig, saveRouteEdits, type LoadedConfig} from '../core/config/config.js';
import {describeEdit} from '../core/config/edit.js';
import {type ClearableField, clearableFields, reasoningEfforts, type RouteEdit, type RouteList, type RoutingMode, routingModes} from '../core/types.js';
import {InputError} from '../core/errors.js';
import {normaliseProfileName, profileDir, resolveHermesHome} from '../core/hermes/home.js';
import {formatDiff, lineDiff} from '../core/text/line-diff.js';
import {lineOf, parseLocated} from '../core/text/yaml-locate.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {existsSync} from 'node:fs';
import type {RouteEditOptions} from './flags.js';
import type {CommandIO} from './io.js';

type EditIO = Pick<CommandIO, 'stdout' | 'stderr' | 'env'>;

const lists: readonly RouteList[] = ['model_map', 'profile_routes'];

export function setModeCommand(mode: string, flags: {config?: string}, io: EditIO): number {
	if (!(routingModes as readonly string[]).includes(mode)) {
		throw new InputError(`"${terminalSafe(mode)}" is not a routing mode`, {path: 'MODE'}, `one of: ${routingModes.join(', ')} (default: Hermes's own delegation settings, else the parent's model)`);
	}

	return edit(flags, io, () => [{kind: 'set-mode', mode: mode as RoutingMode}]);
}

export function routeCommand(name: string, flags: RouteEditOptions, io: EditIO): number {
	return edit(flags, io, loaded => {
		const list = listOf(loaded, name, flags);
		const edits: RouteEdit[] = [];
		for (const [field, value] of [['description', flags.description], ['model', flags.model], ['provider', flags.provider], ['reasoning_effort', checkedReasoning(flags.reasoning)]] as const) {
			if (value !== undefined) {
				edits.push({kind: 'set-field', list, name, field, value: checkedText(value, field === 'reasoning_effort' ? '--reasoning' : `--${field}`)});
			}
		}

		for (const field of checkedClears(flags)) {
			edits.push({kind: 'clear-field', list, name, field});
		}

		if (flags.default) {
			edits.push({kind: 'set-default', list, name});
		}

		if (edits.length === 0) {
			throw new InputError('nothing to change', {}, 'give at least one of --description, --model, --provider, --reasoning, --clear, --default');
		}

		return edits;
	});
}

export function addRouteCommand(name: string, flags: RouteEditOptions, io: EditIO): number {
	return edit(flags, io, loaded => {
		const description = checkedText(flags.description, '--description');
		const edits: RouteEdit[] = [];
		if (flags.model === undefined && flags.provider === undefined && flags.reasoning === undefined) {
			const profile = normaliseProfileName(name);
			if (profile === undefined) {
				throw new InputError(`"${terminalSafe(name)}" is not a valid profile name`, {path: 'NAME'}, 'profile names are 1-64 characters of a-z, 0-9, "_" and "-", starting with a letter or digit; for a model route give --model and --provider');
			}

			if (!existsSync(profileDir(loaded.hermesHome, profile))) {
				throw new InputError(`profile "${profile}" does not exist (no folder ${profileDir(loaded.hermesHome, profile)})`, {path: 'NAME'}, `create it with \`hermes profile create ${profile}\`, or give --model and --provider for a model route`);
			}

			edits.push({kind: 'add-route', list: 'profile_routes', route: {name: profile, description}});
		} else {
			const route = {name: checkedText(name, 'NAME'), description, model: checkedText(flags.model, '--model'), provider: checkedText(flags.provider, '--provider'), reasoning_effort: checkedReasoning(flags.reasoning)};
			edits.push({kind: 'add-route', list: 'model_map', route});
		}

		if (flags.default) {
			edits.push({kind: 'set-default', list: edits[0]!.kind === 'add-route' ? edits[0]!.list : 'model_map', name});
		}

		return edits;
	});
}

export function removeRouteCommand(name: string, flags: RouteEditOptions, io: EditIO): number {
	return edit(flags, io, loaded => {
		const list = listOf(loaded, name, flags);
		refuseRemovingDefault(loaded, list, name);
		return [{kind: 'remove-route', list, name}];
	});
}

/**
 * The list's default cannot go first: the edited file would fail to load, and its error would name
 * a line of that edited text, which the file on disk does not have. Said here, at the line on disk.
 */
function refuseRemovingDefault(loaded: LoadedConfig, list: RouteList, name: string): void {
	const {modelMap, profileRoutes} = loaded.delegation;
	const [defaultName, names] = list === 'model_map'
		? [modelMap.default, modelMap.options.map(route => route.name)]
		: [profileRoutes.default, profileRoutes.profiles.map(route => route.name)];
	const wanted = list === 'profile_routes' ? normaliseProfileName(name) ?? name.trim() : name.trim();
	if (defaultName === undefined || defaultName !== wanted) {
		return;
	}

	const others = names.filter(other => other !== wanted);
	const keyPath = ['delegation', 'backends', list, 'default'];
	const line = loaded.text === undefined ? undefined : lineOf(parseLocated(loaded.text), keyPath);
	throw new InputError(
		`"${terminalSafe(wanted)}" is the default route of ${list}, so it cannot be removed while it is`,
		{file: loaded.delegation.source.path, line, path: keyPath.join('.')},
		others.length > 0 ? `make another route the default first (\`hermes-delegate config route ${terminalSafe(others[0]!)} --default\`), then remove it` : `remove the default line (${keyPath.join('.')}) from the file first, then the route`,
	);
}

function edit(flags: {config?: string}, io: EditIO, editsFor: (loaded: LoadedConfig) => RouteEdit[]): number {
	const hermesHome = resolveHermesHome(io.env);
	const configPath = flags.config ?? defaultConfigPath(hermesHome);
	const loaded = loadHermesConfig({configPath, hermesHome, explicit: flags.config !== undefined});
	const edits = editsFor(loaded);
	const result = saveRouteEdits(loaded, edits);
	const safe = (line: string) => terminalSafe(line);
	if (result.externalChange) {
		io.stderr.write(`hermes-delegate: warning: ${safe(configPath)} changed on disk while this ran; that change was kept:\n${formatDiff(lineDiff(result.externalChange.before, result.externalChange.after), safe).join('\n')}\n`);
	}

	if (result.savedOver) {
		io.stderr.write(`hermes-delegate: warning: another program saved ${safe(configPath)} at the same moment as this edit; its change was kept and this edit re-applied on top of it (the file now holds both)\n`);
	}

	if (result.otherHardLinks) {
		io.stderr.write(`hermes-delegate: warning: ${safe(configPath)} had ${result.otherHardLinks} other hard link${result.otherHardLinks === 1 ? '' : 's'}; saving replaced the file, so ${result.otherHardLinks === 1 ? 'that link keeps' : 'those links keep'} the old text\n`);
	}

	const what = edits.map(describeEdit).join('; ');
	if (result.writtenPath === undefined) {
		io.stdout.write(`${safe(configPath)}: no change (${safe(what)}: it already says that)\n`);
		return 0;
	}

	io.stdout.write(`${safe(configPath)}: ${safe(what)}\n${formatDiff(lineDiff(result.before, result.after), safe).join('\n')}\n`);
	return 0;
}

/** Which list a route NAME is in: `--in`, else the only list that has it, else the active mode's. */
function listOf(loaded: LoadedConfig, name: string, flags: RouteEditOptions): RouteList {
	if (flags.in !== undefined) {
		if (!(lists as readonly string[]).includes(flags.in)) {
			throw new InputError(`--in must be model_map or profile_routes, got "${terminalSafe(flags.in)}"`, {}, 'e.g. --in profile_routes');
		}

		return flags.in as RouteList;
	}

	const {modelMap, profileRoutes, mode} = loaded.delegation;
	const inModelMap = modelMap.options.some(route => route.name === name.trim());
	const inProfiles = profileRoutes.profiles.some(route => route.name === (normaliseProfileName(name) ?? name.trim()));
	const fieldsOfModelRoutes = flags.model !== undefined || flags.provider !== undefined || flags.reasoning !== undefined || (flags.clear ?? []).length > 0;
	if (inModelMap && inProfiles) {
		if (fieldsOfModelRoutes) {
			return 'model_map';
		}

		if (mode === 'default') {
			throw new InputError(`"${terminalSafe(name)}" is a route in both model_map and profile_routes`, {}, 'say which with --in model_map or --in profile_routes');
		}

		return mode;
	}

	if (inModelMap || inProfiles) {
		return inModelMap ? 'model_map' : 'profile_routes';
	}

	const names = [...modelMap.options.map(route => route.name), ...profileRoutes.profiles.map(route => route.name)];
	throw new InputError(`no route "${terminalSafe(name)}" in model_map or profile_routes`, {file: loaded.delegation.source.path}, names.length > 0 ? `name one of: ${names.map(terminalSafe).join(', ')}, or add it with \`hermes-delegate config add-route\`` : 'add one first with `hermes-delegate config add-route`');
}

function checkedText(value: string | undefined, field: string): string {
	if (value === undefined || value.trim() === '') {
		throw new InputError(`${field} ${value === undefined ? 'is missing' : 'must not be empty'}`, {path: field}, field === '--model' || field === '--provider' ? 'a model route needs --model and --provider (a profile route needs neither)' : `give ${field} some text`);
	}

	if (/[\u0000-\u0008\u000B-\u001F\u007F]/.test(value)) {
		throw new InputError(`${field} holds control characters`, {path: field}, 'write it as plain text');
	}

	return value.trim();
}

/** The keys `--clear` names: only optional ones, each given no new value in the same command. */
function checkedClears(flags: RouteEditOptions): ClearableField[] {
	const fields: ClearableField[] = [];
	for (const given of flags.clear ?? []) {
		const field = given.trim().replaceAll('-', '_');
		const asFlag = field === 'reasoning_effort' ? '--reasoning' : `--${field}`;
		if (!(clearableFields as readonly string[]).includes(field)) {
			const required = ['name', 'description', 'model'].includes(field);
			// There is no --name: a route is renamed by adding it under the new name and removing the old.
			const instead = field === 'name' ? 'rename it with `config add-route NEW ...` and `config remove-route OLD`; ' : required ? `change it with --${field} instead; ` : '';
			throw new InputError(`--clear ${terminalSafe(given)}: ${required ? `every model route needs its ${field}, so it cannot be removed` : 'not a route field that can be removed'}`, {path: '--clear'}, `${instead}--clear takes ${clearableFields.join(', ')}`);
		}

		const alsoSet = field === 'provider' ? flags.provider : field === 'reasoning_effort' ? flags.reasoning : undefined;
		if (alsoSet !== undefined) {
			throw new InputError(`--clear ${field} and ${asFlag} both given`, {path: '--clear'}, `give either ${asFlag} VALUE (to change it) or --clear ${field} (to remove it)`);
		}

		if (!fields.includes(field as ClearableField)) {
			fields.push(field as ClearableField);
		}
	}

	return fields;
}

function checkedReasoning(level: string | undefined): string | undefined {
	if (level !== undefined && !(reasoningEfforts as readonly string[]).includes(level.trim().toLowerCase())) {
		throw new InputError(`"${terminalSafe(level)}" is not a reasoning level`, {path: '--reasoning'}, `one of: ${reasoningEfforts.join(', ')}`);
	}

	return level?.trim().toLowerCase();
}
