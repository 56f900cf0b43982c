// What the fake reads from a Hermes home in the recorded-answers mode (script.ts), so that its
// behaviour depends on the config as Hermes's does: which home (-p, else active_profile), whether
// that profile exists, the model when no -m, the endpoint and key a provider resolves to, and
// agent.api_max_retries. Observed in the recordings of real runs (docs/hermes-releases.md; profile-*, sticky-profile-*,
// model-*, provider-*, api-key-*, *-retries1). The directive mode reads none of this.
import {existsSync, readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {parse} from 'yaml';
import type {ChatCommand} from './command-line.js';
import {configuredDefaultModel} from './session.js';

export type Endpoint = {
	/** The home the run uses: the root, or profiles/<name> (where its session row is written). */
	home: string;
	model: string;
	/** As Hermes names it in its retry log (`Provider: custom`). */
	provider: string;
	/** As its session row names it: a provider the config defines is billed as `custom` (model-provider-named-custom). */
	billingProvider: string;
	baseUrl: string;
	/** The port of baseUrl, as the recorded mock put it in its reply ('' when there is none). */
	port: string;
	/** The Authorization header Hermes sends. */
	auth: string;
	maxRetries: number;
};

export type ConfigOutcome = {endpoint: Endpoint} | {error: 'profile'; stderr: string} | {error: 'provider'; message: string};

type Yaml = Record<string, unknown>;
const record = (value: unknown): Yaml => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Yaml) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function readConfig(home: string): Yaml {
	try {
		// A file PyYAML rejects makes Hermes ignore all of it; the fake does the same with its parser.
		return record(parse(readFileSync(join(home, 'config.yaml'), 'utf8')));
	} catch {
		return {};
	}
}

/** -p NAME, else a sticky `active_profile`; `default` is the root home itself. */
function chooseHome(root: string, profile: string | undefined): {home: string} | {missing: string} {
	let name = profile;
	if (name === undefined && existsSync(join(root, 'active_profile'))) name = readFileSync(join(root, 'active_profile'), 'utf8').trim() || undefined;
	if (name === undefined || name === 'default') return {home: root};
	const home = join(root, 'profiles', name);
	return existsSync(home) ? {home} : {missing: name};
}

// Providers Hermes has built in whose endpoint comes from the environment (docs/routing.md).
const environmentProviders: Record<string, {url: string; key: string; keyless?: string}> = {
	lmstudio: {url: 'LM_BASE_URL', key: 'LM_API_KEY', keyless: 'dummy-lm-api-key'},
	'openai-api': {url: 'OPENAI_BASE_URL', key: 'OPENAI_API_KEY'},
};
// Built in, reached over the internet: the fake never goes there, but Hermes would accept the name.
const remoteProviders = new Set(['auto', 'openrouter', 'anthropic', 'openai', 'nous', 'openai-codex', 'gemini', 'deepseek', 'zai', 'kimi-coding', 'minimax', 'bedrock', 'xai']);

function portOf(url: string): string {
	try {
		return new URL(url).port;
	} catch {
		return '';
	}
}

// `api_key: dummy`, like no key at all, is sent as this (api-key-dummy, api-key-missing).
const bearer = (key: string | undefined) => `Bearer ${key === undefined || key === 'dummy' ? 'no-key-required' : key}`;

function namedProvider(config: Yaml, name: string): {baseUrl: string; key?: string} | undefined {
	const custom = Array.isArray(config['custom_providers']) ? config['custom_providers'].map(record) : [];
	const listed = custom.find((entry) => entry['name'] === name);
	if (listed) return {baseUrl: text(listed['base_url']) ?? '', ...(text(listed['api_key']) ? {key: text(listed['api_key'])!} : {})};
	const mapped = record(config['providers'])[name];
	if (mapped === undefined) return undefined;
	const entry = record(mapped);
	return {baseUrl: text(entry['api']) ?? text(entry['base_url']) ?? '', ...(text(entry['api_key']) ? {key: text(entry['api_key'])!} : {})};
}

/** A `providers:` entry with the same URL as model.base_url lends its key (profile-researcher). */
function keyForUrl(config: Yaml, url: string, fallback: string | undefined): string | undefined {
	for (const entry of Object.values(record(config['providers'])).map(record)) {
		if ((text(entry['api']) ?? text(entry['base_url'])) === url && text(entry['api_key'])) return text(entry['api_key']);
	}

	return fallback;
}

export function resolveEndpoint(command: ChatCommand, env: NodeJS.ProcessEnv): ConfigOutcome {
	const root = env['HERMES_HOME'] || join(homedir(), '.hermes');
	const chosen = chooseHome(root, command.profile);
	if ('missing' in chosen) {
		return {error: 'profile', stderr: `Error: Profile '${chosen.missing}' does not exist. Create it with: hermes profile create ${chosen.missing}\n`};
	}

	const config = readConfig(chosen.home);
	const modelBlock = record(config['model']);
	const model = command.model ?? text(modelBlock['default']) ?? text(config['model']) ?? configuredDefaultModel;
	const retries = record(config['agent'])['api_max_retries'];
	const maxRetries = typeof retries === 'number' && Number.isInteger(retries) && retries >= 1 ? retries : 3;
	const provider = command.provider ?? text(modelBlock['provider']) ?? 'auto';
	const base = {home: chosen.home, model, maxRetries};
	const endpoint = (providerName: string, baseUrl: string, auth: string, billingProvider = providerName): ConfigOutcome => ({endpoint: {...base, provider: providerName, billingProvider, baseUrl, port: portOf(baseUrl), auth}});

	if (provider === 'custom' || (provider === 'auto' && text(modelBlock['base_url']))) {
		const baseUrl = text(modelBlock['base_url']) ?? '';
		return endpoint('custom', baseUrl, bearer(keyForUrl(config, baseUrl, text(modelBlock['api_key']))));
	}

	const named = namedProvider(config, provider);
	if (named) return endpoint(provider, named.baseUrl, bearer(named.key), 'custom');
	const fromEnv = environmentProviders[provider];
	if (fromEnv) {
		const baseUrl = env[fromEnv.url] ?? '';
		return endpoint(provider, baseUrl, `Bearer ${env[fromEnv.key] || fromEnv.keyless || 'no-key-required'}`);
	}

	if (remoteProviders.has(provider)) return endpoint(provider, '', bearer(undefined));
	return {error: 'provider', message: `Unknown provider '${provider}'. Check 'hermes model' for available providers, or run 'hermes doctor' to diagnose config issues.`};
}

/** Whether `-s NAME` names a skill the home has (skills/<NAME>/ or skills/<category>/<NAME>/). */
export function unknownSkills(home: string, skills: readonly string[]): string[] {
	const names = skills.flatMap((entry) => entry.split(',')).map((name) => name.trim()).filter(Boolean);
	return names.filter((name) => !existsSync(join(home, 'skills', name)));
}
