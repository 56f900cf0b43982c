// Every change hermes-delegate makes to Hermes's config during a run, appended to the run
// folder's changes.jsonl: when, which YAML path, the value before and after. What the file said
// is the record; a secret (api_key) is never copied into it.
import {appendFileSync} from 'node:fs';
import path from 'node:path';
import {routesPath} from './edit.js';
import type {DelegationConfig, Route, RouteEdit, RouteList} from '../types.js';
import {formatPath} from '../text/yaml-locate.js';

export type ConfigChange = {at: string; path: string; old: unknown; new: unknown};

export function changesPath(runDir: string): string {
	return path.join(runDir, 'changes.jsonl');
}

/** What each edit changed, read from the config before and after it. */
export function changeRecords(edits: readonly RouteEdit[], before: DelegationConfig, after: DelegationConfig, at = new Date()): ConfigChange[] {
	const time = at.toISOString();
	// biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every kind of edit and each returns (TypeScript checks it).
	return edits.map(edit => {
		switch (edit.kind) {
			case 'set-mode': {
				return {at: time, path: 'delegation.backend', old: before.mode, new: after.mode};
			}

			case 'set-field': {
				const index = routeIndex(before, edit.list, edit.name);
				return {at: time, path: formatPath([...routesPath(edit.list), index, edit.field]), old: fieldOf(routesOf(before, edit.list)[index], edit.field), new: fieldOf(routesOf(after, edit.list)[index], edit.field)};
			}

			case 'clear-field': {
				const index = routeIndex(before, edit.list, edit.name);
				const old = fieldOf(routesOf(before, edit.list)[index], edit.field);
				return {at: time, path: formatPath([...routesPath(edit.list), index, edit.field]), old: edit.field === 'api_key' && old !== null ? secretNotCopied : old, new: null};
			}

			case 'set-default': {
				return {at: time, path: formatPath(['delegation', 'backends', edit.list, 'default']), old: defaultOf(before, edit.list) ?? null, new: defaultOf(after, edit.list) ?? null};
			}

			case 'add-route': {
				const index = routeIndex(after, edit.list, edit.route.name);
				return {at: time, path: formatPath([...routesPath(edit.list), index]), old: null, new: withoutSecret(routesOf(after, edit.list)[index])};
			}

			case 'remove-route': {
				const index = routeIndex(before, edit.list, edit.name);
				return {at: time, path: formatPath([...routesPath(edit.list), index]), old: withoutSecret(routesOf(before, edit.list)[index]), new: null};
			}
		}
	});
}

/** Appends the records, one JSON object a line. Throws the file system's error: the caller says what it means. */
export function appendChanges(runDir: string, changes: readonly ConfigChange[]): void {
	if (changes.length > 0) {
		appendFileSync(changesPath(runDir), changes.map(change => `${JSON.stringify(change)}\n`).join(''), {mode: 0o600});
	}
}

function routesOf(delegation: DelegationConfig, list: RouteList): readonly Route[] {
	return list === 'model_map' ? delegation.modelMap.options : delegation.profileRoutes.profiles;
}

function defaultOf(delegation: DelegationConfig, list: RouteList): string | undefined {
	return list === 'model_map' ? delegation.modelMap.default : delegation.profileRoutes.default;
}

function routeIndex(delegation: DelegationConfig, list: RouteList, name: string): number {
	// Profile names are stored as Hermes reads them (lower-cased); model route names as written.
	const same = (a: string) => (list === 'profile_routes' ? a.trim().toLowerCase() === name.trim().toLowerCase() : a.trim() === name.trim());
	return routesOf(delegation, list).findIndex(route => same(route.name));
}

function fieldOf(route: Route | undefined, field: string): unknown {
	return route ? (route as Record<string, unknown>)[field] ?? null : null;
}

const secretNotCopied = '<set in config.yaml; not written here>';

function withoutSecret(route: Route | undefined): unknown {
	if (!route) {
		return null;
	}

	const {kind: _kind, ...fields} = route as Route & {api_key?: string};
	return 'api_key' in fields ? {...fields, api_key: secretNotCopied} : fields;
}
