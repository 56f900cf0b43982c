// Hermes's own flat `delegation:` keys, read next to the plugin's backend/backends.
import {afterEach, describe, expect, it} from 'vitest';
import {loadHermesConfig} from '../../../src/core/config/config.js';
import {InputError, InputErrors} from '../../../src/core/errors.js';
import {removeHermesHomes, writeHermesHome} from '../../helpers/hermes-home.js';

afterEach(removeHermesHomes);

function load(config: string) {
	const {home, configPath} = writeHermesHome({config});
	return loadHermesConfig({configPath, hermesHome: home});
}

function problemsOf(config: string): InputError[] {
	try {
		load(config);
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error instanceof InputErrors ? error.problems : [error as InputError];
	}

	throw new Error('expected the config to be refused');
}

describe('Hermes\'s flat delegation keys', () => {
	it('are read into builtin next to the plugin\'s backend, and Hermes keys we do not use are ignored', () => {
		const loaded = load(`delegation:
  model: google/gemini-3-flash-preview
  provider: openrouter
  base_url: ""
  api_mode: Chat_Completions
  reasoning_effort: High
  max_iterations: 40
  max_concurrent_children: 6
  max_summary_chars: 24000
  child_timeout_seconds: 0
  inherit_mcp_toolsets: true
  backend: default
`);
		expect(loaded.delegation.mode).toBe('default');
		expect(loaded.delegation.builtin).toEqual({
			model: 'google/gemini-3-flash-preview',
			provider: 'openrouter',
			api_mode: 'chat_completions',
			reasoning_effort: 'high',
			max_iterations: 40,
			max_concurrent_children: 6,
		});
		expect(loaded.warnings).toEqual([]);
	});

	it('Hermes\'s own defaults (empty strings) mean "inherit": nothing is set', () => {
		const loaded = load('delegation:\n  model: ""\n  provider: ""\n  base_url: ""\n  api_key: ""\n  api_mode: ""\n  reasoning_effort: ""\n');
		expect(loaded.delegation.builtin).toEqual({});
		expect(loaded.warnings).toEqual([]);
	});

	it.each([['false', 'false'], ['"disabled"', '"disabled"'], ['none', 'none']])('reasoning_effort: %s means none, as Hermes reads it', (_label, value) => {
		expect(load(`delegation:\n  reasoning_effort: ${value}\n`).delegation.builtin.reasoning_effort).toBe('none');
	});

	it('a plain-text api_key is kept for the route and warned about, never shown', () => {
		const loaded = load('delegation:\n  base_url: http://127.0.0.1:9/v1\n  api_key: sk-secret-123\n');
		expect(loaded.delegation.builtin.api_key).toBe('sk-secret-123');
		expect(loaded.warnings).toHaveLength(1);
		expect(loaded.warnings[0]).toMatch(/delegation\.api_key: an API key is stored in plain text/);
		expect(loaded.warnings[0]).not.toContain('sk-secret');
	});

	it('an api_mode Hermes does not know is a warning, and left out (Hermes detects one)', () => {
		const loaded = load('delegation:\n  api_mode: grpc\n');
		expect(loaded.delegation.builtin.api_mode).toBeUndefined();
		expect(loaded.warnings[0]).toMatch(/delegation\.api_mode: Hermes ignores this api_mode/);
	});

	it.each([
		['model: [a, b]', 'model', /must be text, got a list/, 3],
		['provider: 12', 'provider', /must be text, got 12/, 3],
		['api_key: {a: 1}', 'api_key', /must be text, got a map/, 3],
		['reasoning_effort: extreme', 'reasoning_effort', /must be one of none, minimal.*got "extreme"/, 3],
		['reasoning_effort: 3', 'reasoning_effort', /must be one of/, 3],
		['max_iterations: "50"', 'max_iterations', /whole number of at least 1, got other text|got "50"/, 3],
		['max_concurrent_children: 0', 'max_concurrent_children', /whole number of at least 1, got 0/, 3],
		['max_concurrent_children: 2.5', 'max_concurrent_children', /got 2.5/, 3],
	])('%s is refused naming file, path, line and fix', (line, key, message, lineNumber) => {
		const {home, configPath} = writeHermesHome({config: `# Hermes config\ndelegation:\n  ${line}\n  backend: default\n`});
		let caught: unknown;
		try {
			loadHermesConfig({configPath, hermesHome: home});
		} catch (error) {
			caught = error;
		}

		expect(caught).toBeInstanceOf(InputError);
		const problem = caught as InputError;
		expect(problem.location).toEqual({file: configPath, path: `delegation.${key}`, line: lineNumber});
		expect(problem.message).toMatch(message);
		expect(problem.fix).toBeTruthy();
	});

	it('a wrong flat key and a broken route are reported together', () => {
		const problems = problemsOf('delegation:\n  max_iterations: many\n  backend: model_map\n  backends:\n    model_map:\n      options: []\n');
		expect(problems.map(problem => problem.location.path)).toEqual(['delegation.max_iterations', 'delegation.backends.model_map']);
	});
});

describe('keys nobody reads', () => {
	it('a misspelt key is a warning naming it, not silence', () => {
		const loaded = load('delegation:\n  max_concurent_children: 8\n  backend: default\n');
		expect(loaded.warnings).toEqual([expect.stringMatching(/delegation\.max_concurent_children: neither Hermes \(0\.20\) nor the routing plugin reads this key/)]);
		expect(loaded.delegation.builtin).toEqual({});
	});

	it('the deprecated max_async_children is named with its replacement', () => {
		expect(load('delegation:\n  max_async_children: 8\n').warnings).toEqual([expect.stringMatching(/delegation\.max_async_children: Hermes replaced this key by max_concurrent_children/)]);
	});
});
