import {describe, expect, it} from 'vitest';
import {defaultCharacteristicWords} from '../../../src/core/config/settings.js';
import {planBatch, taskId, type PlanInput} from '../../../src/core/plan/routing.js';
import type {DelegationConfig, ModelRoute, PlannedTask, ProfileRoute, RoutingMode, TaskSpec} from '../../../src/core/types.js';

const fast: ModelRoute = {kind: 'model', name: 'fast', description: 'Cheap and quick: lookups, summaries, simple edits.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'};
const deep: ModelRoute = {kind: 'model', name: 'deep', description: 'Slow and careful: hard debugging and design work.', provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high'};
const research: ModelRoute = {kind: 'model', name: 'research', description: 'Web sources and long reports.', provider: 'openrouter', model: 'perplexity/sonar'};
const coder: ProfileRoute = {kind: 'profile', name: 'coder', description: 'Writes and refactors code; runs tests.'};
const researcher: ProfileRoute = {kind: 'profile', name: 'researcher', description: 'Web research and long-form summaries.'};

function config(mode: RoutingMode, defaults: {model?: string; profile?: string} = {model: 'fast', profile: 'coder'}): DelegationConfig {
	return {
		mode,
		modelMap: {options: [fast, deep, research], default: defaults.model},
		profileRoutes: {profiles: [coder, researcher], default: defaults.profile},
		builtin: {}, source: {path: '/home/op/.hermes/config.yaml', exists: true},
	};
}

// coding → deep is a model_map route; research → researcher only exists under profile_routes,
// so in model_map mode research falls back to the route named "research".
const settings: PlanInput['settings'] = {
	characteristics: {coding: 'deep', quick: 'fast', research: 'researcher'},
	characteristicWords: defaultCharacteristicWords as Record<string, string[]>,
};

function planOne(task: TaskSpec, delegation: DelegationConfig): PlannedTask {
	const [planned] = planBatch({tasks: [task], delegation, settings}).tasks;
	return planned!;
}

function kindOf(task: PlannedTask): string {
	return task.decision.route?.kind ?? (task.decision.modelOverride ? 'explicit' : 'parent');
}

type Row = [label: string, delegation: DelegationConfig, task: TaskSpec, expected: {name: string | null; kind: string; refused: boolean; reason: RegExp}];

const model = config('model_map');
const profiles = config('profile_routes');
const builtIn = config('default');

const precedence: Row[] = [
	// 1. explicit model
	['explicit model beats a named option', model, {goal: 'Implement X', option: 'deep', model: 'x/y', provider: 'p'}, {name: null, kind: 'explicit', refused: false, reason: /^explicit model x\/y \(wins over the named route "deep"\)$/}],
	['an unknown option is refused even with an explicit model (a typo is not ignored)', model, {goal: 'x', option: 'turbo', model: 'x/y'}, {name: null, kind: 'parent', refused: true, reason: /^option "turbo" is not in model_map/}],
	['explicit model alone', model, {goal: 'Fix it', model: 'x/y'}, {name: null, kind: 'explicit', refused: false, reason: /^explicit model x\/y \(task\.model\)$/}],
	['explicit model in the default mode', builtIn, {goal: 'x', model: 'x/y'}, {name: null, kind: 'explicit', refused: false, reason: /task\.model/}],
	['explicit model under profile_routes still runs as the named profile', profiles, {goal: 'x', profile: 'researcher', model: 'x/y'}, {name: 'researcher', kind: 'profile', refused: false, reason: /^named by task\.profile; explicit model x\/y overrides the profile's model$/}],
	['explicit model under profile_routes still runs as the default profile', profiles, {goal: 'Xyzzy', model: 'x/y'}, {name: 'coder', kind: 'profile', refused: false, reason: /^default route of profile_routes; explicit model x\/y overrides/}],
	['explicit model does not rescue an unknown profile under profile_routes', profiles, {goal: 'x', profile: 'writer', model: 'x/y'}, {name: null, kind: 'parent', refused: true, reason: /profile "writer" is not in profile_routes/}],
	// 2. named route
	['a named option beats the characteristic', model, {goal: 'Implement X', option: 'fast'}, {name: 'fast', kind: 'model', refused: false, reason: /^named by task\.option$/}],
	['an option not in model_map is refused with the list', model, {goal: 'x', option: 'turbo'}, {name: null, kind: 'parent', refused: true, reason: /^option "turbo" is not in model_map \(routes: fast, deep, research\)$/}],
	['a profile under model_map is refused', model, {goal: 'x', profile: 'coder'}, {name: null, kind: 'parent', refused: true, reason: /task\.profile "coder" names a profile_routes route, but the active mode is model_map/}],
	['an option under profile_routes is refused', profiles, {goal: 'x', option: 'fast'}, {name: null, kind: 'parent', refused: true, reason: /task\.option "fast" names a model_map route, but the active mode is profile_routes/}],
	['an option in the default mode is refused', builtIn, {goal: 'x', option: 'fast'}, {name: null, kind: 'parent', refused: true, reason: /active mode is default/}],
	['a named profile is matched after trimming and lower-casing', profiles, {goal: 'Research X', profile: ' Coder '}, {name: 'coder', kind: 'profile', refused: false, reason: /^named by task\.profile$/}],
	['a profile not in profile_routes is refused with the list', profiles, {goal: 'x', profile: 'writer'}, {name: null, kind: 'parent', refused: true, reason: /^profile "writer" is not in profile_routes \(routes: coder, researcher\)$/}],
	// 3. characteristic
	['a given characteristic maps through the settings table', model, {goal: 'Hello there', characteristic: 'coding'}, {name: 'deep', kind: 'model', refused: false, reason: /^characteristic coding → deep \(characteristics table\)$/}],
	['an inferred characteristic names the word it came from', model, {goal: 'Fix the login bug'}, {name: 'deep', kind: 'model', refused: false, reason: /^characteristic coding \(inferred from 'fix'\) → deep/}],
	['a characteristic beats a better description match', model, {goal: 'Fix typos in the summaries: simple lookups'}, {name: 'deep', kind: 'model', refused: false, reason: /characteristics table/}],
	['a characteristic mapped outside the active mode falls back to a route of that name', model, {goal: 'Research the history of Rust'}, {name: 'research', kind: 'model', refused: false, reason: /^characteristic research \(inferred from 'research'\) → route of that name$/}],
	['the table applies to profile routes too', profiles, {goal: 'Compare three databases'}, {name: 'researcher', kind: 'profile', refused: false, reason: /inferred from 'compare'\) → researcher \(characteristics table\)/}],
	// 4. description match
	['an unmapped characteristic goes to the one route whose description names it', model, {goal: 'Xyzzy', characteristic: 'careful'}, {name: 'deep', kind: 'model', refused: false, reason: /^characteristic careful → deep \(its description says "careful"\)$/}],
	['an unmapped characteristic falls through to the description match', model, {goal: 'Write a poem about hard debugging'}, {name: 'deep', kind: 'model', refused: false, reason: /^goal matches route "deep"/}],
	['the description match reads the context as well', model, {goal: 'Write a haiku', context: 'keep it simple, few edits'}, {name: 'fast', kind: 'model', refused: false, reason: /^goal matches route "fast"/}],
	['a profile description match', profiles, {goal: 'Long-form summaries of web pages'}, {name: 'researcher', kind: 'profile', refused: false, reason: /^goal matches route "researcher"/}],
	// 5. default
	['a tied description match decides nothing: the default does', model, {goal: 'A poem: careful and simple'}, {name: 'fast', kind: 'model', refused: false, reason: /^default route of model_map$/}],
	['no match at all takes the default', model, {goal: 'Xyzzy plugh'}, {name: 'fast', kind: 'model', refused: false, reason: /^default route of model_map$/}],
	['no match under profile_routes takes its default', profiles, {goal: 'Xyzzy plugh'}, {name: 'coder', kind: 'profile', refused: false, reason: /^default route of profile_routes$/}],
	// 6. parent
	['no match and no default runs on the parent\'s model', config('model_map', {}), {goal: 'Xyzzy plugh'}, {name: null, kind: 'parent', refused: false, reason: /no route matched and model_map has no default/}],
	['the default mode always runs on the parent\'s model', builtIn, {goal: 'Fix the bug', characteristic: 'coding'}, {name: null, kind: 'parent', refused: false, reason: /^built-in delegation: the parent's own model \(no delegation.model set\)$/}],
];

describe('planBatch: route precedence', () => {
	it.each(precedence)('%s', (_label, delegation, task, expected) => {
		const planned = planOne(task, delegation);
		expect({name: planned.decision.route?.name ?? null, kind: kindOf(planned), refused: planned.decision.refused}).toEqual({name: expected.name, kind: expected.kind, refused: expected.refused});
		expect(planned.decision.reason).toMatch(expected.reason);
	});
});

describe('planBatch: the reasons say what the operator wrote', () => {
	const scribe: ModelRoute = {kind: 'model', name: 'scribe', description: 'Keeps secret notes tidy; does not browse.', provider: 'openrouter', model: 'x/scribe'};
	const withScribe: DelegationConfig = {...model, modelMap: {options: [fast, scribe], default: 'fast'}};

	it('a description match names the goal\'s own words, never a stem ("notes", not "not")', () => {
		expect(planOne({goal: 'Tidy the secret notes'}, withScribe).decision.reason).toBe('goal matches route "scribe" (tidy, secret, notes)');
	});

	it('"not" in a description matches no goal: "notes" is no "not"', () => {
		const onlyNot: DelegationConfig = {...model, modelMap: {options: [fast, {...scribe, description: 'Does not browse.'}], default: 'fast'}};
		expect(planOne({goal: 'Read my notes'}, onlyNot).decision.reason).toBe('default route of model_map');
	});

	it('a profile that is no route at all is not called a profile_routes route under model_map', () => {
		expect(planOne({goal: 'x', profile: 'nosuch'}, model).decision.reason).toBe('task.profile "nosuch" is not a profile_routes route (profile_routes: coder, researcher), and the active mode is model_map');
		expect(planOne({goal: 'x', option: 'nosuch'}, profiles).decision.reason).toBe('task.option "nosuch" is not a model_map route (model_map: fast, deep, research), and the active mode is profile_routes');
	});
});

describe('planBatch: what a task ends up running on', () => {
	it('a model route gives its model, provider and reasoning effort', () => {
		expect(planOne({goal: 'x', option: 'deep'}, model).effective).toEqual({model: 'claude-opus-5', provider: 'anthropic', reasoning_effort: 'high', service_tier: null, profile: null});
	});

	it('an explicit model without a provider does not borrow a route\'s provider or effort', () => {
		expect(planOne({goal: 'Fix it', model: 'x/y'}, model).effective).toEqual({model: 'x/y', provider: null, reasoning_effort: null, service_tier: null, profile: null});
	});

	it('a profile with an explicit model keeps the profile and overrides the model', () => {
		const planned = planOne({goal: 'x', profile: 'researcher', model: 'x/y', provider: 'p'}, profiles);
		expect(planned.decision.modelOverride).toEqual({model: 'x/y', provider: 'p'});
		expect(planned.effective).toMatchObject({profile: 'researcher', model: 'x/y', provider: 'p'});
	});

	it('records whether the characteristic was given or inferred', () => {
		const {tasks} = planBatch({tasks: [{goal: 'Fix it', characteristic: 'quick'}, {goal: 'Fix it'}, {goal: 'Xyzzy'}], delegation: model, settings});
		expect(tasks.map(task => task.characteristic)).toEqual([{value: 'quick', inferred: false}, {value: 'coding', inferred: true, from: 'fix'}, undefined]);
	});
});

describe('planBatch: route fields hermes chat cannot take', () => {
	const gateway: ModelRoute = {kind: 'model', name: 'gateway', description: 'd', model: 'm', base_url: 'https://gw.example/v1', service_tier: 'flex', api_key: 'sk-SECRET-value', api_mode: 'responses', fallback_providers: ['a']};

	it('name each field and never the key\'s value', () => {
		const delegation: DelegationConfig = {...model, modelMap: {options: [{...gateway, provider: 'openrouter'}]}};
		const warnings = planOne({goal: 'x', option: 'gateway'}, delegation).warnings;
		for (const field of ['base_url', 'service_tier', 'fallback_providers', 'api_key', 'api_mode']) {
			expect(warnings.join('\n')).toContain(field);
		}

		expect(warnings.at(-1)).toMatch(/^route "gateway": service_tier, fallback_providers, api_mode, api_key have no `hermes chat` flag and are not passed/);
		expect(warnings.join('\n')).not.toContain('sk-SECRET-value');
	});

	it('a base_url without a provider is honoured through the lmstudio provider (chat completions), its key included', () => {
		const local: ModelRoute = {kind: 'model', name: 'local', description: 'd', model: 'qwen3', base_url: 'http://localhost:8080/v1', api_key: 'sk-local'};
		const delegation: DelegationConfig = {...model, modelMap: {options: [local]}};
		const task = planOne({goal: 'x', option: 'local'}, delegation);
		expect(task.warnings).toEqual([]);
		expect(task.effective).toMatchObject({model: 'qwen3', provider: 'lmstudio'});
		expect(task.launch.base_url).toBe('http://localhost:8080/v1');
	});

	it('a base_url beside another provider is not passed, and the warning says how to fix the route', () => {
		const proxied: ModelRoute = {kind: 'model', name: 'proxied', description: 'd', model: 'm', provider: 'openrouter', base_url: 'https://proxy.example/v1'};
		const delegation: DelegationConfig = {...model, modelMap: {options: [proxied]}};
		expect(planOne({goal: 'x', option: 'proxied'}, delegation).warnings).toEqual([expect.stringMatching(/^route "proxied": base_url is not passed: it reaches Hermes through the lmstudio .*drop provider to use base_url/)]);
	});

	it('a route with only model, provider and effort gives no warning', () => {
		expect(planOne({goal: 'x', option: 'deep'}, model).warnings).toEqual([]);
	});
});

describe('planBatch: the characteristics table of delegate.yaml', () => {
	const plan = (characteristics: Record<string, string>, delegation: DelegationConfig = model) => planBatch({tasks: [{goal: 'Xyzzy'}], delegation, settings: {...settings, characteristics}});

	it('warns once per entry naming a route that is in neither mode\'s list', () => {
		expect(plan({coding: 'nonexistent', quick: 'fast', research: 'researcher', creative: 'poet'}).warnings).toEqual([
			'delegate.yaml characteristics.coding names route "nonexistent", which is not in model_map or profile_routes',
			'delegate.yaml characteristics.creative names route "poet", which is not in model_map or profile_routes',
		]);
	});

	it('an entry naming a route of the inactive mode is not a warning: the table serves both', () => {
		expect(plan({coding: 'coder', quick: 'fast'}, profiles).warnings).toEqual([]);
	});

	it('says nothing when no routes are configured at all (the table cannot apply)', () => {
		const empty: DelegationConfig = {mode: 'default', modelMap: {options: []}, profileRoutes: {profiles: []}, builtin: {}, source: {path: 'config.yaml', exists: false}};
		expect(plan({coding: 'deep'}, empty).warnings).toEqual([]);
	});

	it('comes before the shared-profile warnings', () => {
		const {warnings} = planBatch({tasks: [{goal: 'a', profile: 'coder'}, {goal: 'b', profile: 'coder'}], delegation: profiles, settings: {...settings, characteristics: {coding: 'nope'}}});
		expect(warnings).toEqual([expect.stringMatching(/^delegate\.yaml characteristics\.coding/), expect.stringMatching(/^profile "coder" is used by 2 tasks/)]);
	});
});

describe('planBatch: the batch', () => {
	it('refuses only the task that names a missing route; the others are planned', () => {
		const {tasks} = planBatch({tasks: [{goal: 'Fix it'}, {goal: 'x', option: 'turbo'}, {goal: 'Xyzzy'}], delegation: model, settings});
		expect(tasks.map(task => [task.id, task.decision.refused, task.decision.route?.name])).toEqual([['t01', false, 'deep'], ['t02', true, undefined], ['t03', false, 'fast']]);
	});

	it('warns when two running tasks share a profile, naming the profile and both tasks', () => {
		const plan = planBatch({tasks: [{goal: 'a', profile: 'coder'}, {goal: 'b', profile: 'researcher'}, {goal: 'c', profile: 'coder'}], delegation: profiles, settings});
		expect(plan.warnings).toEqual([expect.stringMatching(/^profile "coder" is used by 2 tasks \(t01, t03\)/)]);
	});

	it('does not count a refused task as sharing a profile', () => {
		const plan = planBatch({tasks: [{goal: 'a', profile: 'coder'}, {goal: 'b', profile: 'coder', option: 'fast'}], delegation: profiles, settings});
		expect(plan.tasks[1]?.decision.refused).toBe(true);
		expect(plan.warnings).toEqual([]);
	});

	it('re-plans a subset by index, keeping each task\'s position and id', () => {
		const tasks: TaskSpec[] = [{goal: 'a', profile: 'coder'}, {goal: 'b', profile: 'coder'}, {goal: 'Fix it'}];
		const plan = planBatch({tasks, delegation: profiles, settings, indexes: [2, 0]});
		expect(plan.tasks.map(task => [task.index, task.id, task.spec.goal])).toEqual([[2, 't03', 'Fix it'], [0, 't01', 'a']]);
		expect(plan.mode).toBe('profile_routes');
	});

	it('a subset re-planned after the routes change follows the new routes', () => {
		const tasks: TaskSpec[] = [{goal: 'Xyzzy'}, {goal: 'Xyzzy'}];
		const edited = config('model_map', {model: 'deep'});
		expect(planBatch({tasks, delegation: edited, settings, indexes: [1]}).tasks[0]?.decision.route?.name).toBe('deep');
	});

	it('an index outside the input is a programming error', () => {
		expect(() => planBatch({tasks: [{goal: 'a'}], delegation: model, settings, indexes: [1]})).toThrow(RangeError);
	});

	it('is pure: planning twice gives the same plan and leaves the inputs as they were', () => {
		const tasks: TaskSpec[] = [{goal: 'Fix it'}, {goal: 'x', profile: 'Coder'}];
		const delegation = config('profile_routes');
		const before = structuredClone({tasks, delegation});
		expect(planBatch({tasks, delegation, settings})).toEqual(planBatch({tasks, delegation, settings}));
		expect({tasks, delegation}).toEqual(before);
	});

	it('task ids are zero-padded positions', () => {
		expect([taskId(0), taskId(9), taskId(99)]).toEqual(['t01', 't10', 't100']);
	});
});
