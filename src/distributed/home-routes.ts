// What a worker lets a route do with its keys: a task's provider and base_url mean what the
// worker's own Hermes home configures, never what an offer says. A provider is the worker's when
// its home's config.yaml (or a profile's) names it anywhere (a `provider:`, a `custom_providers`
// entry, a `fallback_providers` item); a base_url when it is written there. Anything else is
// refused before the task is claimed: otherwise a forged route's base_url pointed at the
// sender carrying the worker's OPENAI_API_KEY there.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {parse} from 'yaml';
import type {PlannedTask} from '../core/types.js';

export type HomeRoutes = {providers: ReadonlySet<string>; baseUrls: ReadonlySet<string>};

/** The providers and base URLs this home's config.yaml and its profiles' name. */
export function homeRoutes(hermesHome: string): HomeRoutes {
	const providers = new Set<string>();
	const baseUrls = new Set<string>();
	const visit = (value: unknown, key?: string): void => {
		if (Array.isArray(value)) {
			for (const item of value) {
				if (key === 'fallback_providers' && typeof item === 'string') providers.add(item);
				else visit(item, key === 'custom_providers' ? 'custom_provider' : undefined);
			}
		} else if (typeof value === 'object' && value !== null) {
			const record = value as Record<string, unknown>;
			if (key === 'custom_provider' && typeof record['name'] === 'string') providers.add(record['name']);
			for (const [field, inner] of Object.entries(record)) {
				if (field === 'provider' && typeof inner === 'string') providers.add(inner);
				else if (field === 'base_url' && typeof inner === 'string') baseUrls.add(normalUrl(inner));
				else visit(inner, field);
			}
		}
	};

	const profiles = (() => {
		try {
			return readdirSync(path.join(hermesHome, 'profiles'), {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => path.join(hermesHome, 'profiles', entry.name));
		} catch {
			return [];
		}
	})();
	for (const dir of [hermesHome, ...profiles]) {
		try {
			visit(parse(readFileSync(path.join(dir, 'config.yaml'), 'utf8')));
		} catch {
			// No config, or one Hermes could not read either: it configures nothing here.
		}
	}

	return {providers, baseUrls};
}

function normalUrl(url: string): string {
	return url.trim().replace(/\/+$/, '');
}

/** undefined: the task's endpoint is one this home configures; else why not, in words for the operator. */
export function foreignRoute(task: PlannedTask, routes: HomeRoutes): string | undefined {
	const baseUrl = task.launch.base_url;
	if (baseUrl !== null) {
		return routes.baseUrls.has(normalUrl(baseUrl)) ? undefined : `its route's base_url ${baseUrl} is not one this worker's Hermes home configures (a base_url must be written in the worker's own config.yaml)`;
	}

	const provider = task.effective.provider;
	if (provider !== null && !routes.providers.has(provider)) {
		return `its provider "${provider}" is not one this worker's Hermes home configures (name it in the worker's config.yaml, e.g. as a route's provider)`;
	}

	return undefined;
}
