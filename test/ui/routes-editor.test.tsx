// The routes editor driven by the keyboard, saving into a real config.yaml through the real
// BatchSteering (the runner's re-plan is recorded): r opens it, ↑↓ select, e edits a description
// in the text field, Enter saves exactly that line, Esc cancels, d sets the default, and a value
// that cannot be saved is refused in place with nothing written.
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cleanup, render as inkRender} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {loadHermesConfig} from '../../src/core/config/config.js';
import {lineDiff} from '../../src/core/text/line-diff.js';
import {planBatch} from '../../src/core/plan/routing.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import {BatchSteering} from '../../src/core/config/steering.js';
import {loadTheme} from '../../src/core/theme/themes.js';
import type {DelegationConfig} from '../../src/core/types.js';
import {createBatchStore} from '../../src/state/store.js';
import {App} from '../../src/ui/App.js';
import {defaultBindings} from '../../src/ui/keys/keys.js';
import {FakeControl, stripAnsi, t0} from '../helpers/render.js';
import {steeringConfig} from '../helpers/steering-config.js';
import {editorOf, questionOf} from '../helpers/overlay.js';

const homes: string[] = [];
afterEach(() => {
	cleanup();
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

const keys = {down: '\u001B[B', left: '\u001B[D', home: '\u001B[H', enter: '\r', escape: '\u001B', ctrlW: '\u0017', ctrlU: '\u0015'};

function editor(profiles: readonly string[] = ['coder', 'writer'], columns = 110) {
	const home = mkdtempSync(path.join(tmpdir(), 'routes-editor-'));
	homes.push(home);
	for (const profile of profiles) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
	const configPath = path.join(home, 'config.yaml');
	writeFileSync(configPath, steeringConfig);
	const loaded = loadHermesConfig({configPath, hermesHome: home, explicit: true});
	const plan = planBatch({tasks: [{goal: 'summaries of the logs'}, {goal: 'hard debugging of the parser'}, {goal: 'anything'}], delegation: loaded.delegation, settings: defaultSettings});
	const replans: DelegationConfig[] = [];
	const steering = new BatchSteering(loaded, {runDir: home, applyRouting(delegation) {
		replans.push(delegation);
		return [];
	}});
	const control = new FakeControl().steering({routing: () => steering.delegation, steer: steering.edit.bind(steering), profiles: steering.unroutedProfiles.bind(steering), reload: steering.reload.bind(steering)});
	const store = createBatchStore({control, plan, runId: 'run-test', runDir: home, concurrency: 1, graceMs: 1000, now: t0});
	const instance = inkRender(<App store={store} theme={loadTheme('dark', {noColor: false})} bindings={defaultBindings} columns={columns} rows={30}/>);
	const frame = () => stripAnsi(instance.lastFrame() ?? '');
	const until = async (pattern: RegExp) => vi.waitFor(() => {
		expect(frame()).toMatch(pattern);
	});
	return {...instance, store, configPath, replans, frame, until, config: () => readFileSync(configPath, 'utf8')};
}

describe('the routes editor', () => {
	test('at 70 columns each route keeps its task counts; what it runs gives way', async () => {
		const view = editor(['coder', 'writer'], 70);
		view.stdin.write('r');
		await view.until(/Routes · model routes/);
		const fast = view.frame().split('\n').find(line => line.includes('▸ fast'));
		expect(fast).toMatch(/▸ fast \(default\) · google\/gemini.*… · 2 queued, 0 running, 0 done/);
		expect(view.frame()).toMatch(/deep · .* 1 queued, 0 running, 0 done/);
	});

	test('lists the active mode\'s routes with what they run, the default and the tasks on them', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/Routes · model routes \(model_map\)/);
		expect(view.frame()).toMatch(/▸ fast \(default\) · google\/gemini-3-flash-preview · openrouter · 2 queued, 0 running, 0 done/);
		expect(view.frame()).toMatch(/ {2}deep · claude-opus-5 · anthropic · 1 queued/);
		expect(view.frame()).toContain('Slow and careful: hard debugging and design work.');
	});

	test('editing a description with the keyboard saves that one line and re-plans', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write(keys.down);
		await view.until(/▸ deep/);
		view.stdin.write('e');
		await view.until(/Enter saves · Esc cancels/);
		// "...design work." → delete "work." with Ctrl+W, type "reviews.", then fix the start with Home.
		view.stdin.write(keys.ctrlW);
		await view.until(/hard debugging and design\s+│/);
		view.stdin.write('reviews.');
		await view.until(/design reviews\./);
		view.stdin.write(keys.home);
		view.stdin.write('Very ');
		await view.until(/Very Slow and careful/);
		view.stdin.write(keys.enter);
		await view.until(/▸ deep · claude-opus-5/);
		// The save's reply lands after the keypress, as from the runner host.
		await vi.waitFor(() => {
			expect(view.store.getState().notice).toMatch(/saved to .*config\.yaml/);
		});

		expect(lineDiff(steeringConfig, view.config())).toEqual([{line: 13, removed: ['          description: "Slow and careful: hard debugging and design work."'], added: ['          description: "Very Slow and careful: hard debugging and design reviews."']}]);
		expect(view.replans).toHaveLength(1);
		expect(view.replans[0]!.modelMap.options[1]!.description).toBe('Very Slow and careful: hard debugging and design reviews.');
		expect(view.frame()).toContain('Very Slow and careful: hard debugging and design reviews.');
		expect(view.store.getState().notice).toMatch(/saved to .*config\.yaml: set description of model_map route "deep"/);
	});

	test('Ctrl+W and text read at once (tmux send-keys, a loaded machine) still delete the word first', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write(keys.down);
		await view.until(/▸ deep/);
		view.stdin.write('e');
		await view.until(/Enter saves · Esc cancels/);
		view.stdin.write(`${keys.ctrlW}reviews.`);
		await view.until(/hard debugging and design reviews\./);
		expect(view.frame()).not.toContain('work.');
	});

	test('Esc cancels the edit and saves nothing; a second Esc closes the editor', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('e');
		await view.until(/Enter saves/);
		view.stdin.write(' and more');
		await view.until(/and more/);
		view.stdin.write(keys.escape);
		await view.until(/e description · M model/);
		expect(view.frame()).not.toContain('and more');
		expect(view.config()).toBe(steeringConfig);
		view.stdin.write(keys.escape);
		await vi.waitFor(() => {
			expect(view.store.getState().overlay).toBeNull();
		});
	});

	test('an empty description, or one that cannot be saved, is refused in place and nothing is written', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('e');
		await view.until(/Enter saves/);
		view.stdin.write(keys.ctrlU);
		view.stdin.write(keys.enter);
		await view.until(/refused: a description must not be empty/);
		expect(view.config()).toBe(steeringConfig);

		// Someone edits the same route on disk meanwhile: the save is refused with the reason.
		const theirs = steeringConfig.replace('Cheap and quick: lookups, summaries.', 'Theirs.');
		writeFileSync(view.configPath, theirs);
		view.stdin.write('Mine.');
		view.stdin.write(keys.enter);
		await view.until(/refused: could not set description of model_map route "fast": changed on disk/);
		expect(view.config()).toBe(theirs);
		expect(view.replans).toHaveLength(0);
		expect(editorOf(view.store.getState())?.input).toMatchObject({field: {value: 'Mine.'}});
	});

	test('d makes the selected route the default', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast \(default\)/);
		view.stdin.write(keys.down);
		await view.until(/▸ deep/);
		view.stdin.write('d');
		await view.until(/▸ deep \(default\)/);
		expect(lineDiff(steeringConfig, view.config())).toEqual([{line: 16, removed: ['      default: fast'], added: ['      default: deep']}]);
		expect(view.replans).toHaveLength(1);
	});

	test('M, P and E edit a model route\'s model, provider and reasoning effort, each saved as its own line', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('M');
		await view.until(/model: google\/gemini-3-flash-preview/);
		view.stdin.write(keys.ctrlU);
		view.stdin.write('google/gemini-3-pro');
		view.stdin.write(keys.enter);
		await view.until(/▸ fast \(default\) · google\/gemini-3-pro · openrouter/);
		view.stdin.write('P');
		await view.until(/provider: openrouter/);
		view.stdin.write(keys.ctrlU);
		view.stdin.write('google');
		view.stdin.write(keys.enter);
		await view.until(/▸ fast \(default\) · google\/gemini-3-pro · google ·/);
		view.stdin.write('E');
		await view.until(/one of none, minimal, low, medium, high, xhigh, max, ultra/);
		view.stdin.write('high');
		view.stdin.write(keys.enter);
		await view.until(/· google · reasoning high ·/);
		expect(lineDiff(steeringConfig, view.config())).toEqual([
			{line: 10, removed: ['          provider: openrouter', '          model: google/gemini-3-flash-preview'], added: ['          provider: google', '          model: google/gemini-3-pro', '          reasoning_effort: high']},
		]);
		expect(view.replans).toHaveLength(3);
	});

	test('a reasoning effort config.yaml would refuse is refused in place with the core\'s reason, nothing written', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('E');
		await view.until(/reasoning_effort: /);
		view.stdin.write('turbo');
		view.stdin.write(keys.enter);
		await view.until(/refused: could not set reasoning_effort of model_map route "fast": must be one of: none, minimal/);
		expect(view.config()).toBe(steeringConfig);
		expect(view.replans).toHaveLength(0);
		expect(editorOf(view.store.getState())?.input).toMatchObject({field: {value: 'turbo'}});
	});

	test('an emptied reasoning_effort is removed from config.yaml (its one line); an emptied provider is refused in place', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('E');
		await view.until(/Enter saves · Esc cancels · empty removes it · one of none, minimal, low, medium, high, xhigh, max, ultra/);
		view.stdin.write('high');
		view.stdin.write(keys.enter);
		// What the route runs gives way to its task counts at 110 columns: the effort's word is cut.
		await view.until(/▸ fast \(default\) · google\/gemini-3-flash-preview · openrouter · reasoning h(igh|…) · 2 queued/);
		expect(lineDiff(steeringConfig, view.config())).toEqual([{line: 12, removed: [], added: ['          reasoning_effort: high']}]);

		view.stdin.write('E');
		await view.until(/reasoning_effort: high/);
		view.stdin.write(keys.ctrlU);
		view.stdin.write(keys.enter);
		await view.until(/▸ fast \(default\) · google\/gemini-3-flash-preview · openrouter · 2 queued/);
		expect(view.config()).toBe(steeringConfig);
		expect(view.frame()).toMatch(/remove reasoning_effort from model_map route "fast"/);

		view.stdin.write('P');
		await view.until(/empty removes it \(the route then needs a base_url\)/);
		view.stdin.write(keys.ctrlU);
		view.stdin.write(keys.enter);
		await view.until(/refused: could not remove provider from model_map route "fast": .*needs "provider" or "base_url"/);
		expect(view.config()).toBe(steeringConfig);
		expect(view.replans).toHaveLength(2);
	});

	test('m asks before rewriting config.yaml, saying the modes and how many queued tasks re-plan; n changes nothing, y switches', async () => {
		const view = editor();
		view.stdin.write('m');
		await view.until(/Switch routing from model_map to profile_routes\? It is saved into config\.yaml, which Hermes itself reads too;\s+3 queued tasks re-plan onto it\. y\/n/);
		expect(view.config()).toBe(steeringConfig);
		expect(view.store.getState().mode).toBe('model_map');
		view.stdin.write('n');
		await vi.waitFor(() => {
			expect(questionOf(view.store.getState())).toBeNull();
		});
		expect(view.config()).toBe(steeringConfig);
		expect(view.replans).toHaveLength(0);
		view.stdin.write('m');
		await view.until(/Switch routing from model_map to profile_routes\?/);
		view.stdin.write('y');
		await view.until(/mode profile_routes: saved to /);
		expect(view.config()).toContain('backend: profile_routes   # the active mode');
		expect(view.replans).toHaveLength(1);
	});

	test('a profile route has only a description: M is refused with the reason', async () => {
		const view = editor();
		view.store.getState().switchMode();
		view.stdin.write('r');
		await view.until(/Routes · profile routes/);
		view.stdin.write('M');
		await view.until(/refused: a profile route has no model/);
		expect(editorOf(view.store.getState())?.input).toBeNull();
	});

	test('a adds a model route field by field (name, description, model, provider), saved as one new list item', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('a');
		await view.until(/\+ new model route\s/);
		await view.until(/name: /);
		view.stdin.write(keys.enter);
		await view.until(/refused: a route needs a name/);
		view.stdin.write('fast');
		view.stdin.write(keys.enter);
		await view.until(/refused: model_map already has a route "fast"/);
		view.stdin.write(keys.ctrlU);
		view.stdin.write('mid');
		view.stdin.write(keys.enter);
		await view.until(/description: /);
		view.stdin.write('Middle of the road.');
		view.stdin.write(keys.enter);
		await view.until(/model: /);
		view.stdin.write('gpt-6-mini');
		view.stdin.write(keys.enter);
		await view.until(/provider: /);
		expect(view.config()).toBe(steeringConfig);
		view.stdin.write('openai');
		view.stdin.write(keys.enter);
		await view.until(/▸ mid · gpt-6-mini · openai · 0 queued/);
		expect(lineDiff(steeringConfig, view.config())).toEqual([{line: 16, removed: [], added: ['        - name: mid', '          description: Middle of the road.', '          model: gpt-6-mini', '          provider: openai']}]);
		expect(view.replans).toHaveLength(1);
	});

	test('Esc while adding drops the new route and writes nothing', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('a');
		await view.until(/name: /);
		view.stdin.write('mid');
		view.stdin.write(keys.enter);
		await view.until(/description: /);
		view.stdin.write(keys.escape);
		await view.until(/a add · x remove/);
		expect(view.frame()).not.toContain('new model route');
		expect(view.config()).toBe(steeringConfig);
	});

	test('a in profile routes picks one of the profiles that exist and are no route yet, then asks its description', async () => {
		const view = editor(['coder', 'writer', 'reviewer', 'Bad Name']);
		view.store.getState().switchMode();
		const switched = view.config();
		view.stdin.write('r');
		await view.until(/Routes · profile routes/);
		view.stdin.write('a');
		await view.until(/which profile\?/);
		// The picker lists reviewer alone: coder and writer are routes, "Bad Name" is no profile name Hermes reads.
		const picker = view.frame().split('\n').filter(line => /^│ [▸ ] \S+\s+│$/.test(line)).map(line => line.replaceAll(/[│▸]/g, '').trim());
		expect(picker).toEqual(['reviewer']);
		expect(view.frame()).not.toContain('Bad Name');
		view.stdin.write(keys.enter);
		await view.until(/\+ new profile route · name reviewer/);
		view.stdin.write('Reviews pull requests.');
		view.stdin.write(keys.enter);
		await view.until(/▸ reviewer · profile reviewer/);
		expect(lineDiff(switched, view.config())).toEqual([{line: 23, removed: [], added: ['        - name: reviewer', '          description: Reviews pull requests.']}]);
	});

	test('a with every profile routed already says how to make one', async () => {
		const view = editor();
		view.store.getState().switchMode();
		view.stdin.write('r');
		await view.until(/Routes · profile routes/);
		view.stdin.write('a');
		await view.until(/refused: every profile under \$HERMES_HOME\/profiles\/ is a route already/);
	});

	test('x asks before removing a route, n keeps it, y removes it; the default route cannot be removed', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast \(default\)/);
		view.stdin.write('x');
		await view.until(/refused: "fast" is the default route and cannot be removed: make another route the default first/);
		view.stdin.write(keys.down);
		await view.until(/▸ deep/);
		view.stdin.write('x');
		await view.until(/Remove route "deep" from config\.yaml\? Its 1 queued task moves to another route\. y\/n/);
		view.stdin.write('n');
		await vi.waitFor(() => {
			expect(questionOf(view.store.getState())).toBeNull();
		});
		expect(view.config()).toBe(steeringConfig);
		view.stdin.write('x');
		await view.until(/Remove route "deep"/);
		view.stdin.write('y');
		await vi.waitFor(() => {
			expect(view.frame()).not.toMatch(/deep · claude-opus-5/);
		});
		expect(lineDiff(steeringConfig, view.config())).toEqual([{line: 12, removed: ['        - name: deep', '          description: "Slow and careful: hard debugging and design work."', '          provider: anthropic', '          model: claude-opus-5'], added: []}]);
		expect(view.replans).toHaveLength(1);
	});

	test('the header marks an open edit with ✎ after the mode, and drops the mark when it closes', async () => {
		const view = editor();
		expect(view.frame()).toMatch(/· model routes · concurrency/);
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('M');
		await view.until(/· model routes ✎ · concurrency/);
		view.stdin.write(keys.escape);
		await view.until(/· model routes · concurrency/);
		view.stdin.write('a');
		await view.until(/· model routes ✎ · concurrency/);
	});

	test('a save stopped by a change on disk marks the header until r re-reads the file', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('e');
		await view.until(/Enter saves/);
		const theirs = steeringConfig.replace('Cheap and quick: lookups, summaries.', 'Theirs.');
		writeFileSync(view.configPath, theirs);
		view.stdin.write(' Mine.');
		view.stdin.write(keys.enter);
		await view.until(/refused: could not set description .*changed on disk/);
		await view.until(/· model routes ⚠ config changed on disk · concurrency/);
		view.stdin.write(keys.escape);
		await view.until(/a add · x remove/);
		// Still marked: nothing has re-read the file yet.
		expect(view.frame()).toMatch(/model routes ⚠ config changed on disk/);
		view.stdin.write('r');
		await view.until(/· model routes · concurrency/);
		expect(view.frame()).toMatch(/^│ {3}Theirs\. +│$/m);
		expect(view.store.getState().notice).toMatch(/re-read .*config\.yaml; re-planned|re-read .*config\.yaml; no queued task changed route/);
		expect(view.replans).toHaveLength(1);
		expect(view.config()).toBe(theirs);
	});
});
