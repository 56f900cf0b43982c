// RouteEdits change exactly the lines they mean to: every comment, quoting style, blank line,
// anchor and unrelated section stays byte-for-byte.
import {describe, expect, it} from 'vitest';
import {applyRouteEdit} from '../../../src/core/config/edit.js';
import type {RouteEdit} from '../../../src/core/types.js';
import {parseHermesConfig} from '../../../src/core/config/parse.js';
import {InputError} from '../../../src/core/errors.js';
import {lineDiff} from '../../../src/core/text/line-diff.js';

// Comments on every line, odd quoting, an anchor and alias, a merge key, a block scalar, flow
// collections, and sections that are not ours.
const original = `# Hermes config — edited by hand    
model:   anthropic/claude-sonnet-5   # the parent's model
x-defaults: &defaults   # an anchor outside delegation
  retries: 3   # ours? no

delegation:   # two owners share this section
  model: ""            # Hermes's own: inherit
  max_concurrent_children: 4   # Hermes's own
  backend: model_map   # the plugin's
  backends:            # one block per mode
    model_map:         # model routes
      options:         # what tasks pick
        # the cheap one
        - name: fast                # quick
          description: "Cheap and quick: lookups, summaries."   # double-quoted
          provider: 'openrouter'    # single-quoted on purpose
          model: google/gemini-3-flash-preview   # plain

        - name: 'deep'              # single-quoted name
          description: 'Slow and careful: it''s for hard debugging.'  # single-quoted
          provider: anthropic       # plain
          model: claude-opus-5      # plain
          reasoning_effort: high    # effort
        - {name: tiny, description: "flow style", provider: p, model: m-1}   # flow map
      default: fast    # default route
    profile_routes:    # profile routes
      profiles:        # the allowlist
        - name: coder  # a profile
          description: >-
            Writes and refactors code;
            runs tests.
      default: coder   # default profile
terminal:     # not ours
  backend: local   # a different 'backend' key
  settings: *defaults   # an alias
	# (no tabs are allowed in YAML indentation, so this comment has none after the tab check)
`.replace('\t# (no tabs are allowed in YAML indentation, so this comment has none after the tab check)\n', '  # trailing comment of terminal\n');

const file = '/tmp/config.yaml';
const profiles = new Set(['coder', 'researcher']);

function edit(text: string, ...edits: RouteEdit[]): string {
	let out = text;
	for (const change of edits) {
		out = applyRouteEdit(out, change, file);
		parseHermesConfig(out, {file, profileExists: name => profiles.has(name)});
	}

	return out;
}

/** The diff as [line, removed, added] triples. */
function changes(before: string, after: string) {
	return lineDiff(before, after).map(hunk => [hunk.line, hunk.removed, hunk.added]);
}

describe('applyRouteEdit on a config with comments everywhere', () => {
	it('the fixture is a valid config to start with', () => {
		const parsed = parseHermesConfig(original, {file, profileExists: name => profiles.has(name)});
		expect(parsed.delegation.modelMap.options.map(route => [route.name, route.provider])).toEqual([['fast', 'openrouter'], ['deep', 'anthropic'], ['tiny', 'p']]);
	});

	it('a description in double quotes stays double-quoted; its comment stays', () => {
		const after = edit(original, {kind: 'set-field', list: 'model_map', name: 'fast', field: 'description', value: 'Cheap: lookups and "quick" fixes.'});
		expect(changes(original, after)).toEqual([[15, ['          description: "Cheap and quick: lookups, summaries."   # double-quoted'], ['          description: "Cheap: lookups and \\"quick\\" fixes."   # double-quoted']]]);
	});

	it('a single-quoted description stays single-quoted', () => {
		const after = edit(original, {kind: 'set-field', list: 'model_map', name: 'deep', field: 'description', value: 'Hard bugs: it\'s slow.'});
		expect(changes(original, after)).toEqual([[20, ['          description: \'Slow and careful: it\'\'s for hard debugging.\'  # single-quoted'], ['          description: \'Hard bugs: it\'\'s slow.\'  # single-quoted']]]);
	});

	it('a plain model stays plain, and one YAML 1.1 would misread is quoted', () => {
		const plain = edit(original, {kind: 'set-field', list: 'model_map', name: 'deep', field: 'model', value: 'claude-opus-5.1'});
		expect(changes(original, plain)).toEqual([[22, ['          model: claude-opus-5      # plain'], ['          model: claude-opus-5.1      # plain']]]);
		const misread = edit(original, {kind: 'set-field', list: 'model_map', name: 'deep', field: 'model', value: 'off'});
		expect(changes(original, misread)).toEqual([[22, ['          model: claude-opus-5      # plain'], ['          model: "off"      # plain']]]);
	});

	it('a field the route lacks is added as a new line under it, at its indentation', () => {
		const after = edit(original, {kind: 'set-field', list: 'model_map', name: 'fast', field: 'reasoning_effort', value: 'low'});
		expect(changes(original, after)).toEqual([[18, [], ['          reasoning_effort: low']]]);
	});

	it('a value in a flow map is replaced in place', () => {
		const after = edit(original, {kind: 'set-field', list: 'model_map', name: 'tiny', field: 'model', value: 'm-2'});
		expect(changes(original, after)).toEqual([[24, ['        - {name: tiny, description: "flow style", provider: p, model: m-1}   # flow map'], ['        - {name: tiny, description: "flow style", provider: p, model: m-2}   # flow map']]]);
	});

	it('a field added to a flow map goes inside its braces', () => {
		const after = edit(original, {kind: 'set-field', list: 'model_map', name: 'tiny', field: 'reasoning_effort', value: 'xhigh'});
		expect(changes(original, after)).toEqual([[24, ['        - {name: tiny, description: "flow style", provider: p, model: m-1}   # flow map'], ['        - {name: tiny, description: "flow style", provider: p, model: m-1, reasoning_effort: xhigh}   # flow map']]]);
	});

	it('a folded block description stays a folded block at its indentation, the rest untouched', () => {
		const after = edit(original, {kind: 'set-field', list: 'profile_routes', name: 'coder', field: 'description', value: 'Writes code.'});
		expect(changes(original, after)).toEqual([[30, ['            Writes and refactors code;', '            runs tests.'], ['            Writes code.']]]);
	});

	it('a long value in a folded block is folded at spaces, and reads back as one line', () => {
		const value = 'Writes and refactors code across the whole repository; runs the tests, fixes what fails, and explains each change.';
		const after = edit(original, {kind: 'set-field', list: 'profile_routes', name: 'coder', field: 'description', value});
		expect(changes(original, after)).toEqual([[30, ['            Writes and refactors code;', '            runs tests.'], [
			'            Writes and refactors code across the whole repository; runs the',
			'            tests, fixes what fails, and explains each change.',
		]]]);
		expect(parseHermesConfig(after, {file, profileExists: () => true}).delegation.profileRoutes.profiles[0]?.description).toBe(value);
	});

	it('a literal block (`|`) stays literal, its lines kept; a value it cannot hold is quoted', () => {
		const literal = original.replace('description: >-\n            Writes and refactors code;\n            runs tests.', 'description: |\n            Writes code;\n            runs tests.');
		const lines = edit(literal, {kind: 'set-field', list: 'profile_routes', name: 'coder', field: 'description', value: 'Writes code;\nruns tests;\nreviews.\n'});
		expect(changes(literal, lines)).toEqual([[31, ['            runs tests.'], ['            runs tests;', '            reviews.']]]);
		const quoted = edit(literal, {kind: 'set-field', list: 'profile_routes', name: 'coder', field: 'description', value: '  indented first line'});
		expect(changes(literal, quoted)).toEqual([[29, ['          description: |', '            Writes code;', '            runs tests.'], ['          description: "  indented first line"']]]);
	});

	it('set-mode changes the one backend line, not terminal.backend', () => {
		const after = edit(original, {kind: 'set-mode', mode: 'profile_routes'});
		expect(changes(original, after)).toEqual([[9, ['  backend: model_map   # the plugin\'s'], ['  backend: profile_routes   # the plugin\'s']]]);
	});

	it('set-default changes the one default line', () => {
		const after = edit(original, {kind: 'set-default', list: 'model_map', name: 'deep'});
		expect(changes(original, after)).toEqual([[25, ['      default: fast    # default route'], ['      default: deep    # default route']]]);
	});

	it('add-route appends one item after the last, in the list\'s indentation', () => {
		const after = edit(original, {kind: 'add-route', list: 'model_map', route: {name: 'mid', description: 'Balanced: most work.', model: 'deepseek/deepseek-v4-pro', provider: 'openrouter'}});
		expect(changes(original, after)).toEqual([[25, [], [
			'        - name: mid',
			'          description: "Balanced: most work."',
			'          model: deepseek/deepseek-v4-pro',
			'          provider: openrouter',
		]]]);
	});

	it('add-route for a profile writes the name as Hermes reads it', () => {
		const after = edit(original, {kind: 'add-route', list: 'profile_routes', route: {name: ' Researcher ', description: 'Web research.'}});
		expect(changes(original, after)).toEqual([[32, [], ['        - name: researcher', '          description: Web research.']]]);
	});

	it('remove-route removes exactly the route\'s lines', () => {
		const after = edit(original, {kind: 'remove-route', list: 'model_map', name: 'deep'});
		expect(changes(original, after)).toEqual([[19, [
			'        - name: \'deep\'              # single-quoted name',
			'          description: \'Slow and careful: it\'\'s for hard debugging.\'  # single-quoted',
			'          provider: anthropic       # plain',
			'          model: claude-opus-5      # plain',
			'          reasoning_effort: high    # effort',
		], []]]);
	});

	it('a single-quoted provider stays single-quoted', () => {
		const after = edit(original, {kind: 'set-field', list: 'model_map', name: 'fast', field: 'provider', value: 'nous'});
		expect(changes(original, after)).toEqual([[16, ['          provider: \'openrouter\'    # single-quoted on purpose'], ['          provider: \'nous\'    # single-quoted on purpose']]]);
	});

	it('clear-field removes exactly the key\'s line, its comment with it, and nothing else', () => {
		const after = edit(original, {kind: 'clear-field', list: 'model_map', name: 'deep', field: 'reasoning_effort'});
		expect(changes(original, after)).toEqual([[23, ['          reasoning_effort: high    # effort'], []]]);
		expect(after).toBe(original.replace('          reasoning_effort: high    # effort\n', ''));
	});

	it('clear-field in a flow map removes the entry and one comma', () => {
		const withEffort = edit(original, {kind: 'set-field', list: 'model_map', name: 'tiny', field: 'reasoning_effort', value: 'low'});
		// (Not loaded afterwards: this route then lacks its provider; the splice is the point here.)
		const middle = applyRouteEdit(withEffort, {kind: 'clear-field', list: 'model_map', name: 'tiny', field: 'provider'}, file);
		expect(changes(withEffort, middle)).toEqual([[24, ['        - {name: tiny, description: "flow style", provider: p, model: m-1, reasoning_effort: low}   # flow map'], ['        - {name: tiny, description: "flow style", model: m-1, reasoning_effort: low}   # flow map']]]);
	});

	it('clear-field of the last entry of a flow map takes the comma before it', () => {
		const withEffort = edit(original, {kind: 'set-field', list: 'model_map', name: 'tiny', field: 'reasoning_effort', value: 'low'});
		expect(edit(withEffort, {kind: 'clear-field', list: 'model_map', name: 'tiny', field: 'reasoning_effort'})).toBe(original);
	});

	it('clear-field of the key on a list item\'s dash line moves the next key up behind the dash', () => {
		const text = 'delegation:\n  backends:\n    model_map:\n      options:\n        - reasoning_effort: low   # first key\n          name: a\n          description: A\n          provider: p\n          model: m\n';
		expect(applyRouteEdit(text, {kind: 'clear-field', list: 'model_map', name: 'a', field: 'reasoning_effort'}, file)).toBe(text.replace('reasoning_effort: low   # first key\n          ', ''));
	});

	it('clear-field of a key the route does not have changes nothing; a profile route has nothing to clear', () => {
		expect(edit(original, {kind: 'clear-field', list: 'model_map', name: 'fast', field: 'reasoning_effort'})).toBe(original);
		expect(() => edit(original, {kind: 'clear-field', list: 'profile_routes', name: 'coder', field: 'provider'})).toThrow(/a profile route has no provider/);
	});

	it('clearing a provider a route needs is refused by the same validation as loading', () => {
		expect(() => edit(original, {kind: 'clear-field', list: 'model_map', name: 'deep', field: 'provider'})).toThrow(/needs "provider" or "base_url"/);
	});

	it('an anchored value shared with another route is refused rather than changing both', () => {
		const shared = 'delegation:\n  backend: model_map\n  backends:\n    model_map:\n      options:\n        - name: a\n          description: A\n          provider: p\n          model: &m shared-model\n        - name: b\n          description: B\n          provider: p\n          model: *m\n';
		expect(() => edit(shared, {kind: 'set-field', list: 'model_map', name: 'a', field: 'model', value: 'other'})).toThrow(/other values would change with it \(the value is shared through a YAML anchor/);
		expect(() => edit(shared, {kind: 'set-field', list: 'model_map', name: 'b', field: 'model', value: 'other'})).toThrow(/alias/);
	});

	it('an unknown route names the routes there are', () => {
		let caught: unknown;
		try {
			edit(original, {kind: 'set-field', list: 'model_map', name: 'nope', field: 'model', value: 'x'});
		} catch (error) {
			caught = error;
		}

		expect(caught).toBeInstanceOf(InputError);
		expect((caught as InputError).message).toBe('model_map has no route "nope"');
		expect((caught as InputError).fix).toBe('name one of: fast, deep, tiny');
	});
});

describe('applyRouteEdit creating what is not there yet', () => {
	it('set-mode on an empty file writes a delegation section', () => {
		expect(applyRouteEdit('', {kind: 'set-mode', mode: 'default'}, file)).toBe('delegation:\n  backend: default\n');
	});

	it('set-mode on a file without delegation appends the section and keeps the rest', () => {
		const text = '# mine\nmodel: x   # keep\n';
		expect(applyRouteEdit(text, {kind: 'set-mode', mode: 'default'}, file)).toBe(`${text}delegation:\n  backend: default\n`);
	});

	it('add-route under Hermes\'s own flat keys creates backends and the list below them', () => {
		const text = 'delegation:\n  model: m   # Hermes\'s own\nother: 1\n';
		const after = applyRouteEdit(text, {kind: 'add-route', list: 'model_map', route: {name: 'fast', description: 'Quick.', model: 'm', provider: 'p'}}, file);
		expect(after).toBe('delegation:\n  model: m   # Hermes\'s own\n  backends:\n    model_map:\n      options:\n        - name: fast\n          description: Quick.\n          model: m\n          provider: p\nother: 1\n');
	});

	it('set-default on an empty `default:` fills it in after the colon', () => {
		const text = 'delegation:\n  backends:\n    model_map:\n      options: [{name: a, description: A, provider: p, model: m}]\n      default:   # pick one\n';
		expect(applyRouteEdit(text, {kind: 'set-default', list: 'model_map', name: 'a'}, file)).toBe(text.replace('default:   # pick one', 'default: a   # pick one'));
	});

	it('add-route to an empty flow list writes a flow map', () => {
		const text = 'delegation:\n  backends:\n    model_map:\n      options: []   # none yet\n';
		expect(applyRouteEdit(text, {kind: 'add-route', list: 'model_map', route: {name: 'a', description: 'A: b', model: 'm', provider: 'p'}}, file)).toBe('delegation:\n  backends:\n    model_map:\n      options: [{name: a, description: "A: b", model: m, provider: p}]   # none yet\n');
	});

	it('removing the last item of a block list leaves the key with an empty list', () => {
		const text = 'delegation:\n  backends:\n    profile_routes:\n      profiles:\n        - name: coder\n          description: C\n    # end\n';
		expect(applyRouteEdit(text, {kind: 'remove-route', list: 'profile_routes', name: 'coder'}, file)).toBe('delegation:\n  backends:\n    profile_routes:\n      profiles:\n    # end\n');
	});
});

describe('applyRouteEdit on odd documents', () => {
	it('a UTF-8 byte-order mark stays in front', () => {
		expect(applyRouteEdit('\uFEFFdelegation:\n  backend: model_map\n', {kind: 'set-mode', mode: 'default'}, file)).toBe('\uFEFFdelegation:\n  backend: default\n');
		expect(applyRouteEdit('\uFEFF# only a comment\n', {kind: 'set-mode', mode: 'default'}, file)).toBe('\uFEFF# only a comment\ndelegation:\n  backend: default\n');
	});

	it('document markers (--- and ...) stay where they are', () => {
		expect(applyRouteEdit('---\ndelegation:\n  x: 1\n...\n', {kind: 'set-mode', mode: 'default'}, file)).toBe('---\ndelegation:\n  x: 1\n  backend: default\n...\n');
	});

	it('a delegation section written all in flow style takes value changes and new routes in place', () => {
		const text = 'delegation: {backend: model_map, backends: {model_map: {options: [{name: a, description: A, provider: p, model: m}]}}}\n';
		expect(applyRouteEdit(text, {kind: 'set-field', list: 'model_map', name: 'a', field: 'description', value: 'B: c'}, file)).toBe(text.replace('description: A', 'description: "B: c"'));
		expect(applyRouteEdit(text, {kind: 'add-route', list: 'model_map', route: {name: 'b', description: 'B', model: 'm', provider: 'p'}}, file)).toBe(text.replace('model: m}]', 'model: m}, {name: b, description: B, model: m, provider: p}]'));
	});

	it('a new nested section inside a flow map is refused with the fix, not written as a reflowed line', () => {
		const text = 'delegation: {backend: model_map, backends: {model_map: {options: [{name: a, description: A, provider: p, model: m}]}}}\n';
		expect(() => applyRouteEdit(text, {kind: 'add-route', list: 'profile_routes', route: {name: 'b', description: 'B'}}, file)).toThrow(/cannot add profile_routes route "b" without rewriting other lines: a map written in flow style/);
	});
});
