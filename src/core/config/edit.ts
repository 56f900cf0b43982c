// Step three of the config: one RouteEdit applied to config.yaml's text. Pure. The edit is made
// as a splice at the node's place in the file (core/yaml/splice.ts), then checked twice: the new
// text must say exactly what the edit meant and nothing else (so an anchor shared with another
// route, or a reflowed line, is caught), and it must pass the same validation as loading.
import {isDeepStrictEqual} from 'node:util';
import {isMap, isScalar, isSeq, parseDocument, type Document} from 'yaml';
import {InputError} from '../errors.js';
import {normaliseProfileName} from '../hermes/home.js';
import type {RouteEdit, RouteList} from '../types.js';
import {terminalSafe} from '../output/visible-text.js';
import {formatPath, hermesYamlOptions} from '../text/yaml-locate.js';
import {appendItem, applySplices, removeItem, removeKey, setValue, SpliceError, type Splice} from '../yaml/splice.js';

const listKey = {model_map: 'options', profile_routes: 'profiles'} as const;

export function routesPath(list: RouteList): string[] {
	return ['delegation', 'backends', list, listKey[list]];
}

/** What the edit does, in a few words, for the diff's heading and for messages. */
export function describeEdit(edit: RouteEdit): string {
	switch (edit.kind) {
		case 'set-mode': {
			return `set the routing mode to ${edit.mode}`;
		}

		case 'set-field': {
			return `set ${edit.field} of ${edit.list} route "${terminalSafe(edit.name)}"`;
		}

		case 'clear-field': {
			return `remove ${edit.field} from ${edit.list} route "${terminalSafe(edit.name)}"`;
		}

		case 'set-default': {
			return `make "${terminalSafe(edit.name)}" the ${edit.list} default`;
		}

		case 'add-route': {
			return `add ${edit.list} route "${terminalSafe(edit.route.name)}"`;
		}

		case 'remove-route': {
			return `remove ${edit.list} route "${terminalSafe(edit.name)}"`;
		}
	}
}

/**
 * The text with the edit applied. `file` is named in messages. Throws an InputError when the
 * route does not exist, or when the edit cannot be made by changing only its own lines.
 */
export function applyRouteEdit(text: string, edit: RouteEdit, file: string): string {
	const document = parseDocument(text, {uniqueKeys: true, ...hermesYamlOptions});
	const before: unknown = document.toJS({maxAliasCount: 100});
	let splices: Splice[];
	try {
		splices = splicesFor(text, document, edit, file);
	} catch (error) {
		if (error instanceof SpliceError) {
			throw new InputError(`cannot ${describeEdit(edit)} without rewriting other lines: ${error.message}`, {file}, 'make this change in the file by hand (e.g. `hermes config edit`)');
		}

		throw error;
	}

	const after = applySplices(text, splices);
	const reparsed = parseDocument(after, {uniqueKeys: true, ...hermesYamlOptions});
	const expected = withEdit(before, edit);
	if (reparsed.errors.length > 0 || !isDeepStrictEqual(emptyListsAsNull(reparsed.toJS({maxAliasCount: 100})), emptyListsAsNull(expected))) {
		throw new InputError(
			`cannot ${describeEdit(edit)} by changing only its own lines: other values would change with it (the value is shared through a YAML anchor &name / alias *name, or the file is laid out in a way this edit cannot follow)`,
			{file},
			'make this change in the file by hand (e.g. `hermes config edit`)',
		);
	}

	return after;
}

function splicesFor(text: string, document: Document, edit: RouteEdit, file: string): Splice[] {
	switch (edit.kind) {
		case 'set-mode': {
			return setValue(text, document, ['delegation', 'backend'], edit.mode);
		}

		case 'set-field': {
			if (edit.list === 'profile_routes' && edit.field !== 'description') {
				throw new InputError(`a profile route has no ${edit.field}: its profile's own config.yaml names the model`, {file, path: formatPath(routesPath(edit.list))}, 'change only --description of a profile route, or edit that profile\'s config');
			}

			const index = routeIndex(document, edit.list, edit.name, file);
			return setValue(text, document, [...routesPath(edit.list), String(index), edit.field].map(String), edit.value);
		}

		case 'clear-field': {
			if (edit.list === 'profile_routes') {
				throw new InputError(`a profile route has no ${edit.field}: it has only a name and a description, both needed`, {file, path: formatPath(routesPath(edit.list))}, 'clear fields of model routes only (--in model_map)');
			}

			const index = routeIndex(document, edit.list, edit.name, file);
			return removeKey(text, document, [...routesPath(edit.list), String(index), edit.field]);
		}

		case 'set-default': {
			routeIndex(document, edit.list, edit.name, file);
			return setValue(text, document, ['delegation', 'backends', edit.list, 'default'], storedName(edit.list, edit.name));
		}

		case 'add-route': {
			if (findRoute(document, edit.list, edit.route.name) !== undefined) {
				throw new InputError(`${edit.list} already has a route "${terminalSafe(edit.route.name)}"`, {file, path: formatPath(routesPath(edit.list))}, `pick another name, or change the existing route with \`hermes-delegate config route ${terminalSafe(edit.route.name)} ...\``);
			}

			return appendItem(text, document, routesPath(edit.list), newRouteEntries(edit));
		}

		case 'remove-route': {
			return removeItem(text, document, routesPath(edit.list), routeIndex(document, edit.list, edit.name, file));
		}
	}
}

/** The keys a new route is written with: its name as stored, and no key for an unset field. */
function newRouteEntries(edit: Extract<RouteEdit, {kind: 'add-route'}>): Record<string, string> {
	const entries = Object.entries({...edit.route, name: storedName(edit.list, edit.route.name)});
	return Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Profile names are written as Hermes reads them: trimmed and lower-cased. */
function storedName(list: RouteList, name: string): string {
	return list === 'profile_routes' ? normaliseProfileName(name) ?? name.trim() : name.trim();
}

function sameRoute(list: RouteList, written: unknown, wanted: string): boolean {
	return typeof written === 'string' && storedName(list, written) === storedName(list, wanted);
}

export function findRoute(document: Document, list: RouteList, name: string): number | undefined {
	const items = document.getIn(routesPath(list), true);
	if (!isSeq(items)) {
		return undefined;
	}

	const index = items.items.findIndex(item => {
		const written = isMap(item) ? item.get('name', true) : undefined;
		return isScalar(written) && sameRoute(list, written.value, name);
	});
	return index === -1 ? undefined : index;
}

function routeIndex(document: Document, list: RouteList, name: string, file: string): number {
	const index = findRoute(document, list, name);
	if (index === undefined) {
		const items = document.getIn(routesPath(list), true);
		const names = (isSeq(items) ? items.items : []).map(item => (isMap(item) ? item.get('name') : undefined)).filter((written): written is string => typeof written === 'string');
		throw new InputError(`${list} has no route "${terminalSafe(name)}"`, {file, path: formatPath(routesPath(list))}, names.length > 0 ? `name one of: ${names.map(terminalSafe).join(', ')}` : `add one first with \`hermes-delegate config add-route\``);
	}

	return index;
}

/** The plain data the file should hold after the edit: what the splice is checked against. */
function withEdit(before: unknown, edit: RouteEdit): unknown {
	const root = isObject(before) ? structuredClone(before) : {};
	const at = (path: string[]): Record<string, unknown> => {
		let node = root;
		for (const key of path) {
			const child = node[key];
			node = isObject(child) ? child : (node[key] = {});
		}

		return node;
	};

	const list = (which: RouteList): unknown[] => {
		const owner = at(['delegation', 'backends', which]);
		const routes = owner[listKey[which]];
		return Array.isArray(routes) ? routes : (owner[listKey[which]] = []);
	};

	const routeIn = (which: RouteList, name: string) => list(which).find((route): route is Record<string, unknown> => isObject(route) && sameRoute(which, route['name'], name));
	const indexIn = (which: RouteList, name: string) => list(which).findIndex(route => isObject(route) && sameRoute(which, route['name'], name));
	switch (edit.kind) {
		case 'set-mode': {
			at(['delegation'])['backend'] = edit.mode;
			break;
		}

		case 'set-field': {
			const route = routeIn(edit.list, edit.name);
			if (route) route[edit.field] = edit.value;
			break;
		}

		case 'clear-field': {
			const route = routeIn(edit.list, edit.name);
			if (route) delete route[edit.field];
			break;
		}

		case 'set-default': {
			at(['delegation', 'backends', edit.list])['default'] = storedName(edit.list, edit.name);
			break;
		}

		case 'add-route': {
			list(edit.list).push(newRouteEntries(edit));
			break;
		}

		case 'remove-route': {
			list(edit.list).splice(indexIn(edit.list, edit.name), 1);
			break;
		}
	}

	return root;
}

/** A map or a list in the file's plain data: where the walk can go on (the splice has already refused a list where a map belongs). */
function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null;
}

/** Removing a block list's last item leaves `options:` (null); either way the list is empty. */
function emptyListsAsNull(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value ?? {}, (_key, inner: unknown) => (Array.isArray(inner) && inner.length === 0 ? null : inner)));
}
