// config.yaml read as Hermes's PyYAML (YAML 1.1) reads it, checked against the config.yaml and
// profile configs the real Hermes wrote in the recorded runs: `off`/`no` are booleans, merge keys
// are honoured, and a character PyYAML refuses makes the file refused here too.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {parseHermesConfig, type ParsedConfig} from '../../../src/core/config/parse.js';
import {applyRouteEdit} from '../../../src/core/config/edit.js';
import {InputError} from '../../../src/core/errors.js';

const recordedDir = path.join(fileURLToPath(new URL('../../..', import.meta.url)), '..', 'shared', 'hermes-agent', 'recorded');
const haveRecordings = existsSync(recordedDir);
if (!haveRecordings) {
	console.warn(`skipping the recorded-config tests: no recordings at ${recordedDir}`);
}

type Recorded = {label: string; text: string};

/** Every distinct config.yaml and profile config.yaml the recorded Hermes runs started from. */
function recordedConfigs(): Recorded[] {
	const seen = new Map<string, string>();
	for (const version of readdirSync(recordedDir).filter(name => /^\d+\.\d+\.\d+$/.test(name))) {
		for (const file of readdirSync(path.join(recordedDir, version)).filter(name => name.endsWith('.json'))) {
			const run = JSON.parse(readFileSync(path.join(recordedDir, version, file), 'utf8')) as {config_yaml?: unknown; profiles?: Record<string, unknown>};
			const texts: Array<[string, unknown]> = [['config.yaml', run.config_yaml], ...Object.entries(run.profiles ?? {}).map(([name, text]): [string, unknown] => [`profiles/${name}/config.yaml`, text])];
			for (const [which, text] of texts) {
				if (typeof text === 'string' && !seen.has(text)) {
					seen.set(text, `${version}/${file}: ${which}`);
				}
			}
		}
	}

	return [...seen].map(([text, label]) => ({label, text}));
}

/** The recorded config that has a delegation section: the one the routing runs used. */
function recordedRoutingConfig(): string {
	const found = recordedConfigs().find(config => config.text.includes('\ndelegation:\n'));
	if (!found) {
		throw new Error(`no recorded config.yaml under ${recordedDir} has a delegation section`);
	}

	return found.text;
}

const parse = (text: string): ParsedConfig => parseHermesConfig(text, {file: 'config.yaml', profileExists: () => true});

function refusal(text: string): InputError {
	try {
		parse(text);
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}

	throw new Error('expected the config to be refused');
}

describe.runIf(haveRecordings)('the configs the real Hermes wrote', () => {
	it('every recorded config.yaml and profile config loads, routes included', () => {
		const configs = recordedConfigs();
		expect(configs.length).toBeGreaterThan(3);
		for (const config of configs) {
			expect(() => parse(config.text), config.label).not.toThrow();
		}

		const routing = parse(recordedRoutingConfig()).delegation;
		expect(routing.modelMap.options.map(route => route.name)).toEqual(['fast', 'deep', 'coding', 'direct']);
		expect(routing.modelMap.options[1]?.reasoning_effort).toBe('high');
	});

	it('a route\'s `reasoning_effort: off` (false to PyYAML) is none, and so is the flat key\'s', () => {
		const text = recordedRoutingConfig().replace('reasoning_effort: high', 'reasoning_effort: off').replace('delegation:\n', 'delegation:\n  reasoning_effort: no\n');
		const {delegation} = parse(text);
		expect(delegation.modelMap.options[1]?.reasoning_effort).toBe('none');
		expect(delegation.builtin.reasoning_effort).toBe('none');
	});

	it('a merge key (`<<: *base`) gives a route the merged fields, its own keys winning', () => {
		const text = recordedRoutingConfig().replace(
			'        - name: deep\n',
			'        - &deep_route\n          name: deep\n',
		).replace(
			'      default: fast\n    profile_routes:',
			'        - <<: *deep_route\n          name: deep-cheap\n          reasoning_effort: low\n      default: fast\n    profile_routes:',
		);
		const route = parse(text).delegation.modelMap.options.find(option => option.name === 'deep-cheap');
		expect(route).toEqual({kind: 'model', name: 'deep-cheap', description: 'Slow and careful: hard debugging and design work.', provider: 'mockb', model: 'mock-deep', reasoning_effort: 'low'});
	});

	it('a description PyYAML reads as false (`no`) is shown as written, with a warning to quote it', () => {
		const text = recordedRoutingConfig().replace('description: Writes and refactors code; runs tests.', 'description: no');
		const parsed = parse(text);
		expect(parsed.delegation.profileRoutes.profiles[0]?.description).toBe('no');
		expect(parsed.warnings).toContainEqual(expect.stringMatching(/profiles\[0\]\.description: Hermes's YAML reader takes "no" as the boolean false, not text.*quotes \("no"\)/));
	});

	it('an edit next to a merge key keeps the merge, and re-reads as PyYAML would', () => {
		const text = recordedRoutingConfig().replace('        - name: deep\n', '        - &deep_route\n          name: deep\n').replace(
			'      default: fast\n    profile_routes:',
			'        - <<: *deep_route\n          name: deep-cheap\n      default: fast\n    profile_routes:',
		);
		const edited = applyRouteEdit(text, {kind: 'set-field', list: 'model_map', name: 'deep-cheap', field: 'description', value: 'off'}, 'config.yaml');
		const routes = parse(edited).delegation.modelMap.options;
		expect(routes.find(route => route.name === 'deep-cheap')).toMatchObject({description: 'off', model: 'mock-deep', provider: 'mockb'});
		expect(routes.find(route => route.name === 'deep')?.description).toBe('Slow and careful: hard debugging and design work.');
		expect(edited).toContain('<<: *deep_route\n          name: deep-cheap\n          description: "off"\n');
	});
});

describe('characters Hermes\'s reader refuses', () => {
	it.each([['U+FFFE', '\uFFFE'], ['U+FFFF', '\uFFFF'], ['U+0001', '\u0001'], ['U+007F', '\u007F'], ['U+D800', '\uD800']])('a raw %s anywhere in the file is refused with its line and the fix', (name, char) => {
		const problem = refusal(`model: x\ndelegation:\n  backend: default\nnote: "a${char}b"\n`);
		expect(problem.message).toContain(`the character ${name}, which Hermes's YAML reader (PyYAML) refuses`);
		expect(problem.location.line).toBe(4);
		expect(problem.fix).toMatch(/escape inside double quotes/);
	});

	it('the characters PyYAML accepts load: tab, NEL, NBSP, private use, astral, and the same ones as escapes', () => {
		expect(() => parse('note: "a\tb\u0085c\u00A0d\uE000e\u{1F600}f\\uFFFE"\n')).not.toThrow();
	});
});

describe('route names', () => {
	const withName = (name: string) => `delegation:\n  backend: model_map\n  backends:\n    model_map:\n      options:\n        - name: ${name}\n          description: d\n          provider: p\n          model: m\n`;

	it.each([['a newline inside', '"fa\\nst"'], ['a space and "!"', '"bad name!"'], ['a colon', '"a:b"'], ['a leading dash', '"-fast"'], ['65 characters', 'x'.repeat(65)]])('a model_map name with %s is refused, naming the field and the rule', (_label, name) => {
		const problem = refusal(withName(name));
		expect(problem.location.path).toBe('delegation.backends.model_map.options[0].name');
		expect(problem.location.line).toBe(6);
		expect(problem.message).toMatch(/is not a valid route name$/);
		expect(problem.fix).toMatch(/1-64 characters of letters, digits, "_", "-" and "\."/);
	});

	it.each(['fast', 'Deep', 'gemini-3.1_flash', 'x'.repeat(64)])('%s is a valid model_map name', name => {
		expect(parse(withName(name)).delegation.modelMap.options[0]?.name).toBe(name);
	});

	it('a profile route with a newline in its name is refused by the profile-name rule', () => {
		const text = 'delegation:\n  backends:\n    profile_routes:\n      profiles:\n        - name: "co\\nder"\n          description: d\n';
		expect(refusal(text).message).toMatch(/is not a valid profile name/);
	});

	it('add-route with a bad name is refused by the same check when saved', () => {
		const edited = applyRouteEdit(withName('fast'), {kind: 'add-route', list: 'model_map', route: {name: 'bad name!', description: 'd', model: 'm', provider: 'p'}}, 'config.yaml');
		expect(refusal(edited).location.path).toBe('delegation.backends.model_map.options[1].name');
	});
});

describe('config.yaml as Hermes 0.21 reads it: ruamel.yaml, YAML 1.1 (upstream hermes_yaml.py)', () => {
	const withDescription = (value: string) => `delegation:\n  backend: model_map\n  backends:\n    model_map:\n      options:\n        - name: fast\n          description: ${value}\n          provider: p\n          model: m\n`;

	it.each(['y', 'n', 'Y', 'N'])('a bare %s is a boolean to Hermes: the text is used as written, with a warning to quote it', value => {
		const parsed = parse(withDescription(value));
		expect(parsed.delegation.modelMap.options[0]?.description).toBe(value);
		expect(parsed.warnings).toContainEqual(expect.stringContaining(`Put it in quotes ("${value}")`));
	});

	it('a key written twice in one map is refused with its name, the line of its second time and the fix', () => {
		const problem = refusal('model: a\ndelegation:\n  backend: default\n  max_iterations: 5\n  backend: model_map\n');
		expect(problem.message).toMatch(/^the key "backend" is written twice in the same map .*ruamel\.yaml, which refuses the whole file/);
		expect(problem.location.line).toBe(5);
		expect(problem.fix).toBe('keep one "backend:" in that map, with what the two held merged into it');
	});

	it('a key written twice anywhere in the file is refused, not only under delegation', () => {
		expect(refusal('display:\n  interface: cli\n  interface: tui\ndelegation:\n  backend: default\n').message).toMatch(/"interface" is written twice/);
	});

	it.each(['y', 'n', 'yes', 'off', 'Y'])('an edit writes %s quoted, so Hermes reads text back', value => {
		const edited = applyRouteEdit(withDescription('Quick.'), {kind: 'set-field', list: 'model_map', name: 'fast', field: 'description', value}, 'config.yaml');
		expect(edited).toContain(`description: "${value}"\n`);
		expect(parse(edited).warnings).toEqual([]);
	});
});
