// Hermes's own flat keys under `delegation:` (tools/delegate_tool.py, hermes_cli/config_defaults.py
// in Hermes 0.20.0), read as Hermes reads them: an empty string means "inherit from the parent",
// `reasoning_effort: false` means none. Keys Hermes has that we do not use
// (max_summary_chars, child_timeout_seconds, ...) are left alone; a wrong type in a key we use is
// an error, because the built-in mode would otherwise run on something the operator did not ask for.
import type {BuiltinDelegation, ReasoningEffort} from '../types.js';
import {reasoningEfforts} from '../types.js';

export type BuiltinProblem = {key: string; message: string; fix: string};

export type BuiltinParse = {builtin: BuiltinDelegation; problems: BuiltinProblem[]; warnings: Array<{key: string; message: string}>};

// Every key Hermes 0.20's delegate_task reads from `delegation:`, and the plugin's two.
const hermesKeys = new Set(['model', 'provider', 'base_url', 'api_key', 'api_mode', 'reasoning_effort', 'max_iterations', 'max_concurrent_children', 'max_async_children', 'max_summary_chars', 'child_timeout_seconds', 'max_spawn_depth', 'orchestrator_enabled', 'subagent_auto_approve', 'inherit_mcp_toolsets']);
const pluginKeys = new Set(['backend', 'backends']);

const textKeys = ['model', 'provider', 'base_url', 'api_key', 'api_mode'] as const;
const countKeys = ['max_iterations', 'max_concurrent_children'] as const;
// Hermes's delegate_task honours only these; any other value means "detect from the URL".
const apiModes = ['chat_completions', 'codex_responses', 'anthropic_messages'];

export function parseBuiltinDelegation(section: Record<string, unknown>): BuiltinParse {
	const builtin: BuiltinDelegation = {};
	const problems: BuiltinProblem[] = [];
	const warnings: Array<{key: string; message: string}> = [];

	for (const key of textKeys) {
		const value = section[key];
		if (value === undefined || value === null) {
			continue;
		}

		if (typeof value !== 'string') {
			problems.push({key, message: `must be text, got ${kindOf(value)}`, fix: `write delegation.${key} as text in quotes, or leave it empty to inherit the parent's`});
			continue;
		}

		const trimmed = value.trim();
		if (trimmed !== '') {
			builtin[key] = key === 'api_mode' ? trimmed.toLowerCase() : trimmed;
		}
	}

	for (const key of Object.keys(section)) {
		if (!hermesKeys.has(key) && !pluginKeys.has(key)) {
			// A typo (`max_concurent_children`) would otherwise be ignored by Hermes and by us alike.
			warnings.push({key, message: 'neither Hermes (0.20) nor the routing plugin reads this key, so it does nothing; check its spelling'});
		}
	}

	if (section['max_async_children'] !== undefined) {
		warnings.push({key: 'max_async_children', message: 'Hermes replaced this key by max_concurrent_children (its `hermes config migrate` folds it in)'});
	}

	if (builtin.api_key !== undefined) {
		warnings.push({key: 'api_key', message: 'an API key is stored in plain text in this file; prefer the profile\'s .env'});
	}

	if (builtin.api_mode !== undefined && !apiModes.includes(builtin.api_mode)) {
		warnings.push({key: 'api_mode', message: `Hermes ignores this api_mode and detects one from base_url (it knows ${apiModes.join(', ')})`});
		delete builtin.api_mode;
	}

	const effort = section['reasoning_effort'];
	const parsedEffort = parseEffort(effort);
	if (parsedEffort === 'invalid') {
		problems.push({key: 'reasoning_effort', message: `must be one of ${reasoningEfforts.join(', ')}, got ${kindOf(effort)}`, fix: 'pick one of those, or leave reasoning_effort empty to inherit the parent\'s'});
	} else if (parsedEffort !== undefined) {
		builtin.reasoning_effort = parsedEffort;
	}

	for (const key of countKeys) {
		const value = section[key];
		if (value === undefined || value === null) {
			continue;
		}

		if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
			problems.push({key, message: `must be a whole number of at least 1, got ${kindOf(value)}`, fix: key === 'max_iterations' ? 'the tool-calling turns each subagent may take, e.g. 50 (without quotes)' : 'how many subagents run at once, e.g. 3 (without quotes)'});
			continue;
		}

		builtin[key] = value;
	}

	return {builtin, problems, warnings};
}

function parseEffort(value: unknown): ReasoningEffort | undefined | 'invalid' {
	if (value === undefined || value === null) {
		return undefined;
	}

	// YAML `false`/`off`/`no` is Hermes's way of writing "no reasoning" (hermes_constants.parse_reasoning_effort).
	if (value === false) {
		return 'none';
	}

	if (typeof value !== 'string') {
		return 'invalid';
	}

	const level = value.trim().toLowerCase();
	if (level === '') {
		return undefined;
	}

	if (level === 'false' || level === 'disabled') {
		return 'none';
	}

	return (reasoningEfforts as readonly string[]).includes(level) ? level as ReasoningEffort : 'invalid';
}

/** What a value is, never the value itself (it may be a key, and it is untrusted text). */
function kindOf(value: unknown): string {
	if (Array.isArray(value)) {
		return 'a list';
	}

	if (typeof value === 'string') {
		return value.length <= 40 && /^[\w.:/-]*$/.test(value) ? `"${value}"` : 'other text';
	}

	if (typeof value === 'object' && value !== null) {
		return 'a map';
	}

	return String(value);
}
