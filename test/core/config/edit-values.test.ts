// Whatever text an operator types as a description or model, the file afterwards says exactly
// that to this tool and to Hermes (PyYAML, YAML 1.1), and only that one line changed.
import {spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {parse} from 'yaml';
import {applyRouteEdit} from '../../../src/core/config/edit.js';
import {pyYamlRefusal} from '../../../src/core/yaml/pyyaml.js';
import {lineDiff} from '../../../src/core/text/line-diff.js';

const config = (description: string) => `delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: ${description}   # why
          provider: openrouter
          model: m
        - {name: flow, description: "d", provider: p, model: m}
`;

const values = [
	'plain words',
	'Cheap: lookups',
	'has # a hash',
	'#starts with a hash',
	'- starts with a dash',
	'yes', 'off', 'No', '~', 'null', '12', '0x1F', '1:20', '2026-11-30', '.inf',
	'it\'s "quoted"',
	'back\\slash',
	'tab\there',
	'two\nlines',
	' leading space', 'trailing space ',
	'[brackets], {braces}',
	'é ü 中文 🙂',
	'&anchor *alias !tag',
	'%percent @at `tick`',
	'\u0085 next-line \u2028 separator',
	'non\uFFFEcharacters\uFFFF PyYAML refuses raw',
	'a C1 \u0090 control and DEL \u007F',
];

function pyYamlDescription(text: string, index: number): unknown {
	const run = spawnSync('python3', ['-c', `import sys, json, yaml; d = yaml.safe_load(sys.stdin.read()); print(json.dumps(d["delegation"]["backends"]["model_map"]["options"][${index}]["description"]))`], {input: text, encoding: 'utf8'});
	return run.status === 0 ? JSON.parse(run.stdout) as unknown : `python3 failed: ${run.stderr}`;
}

const hasPyYaml = spawnSync('python3', ['-c', 'import yaml'], {encoding: 'utf8'}).status === 0;

describe.each([['a plain value', 'plain'], ['a double-quoted value', '"double"'], ['a single-quoted value', '\'single\'']])('replacing %s', (_label, written) => {
	const before = config(written);
	it.each(values.map(value => [JSON.stringify(value), value]))('with %s reads back exactly, one line changed', (_shown, value) => {
		const after = applyRouteEdit(before, {kind: 'set-field', list: 'model_map', name: 'fast', field: 'description', value}, 'config.yaml');
		const read = parse(after) as {delegation: {backends: {model_map: {options: Array<{description: string}>}}}};
		expect(read.delegation.backends.model_map.options[0]!.description).toBe(value);
		// Hermes reads the file at all only if no character of it is one PyYAML refuses.
		expect(pyYamlRefusal(after)).toBeUndefined();
		const hunks = lineDiff(before, after);
		expect(hunks).toHaveLength(1);
		expect(hunks[0]).toMatchObject({line: 7, removed: [`          description: ${written}   # why`]});
		expect(hunks[0]!.added).toHaveLength(1);
		expect(hunks[0]!.added[0]).toMatch(/^ {10}description: .* {3}# why$/);
		if (hasPyYaml) {
			expect(pyYamlDescription(after, 0)).toBe(value);
		}
	});
});

describe('in a flow map', () => {
	it.each(values.map(value => [JSON.stringify(value), value]))('%s reads back exactly', (_shown, value) => {
		const before = config('x');
		const after = applyRouteEdit(before, {kind: 'set-field', list: 'model_map', name: 'flow', field: 'description', value}, 'config.yaml');
		expect((parse(after) as {delegation: {backends: {model_map: {options: Array<{description: string}>}}}}).delegation.backends.model_map.options[1]!.description).toBe(value);
		expect(lineDiff(before, after).map(hunk => hunk.line)).toEqual([10]);
		expect(pyYamlRefusal(after)).toBeUndefined();
		if (hasPyYaml) {
			expect(pyYamlDescription(after, 1)).toBe(value);
		}
	});
});

describe('a file with Windows line ends', () => {
	it('keeps CRLF on every line, new ones included', () => {
		const before = config('"old"').replaceAll('\n', '\r\n');
		const changed = applyRouteEdit(before, {kind: 'set-field', list: 'model_map', name: 'fast', field: 'reasoning_effort', value: 'high'}, 'config.yaml');
		const added = applyRouteEdit(changed, {kind: 'add-route', list: 'model_map', route: {name: 'deep', description: 'D', model: 'm', provider: 'p'}}, 'config.yaml');
		expect(added.replaceAll('\r\n', '')).not.toContain('\n');
		expect(added.split('\r\n')).toHaveLength(before.split('\r\n').length + 5);
	});
});

it.skipIf(hasPyYaml)('PyYAML cross-check skipped: python3 with the yaml module is not installed', () => {});
