// The routes editor's store actions on a real config.yaml through the real BatchSteering (the
// runner's re-plan recorded): field edits for model, provider and reasoning effort, adding and
// removing routes, and the header's mark (configMark) derived from the state.
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {loadHermesConfig} from '../../src/core/config/config.js';
import {planBatch} from '../../src/core/plan/routing.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import {BatchSteering} from '../../src/core/config/steering.js';
import type {DelegationConfig} from '../../src/core/types.js';
import {configMark} from '../../src/state/steer.js';
import {createBatchStore} from '../../src/state/store.js';
import {fieldAtEnd} from '../../src/state/text-field.js';
import {FakeControl, t0} from '../helpers/render.js';
import {steeringConfig} from '../helpers/steering-config.js';
import {editorOf, questionOf} from '../helpers/overlay.js';

const homes: string[] = [];
afterEach(() => {
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

function editorStore(profiles: readonly string[] = ['coder', 'writer'], config = steeringConfig) {
	const home = mkdtempSync(path.join(tmpdir(), 'routes-actions-'));
	homes.push(home);
	for (const profile of profiles) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
	const configPath = path.join(home, 'config.yaml');
	writeFileSync(configPath, config);
	const loaded = loadHermesConfig({configPath, hermesHome: home, explicit: true});
	const plan = planBatch({tasks: [{goal: 'summaries of the logs'}, {goal: 'hard debugging of the parser'}], delegation: loaded.delegation, settings: defaultSettings});
	const replans: DelegationConfig[] = [];
	const steering = new BatchSteering(loaded, {runDir: home, applyRouting(delegation) {
		replans.push(delegation);
		return [];
	}});
	const control = new FakeControl().steering({
		routing: () => steering.delegation, steer: steering.edit.bind(steering), profiles: steering.unroutedProfiles.bind(steering), reload: steering.reload.bind(steering),
	});
	const store = createBatchStore({control, plan, runId: 'run-test', runDir: home, concurrency: 1, graceMs: 1000, now: t0});
	store.getState().openRoutes();
	const type = (text: string) => store.getState().setField(fieldAtEnd(text));
	return {store, steering, replans, home, configPath, type, landed: async () => control.landed(), config: () => readFileSync(configPath, 'utf8'), editor: () => editorOf(store.getState())!};
}

describe('route fields', () => {
	it('saves a model route\'s reasoning_effort and refuses one config.yaml would refuse, with the core\'s reason', async () => {
		const batch = editorStore();
		batch.store.getState().editRouteField('reasoning_effort');
		expect(batch.editor().input).toMatchObject({kind: 'field', name: 'reasoning_effort'});
		batch.type('ultra-max');
		batch.store.getState().submitField();
		await batch.landed();
		expect(batch.editor().error).toMatch(/could not set reasoning_effort of model_map route "fast": must be one of: none, minimal, low, medium, high, xhigh, max, ultra/);
		expect(batch.config()).toBe(steeringConfig);
		batch.type('xhigh');
		batch.store.getState().submitField();
		await batch.landed();
		expect(batch.editor().input).toBeNull();
		expect(batch.steering.delegation.modelMap.options[0]!.reasoning_effort).toBe('xhigh');
		expect(batch.replans).toHaveLength(1);
	});

	it('an empty model is refused before anything is saved; an empty provider is refused by the same validation as loading', async () => {
		const batch = editorStore();
		for (const [field, reason] of [['model', /^a model route needs a model$/], ['provider', /could not remove provider from model_map route "fast": .*needs "provider" or "base_url"/]] as const) {
			batch.store.getState().editRouteField(field);
			batch.type('  ');
			batch.store.getState().submitField();
			await batch.landed();
			expect(batch.editor().error).toMatch(reason);
			batch.store.getState().cancelField();
		}

		expect(batch.config()).toBe(steeringConfig);
	});

	it('an empty reasoning_effort removes its one line from config.yaml, and the change is recorded', async () => {
		const withEffort = steeringConfig.replace('          model: claude-opus-5\n', '          model: claude-opus-5\n          reasoning_effort: high   # for the hard ones\n');
		const batch = editorStore(undefined, withEffort);
		batch.store.getState().moveRoute(1);
		batch.store.getState().editRouteField('reasoning_effort');
		expect(batch.editor().input).toMatchObject({field: {value: 'high'}});
		batch.type('');
		batch.store.getState().submitField();
		await batch.landed();
		expect(batch.editor().error).toBeNull();
		expect(batch.editor().input).toBeNull();
		expect(batch.config()).toBe(steeringConfig);
		expect(batch.steering.delegation.modelMap.options[1]!.reasoning_effort).toBeUndefined();
		expect(batch.editor().routes[1]!.reasoningEffort).toBeNull();
		expect(batch.store.getState().notice).toMatch(/remove reasoning_effort from model_map route "deep"/);
		const changes = readFileSync(path.join(batch.home, 'changes.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>);
		expect(changes).toEqual([{at: expect.any(String), path: 'delegation.backends.model_map.options[1].reasoning_effort', old: 'high', new: null}]);
	});
});

describe('adding and removing routes', () => {
	it('adds a model route once all four fields are given, and selects it', async () => {
		const batch = editorStore();
		batch.store.getState().startAddRoute();
		for (const value of ['mid', 'Middle of the road.', 'gpt-6-mini']) {
			batch.type(value);
			batch.store.getState().submitField();
			await batch.landed();
			expect(batch.config()).toBe(steeringConfig);
		}

		batch.type('openai');
		batch.store.getState().submitField();
		await batch.landed();
		expect(batch.steering.delegation.modelMap.options.map(route => route.name)).toEqual(['fast', 'deep', 'mid']);
		expect(batch.editor().routes[batch.editor().selected]!.name).toBe('mid');
		expect(batch.editor().input).toBeNull();
	});

	it('offers only existing, valid, unrouted profiles for a new profile route', async () => {
		const batch = editorStore(['coder', 'writer', 'reviewer', 'analyst', 'Not Valid']);
		batch.store.getState().closeOverlay();
		batch.store.getState().switchMode();
		await batch.landed();
		batch.store.getState().openRoutes();
		batch.store.getState().startAddRoute();
		expect(batch.editor().input).toEqual({kind: 'profiles', choices: ['analyst', 'reviewer'], choice: 0});
		// Esc in the picker goes back to the editor, which stays open.
		batch.store.getState().closeOverlay();
		expect(batch.editor().input).toBeNull();
		batch.store.getState().startAddRoute();
		batch.store.getState().moveRoute(1);
		batch.store.getState().pickRoute();
		await batch.landed();
		expect(batch.editor().input).toMatchObject({kind: 'draft', draft: {values: {name: 'reviewer'}}});
		batch.type('Reviews.');
		batch.store.getState().submitField();
		await batch.landed();
		expect(batch.steering.delegation.profileRoutes.profiles.map(route => route.name)).toEqual(['coder', 'writer', 'reviewer']);
	});

	it('x asks before removing, refuses the default route, and y removes through the same edit as the CLI', async () => {
		const batch = editorStore();
		batch.store.getState().requestRemoveRoute();
		expect(questionOf(batch.store.getState())).toBeNull();
		expect(batch.editor().error).toMatch(/"fast" is the default route and cannot be removed/);
		batch.store.getState().moveRoute(1);
		batch.store.getState().requestRemoveRoute();
		expect(questionOf(batch.store.getState())).toEqual({action: 'remove-route', routeName: 'deep'});
		expect(batch.config()).toBe(steeringConfig);
		batch.store.getState().confirmYes();
		await batch.landed();
		expect(batch.steering.delegation.modelMap.options.map(route => route.name)).toEqual(['fast']);
		expect(batch.editor().selected).toBe(0);
		expect(batch.store.getState().notice).toMatch(/remove model_map route "deep"/);
	});
});

describe('the header mark', () => {
	it('is ✎ while a field is open, ⚠ after a conflicting save until the file is re-read, else nothing', async () => {
		const batch = editorStore();
		expect(configMark(batch.store.getState())).toBe('');
		batch.store.getState().editDescription();
		expect(configMark(batch.store.getState())).toBe('✎');
		writeFileSync(batch.configPath, steeringConfig.replace('Cheap and quick', 'Theirs'));
		batch.type('Mine.');
		batch.store.getState().submitField();
		await batch.landed();
		expect(configMark(batch.store.getState())).toBe('⚠ config changed on disk');
		batch.store.getState().cancelField();
		expect(configMark(batch.store.getState())).toBe('⚠ config changed on disk');
		batch.store.getState().reloadConfig();
		await batch.landed();
		expect(configMark(batch.store.getState())).toBe('');
		expect(batch.editor().routes[0]!.description).toBe('Theirs: lookups, summaries.');
	});

	it('a refusal that is not a conflict leaves no ⚠', async () => {
		const batch = editorStore();
		batch.store.getState().editRouteField('reasoning_effort');
		batch.type('turbo');
		batch.store.getState().submitField();
		await batch.landed();
		expect(batch.editor().error).not.toBeNull();
		expect(batch.store.getState().configConflict).toBe(false);
	});
});
