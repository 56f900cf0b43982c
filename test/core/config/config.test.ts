import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {defaultConfigPath, loadHermesConfig, type LoadedConfig} from '../../../src/core/config/config.js';
import {InputError, InputErrors} from '../../../src/core/errors.js';
import {removeHermesHomes, writeHermesHome, type HermesHomeSpec} from '../../helpers/hermes-home.js';

afterEach(removeHermesHomes);

function load(spec: HermesHomeSpec): LoadedConfig {
	const {home, configPath} = writeHermesHome(spec);
	return loadHermesConfig({configPath, hermesHome: home});
}

function problemsOf(spec: HermesHomeSpec): InputError[] {
	const {home, configPath} = writeHermesHome(spec);
	try {
		loadHermesConfig({configPath, hermesHome: home});
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		const problems = error instanceof InputErrors ? error.problems : [error as InputError];
		for (const problem of problems) {
			expect(problem.location.file).toBe(configPath);
		}

		return problems;
	}

	throw new Error('expected the config to be refused');
}

const modelMap = (options: string, extra = '') => `delegation:
  backend: model_map
  backends:
    model_map:
      options:
${options}${extra}`;

const fast = `        - name: fast
          description: "Cheap and quick: lookups, summaries, simple edits."
          provider: openrouter
          model: google/gemini-3-flash-preview
`;

const profileRoutes = (profiles: string, backend = 'profile_routes', extra = '') => `delegation:
  backend: ${backend}
  backends:
    profile_routes:
      profiles:
${profiles}${extra}`;

describe('loadHermesConfig: the default mode', () => {
	it('a missing config.yaml means the built-in behaviour, not an error', () => {
		const {home} = writeHermesHome();
		const loaded = loadHermesConfig({configPath: defaultConfigPath(home), hermesHome: home});
		expect(loaded.delegation).toMatchObject({mode: 'default', modelMap: {options: []}, profileRoutes: {profiles: []}, source: {exists: false}});
		expect(loaded.document).toBeUndefined();
	});

	it.each([
		['an empty file', ''],
		['a file without delegation', 'model: anthropic/claude\n'],
		['an empty delegation section', 'delegation:\n'],
		['backend: default', 'delegation:\n  backend: default\n'],
	])('%s means the default mode', (_label, config) => {
		expect(load({config}).delegation.mode).toBe('default');
	});
});

describe('loadHermesConfig: model routes', () => {
	it('reads the PRODUCT.md example with every route field', () => {
		const loaded = load({config: modelMap(`${fast}        - name: deep
          description: "Slow and careful: hard debugging and design work."
          provider: anthropic
          model: claude-opus-5
          reasoning_effort: high
          service_tier: priority
          fallback_providers: [openrouter]
          api_mode: responses
`, '      default: fast\n')});
		expect(loaded.delegation.mode).toBe('model_map');
		expect(loaded.delegation.modelMap.default).toBe('fast');
		expect(loaded.delegation.modelMap.options).toEqual([
			{kind: 'model', name: 'fast', description: 'Cheap and quick: lookups, summaries, simple edits.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'},
			{kind: 'model', name: 'deep', description: 'Slow and careful: hard debugging and design work.', provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high', service_tier: 'priority', fallback_providers: ['openrouter'], api_mode: 'responses'},
		]);
		expect(loaded.warnings).toEqual([]);
	});

	it('a base_url stands in for the provider', () => {
		const loaded = load({config: modelMap('        - name: local\n          description: A local server.\n          base_url: http://localhost:8080/v1\n          model: qwen\n')});
		expect(loaded.delegation.modelMap.options[0]).toMatchObject({name: 'local', base_url: 'http://localhost:8080/v1'});
	});

	it.each([
		['no provider and no base_url', '        - name: fast\n          description: d\n          model: m\n', 'delegation.backends.model_map.options[0].provider', 6, /provider.*base_url/],
		['no model', '        - name: fast\n          description: d\n          provider: p\n', 'delegation.backends.model_map.options[0].model', 6, /^missing required field "model"$/],
		['a blank description', '        - name: fast\n          description: "  "\n          model: m\n          provider: p\n', 'delegation.backends.model_map.options[0].description', 7, /must not be empty/],
		['an unknown reasoning_effort', '        - name: fast\n          description: d\n          model: m\n          provider: p\n          reasoning_effort: extreme\n', 'delegation.backends.model_map.options[0].reasoning_effort', 10, /xhigh/],
	])('a route with %s is refused at its YAML path and line', (_label, options, yamlPath, line, message) => {
		const [problem, ...rest] = problemsOf({config: modelMap(options)});
		expect(rest).toEqual([]);
		expect(problem!.location).toMatchObject({path: yamlPath, line});
		expect(problem!.message).toMatch(message);
	});

	it('reports every broken route in one pass', () => {
		const problems = problemsOf({config: modelMap('        - name: a\n          description: d\n          model: m\n        - name: b\n          description: d\n          provider: p\n')});
		expect(problems.map(problem => problem.location.path)).toEqual([
			'delegation.backends.model_map.options[0].provider',
			'delegation.backends.model_map.options[1].model',
		]);
	});

	it('a route name used twice is refused at the second one', () => {
		const [problem] = problemsOf({config: modelMap(`${fast}${fast}`)});
		expect(problem!.message).toBe('route name "fast" is used twice');
		expect(problem!.location).toMatchObject({path: 'delegation.backends.model_map.options[1].name', line: 10});
	});

	it('a default that is not one of the routes is refused with the names to choose from', () => {
		const [problem] = problemsOf({config: modelMap(fast, '      default: deep\n')});
		expect(problem!.location).toMatchObject({path: 'delegation.backends.model_map.default', line: 10});
		expect(problem!.fix).toBe('set default to one of: fast');
	});

	it('an unknown backend is refused with the valid choices', () => {
		const [problem] = problemsOf({config: 'delegation:\n  backend: models\n'});
		expect(problem!.location).toMatchObject({path: 'delegation.backend', line: 2});
		expect(problem!.fix).toMatch(/model_map, profile_routes or default/);
	});

	it('an unknown route field is a warning naming its path, not an error', () => {
		const loaded = load({config: modelMap(fast.replace('model: google', 'temperature: 0.2\n          model: google'))});
		expect(loaded.warnings).toEqual([expect.stringMatching(/options\[0\]\.temperature: unknown route field, ignored by hermes-delegate \(route fields: name, description, model, provider, base_url, /)]);
	});
});

describe('loadHermesConfig: messages in our wording, never zod\'s', () => {
	const route = (fields: string) => modelMap(`        - name: fast\n${fields}`);

	it('a route missing its description names the field, its path, its line and what a route needs', () => {
		const [problem, ...rest] = problemsOf({config: route('          provider: p\n          model: m\n')});
		expect(rest).toEqual([]);
		expect(problem!.message).toBe('missing required field "description"');
		expect(problem!.location).toMatchObject({path: 'delegation.backends.model_map.options[0].description', line: 6});
		expect(problem!.fix).toMatch(/^a model route needs name, description, model, and provider or base_url/);
	});

	it.each([
		['a description that is a number', '          description: 42\n          provider: p\n          model: m\n', 'options[0].description', 'expected a string, got a number'],
		['a model that is a list', '          description: d\n          provider: p\n          model: [a, b]\n', 'options[0].model', 'expected a string, got a list'],
		['an unknown reasoning_effort', '          description: d\n          provider: p\n          model: m\n          reasoning_effort: extreme\n', 'options[0].reasoning_effort', 'must be one of: none, minimal, low, medium, high, xhigh, max, ultra'],
		['fallback_providers given as one string', '          description: d\n          provider: p\n          model: m\n          fallback_providers: openrouter\n', 'options[0].fallback_providers', 'expected a list, got a string'],
	])('%s', (_label, fields, yamlPath, message) => {
		const [problem] = problemsOf({config: route(fields)});
		expect(problem!.message).toBe(message);
		expect(problem!.location.path).toBe(`delegation.backends.model_map.${yamlPath}`);
		expect(problem!.fix).toBeTruthy();
	});

	it('an unknown backend lists the choices', () => {
		const [problem] = problemsOf({config: 'delegation:\n  backend: models\n'});
		expect(problem!.message).toBe('must be one of: model_map, profile_routes, default');
	});

	it('a delegation section that is not a mapping says what it got', () => {
		const [problem] = problemsOf({config: 'delegation: 5\n'});
		expect(problem!.message).toBe('expected an object, got a number');
		expect(problem!.location).toMatchObject({path: 'delegation', line: 1});
	});

	it('a profile route missing its name says what a profile route needs', () => {
		const [problem] = problemsOf({config: profileRoutes('        - description: d\n')});
		expect(problem!.message).toBe('missing required field "name"');
		expect(problem!.fix).toMatch(/profile route needs name/);
	});
});

describe('loadHermesConfig: --config given explicitly', () => {
	it('a path that does not exist is an error naming it and the way back to the default', () => {
		const {home} = writeHermesHome();
		const missing = path.join(home, 'nope', 'config.yaml');
		let caught: unknown;
		try {
			loadHermesConfig({configPath: missing, hermesHome: home, explicit: true});
		} catch (error) {
			caught = error;
		}

		expect(caught).toBeInstanceOf(InputError);
		const problem = caught as InputError;
		expect(problem.message).toBe(`config file not found: ${missing}`);
		expect(problem.location.file).toBe(missing);
		expect(problem.fix).toBe(`check the path, or leave --config out to use $HERMES_HOME/config.yaml (here ${defaultConfigPath(home)})`);
	});

	it('a path that exists is read as usual', () => {
		const {home, configPath} = writeHermesHome({config: modelMap(fast)});
		expect(loadHermesConfig({configPath, hermesHome: home, explicit: true}).delegation.mode).toBe('model_map');
	});

	it('the default path missing is still the built-in mode', () => {
		const {home} = writeHermesHome();
		expect(loadHermesConfig({configPath: defaultConfigPath(home), hermesHome: home, explicit: false}).delegation.mode).toBe('default');
	});
});

describe('loadHermesConfig: a plain-text api_key', () => {
	const secret = 'sk-or-v1-SECRET-do-not-print';
	const withKey = fast.replace('model: google', `api_key: ${secret}\n          model: google`);

	it('is accepted with a warning that names where it is and never what it is', () => {
		const loaded = load({config: modelMap(withKey)});
		expect(loaded.delegation.modelMap.options[0]?.api_key).toBe(secret);
		expect(loaded.warnings).toHaveLength(1);
		expect(loaded.warnings[0]).toMatch(/options\[0\]\.api_key: an API key is stored in plain text/);
		expect(loaded.warnings.join('\n')).not.toContain(secret);
	});

	it.each([
		['another field of its route is broken', withKey.replace('provider: openrouter', 'provider: ""')],
		['its route has a duplicate name', `${withKey}${withKey}`],
		['the YAML around it is broken', withKey.replace(`api_key: ${secret}`, `api_key: ${secret}: oops`)],
	])('does not appear in the error when %s', (_label, options) => {
		const problems = problemsOf({config: modelMap(options)});
		for (const problem of problems) {
			expect(problem.describe()).not.toContain(secret);
			expect(problem.message).not.toContain(secret);
		}
	});
});

describe('loadHermesConfig: profile routes', () => {
	const coder = '        - name: coder\n          description: Writes and refactors code; runs tests.\n';

	it('reads profiles whose folders exist', () => {
		const loaded = load({config: profileRoutes(coder, 'profile_routes', '      default: coder\n'), profiles: ['coder']});
		expect(loaded.delegation.mode).toBe('profile_routes');
		expect(loaded.delegation.profileRoutes).toEqual({profiles: [{kind: 'profile', name: 'coder', description: 'Writes and refactors code; runs tests.'}], default: 'coder'});
		expect(loaded.warnings).toEqual([]);
	});

	it('carries the model each profile\'s own config.yaml names, read as Hermes reads it (as doctor shows it)', () => {
		const routes = '        - name: coder\n          description: c\n        - name: researcher\n          description: r\n        - name: writer\n          description: w\n        - name: broken\n          description: b\n';
		const {home, configPath} = writeHermesHome({config: profileRoutes(routes), profiles: ['coder', 'researcher', 'writer', 'broken']});
		// The shape `hermes profile create` writes (model.default), the short form, none, and a file Hermes could not read.
		writeFileSync(path.join(home, 'profiles', 'coder', 'config.yaml'), 'base: &base\n  default: profile-coder-model\n  provider: custom\nmodel:\n  <<: *base\n');
		writeFileSync(path.join(home, 'profiles', 'researcher', 'config.yaml'), 'model: profile-researcher-model\n');
		writeFileSync(path.join(home, 'profiles', 'writer', 'config.yaml'), 'agent:\n  max_turns: 3\n');
		writeFileSync(path.join(home, 'profiles', 'broken', 'config.yaml'), 'model: [unclosed\n');
		const {profiles} = loadHermesConfig({configPath, hermesHome: home}).delegation.profileRoutes;
		expect(Object.fromEntries(profiles.map(route => [route.name, route.configured_model]))).toEqual({
			coder: 'profile-coder-model', researcher: 'profile-researcher-model', writer: undefined, broken: undefined,
		});
	});

	it('normalises a profile name by trimming and lower-casing it', () => {
		const loaded = load({config: profileRoutes('        - name: " Coder "\n          description: d\n'), profiles: ['coder']});
		expect(loaded.delegation.profileRoutes.profiles[0]?.name).toBe('coder');
	});

	it('"default" is the home itself and needs no profiles/ folder', () => {
		expect(load({config: profileRoutes('        - name: default\n          description: d\n')}).warnings).toEqual([]);
	});

	it('a missing profile folder is an error naming the fix when profile_routes is active', () => {
		const [problem] = problemsOf({config: profileRoutes(coder)});
		expect(problem!.message).toMatch(/profile "coder" does not exist/);
		expect(problem!.location).toMatchObject({path: 'delegation.backends.profile_routes.profiles[0].name', line: 6});
		expect(problem!.fix).toMatch(/hermes profile create coder/);
	});

	it('a missing profile folder is only a warning when another mode is active', () => {
		const loaded = load({config: `${profileRoutes(coder, 'default')}`});
		expect(loaded.warnings).toEqual([expect.stringMatching(/profiles\[0\]\.name: profile "coder" does not exist.*not the active mode/)]);
	});

	it.each(['../etc', 'has space', '-leading-dash', 'x'.repeat(65), 'dot.name'])('the invalid profile name %j is refused before any path is built from it', name => {
		const {home, configPath} = writeHermesHome({config: profileRoutes(`        - name: ${JSON.stringify(name)}\n          description: d\n`, 'default')});
		// A folder that a path built from the raw name would find must not make it valid.
		mkdirSync(path.join(home, 'profiles', name), {recursive: true});
		expect(() => loadHermesConfig({configPath, hermesHome: home})).toThrow(/is not a valid profile name/);
	});

	// Bug: config.ts:146 checks duplicates on the raw names, before the loop at :159 normalises
	// them, so " Coder" and "coder" both load as the profile "coder".
	it('two entries that normalise to the same profile are refused as duplicates', () => {
		const [problem] = problemsOf({config: profileRoutes('        - name: Coder\n          description: a\n        - name: coder\n          description: b\n'), profiles: ['coder']});
		expect(problem!.message).toMatch(/used twice/);
	});
});

describe('loadHermesConfig: an active mode with no routes', () => {
	it.each([
		['model_map', 'delegation:\n  backend: model_map\n', /model_map but it has no options/, /model_map\.options/],
		['profile_routes', 'delegation:\n  backend: profile_routes\n  backends:\n    profile_routes:\n      profiles: []\n', /profile_routes but it lists no profiles/, /profile_routes\.profiles/],
	])('%s is refused with the fix', (_mode, config, message, fix) => {
		const [problem] = problemsOf({config});
		expect(problem!.message).toMatch(message);
		expect(problem!.fix).toMatch(fix);
	});

	it('an inactive mode may be empty', () => {
		expect(load({config: modelMap(fast).replace('backend: model_map', 'backend: default')}).delegation.mode).toBe('default');
	});
});

describe('loadHermesConfig: unreadable files', () => {
	it('a syntax error names the file and the fix', () => {
		const [problem] = problemsOf({config: 'delegation:\n  backend: [model_map\n'});
		expect(problem!.message).toMatch(/^not valid YAML/);
	});

	// Bug: as in tasks.ts, prettyErrors:false leaves linePos unset, so config.ts:88 never has a line.
	it('a syntax error names its line', () => {
		const [problem] = problemsOf({config: 'delegation:\n  backend: model_map\n  backend: default\n'});
		expect(problem!.location.line).toBe(3);
	});

	it('an unresolved alias is an input error with the same fix as every other YAML file', () => {
		const [problem] = problemsOf({config: 'delegation:\n  backend: *mode\n'});
		expect(problem!.message).toMatch(/alias/);
		expect(problem!.fix).toMatch(/instead of through YAML anchors and aliases/);
	});

	it('a config path that is a directory is an input error, not a crash', () => {
		const {home} = writeHermesHome();
		mkdirSync(path.join(home, 'config.yaml'));
		expect(() => loadHermesConfig({configPath: path.join(home, 'config.yaml'), hermesHome: home})).toThrow(InputError);
	});
});
