// Steering from the store: `m` saves the next routing mode into a real config.yaml, records it in
// changes.jsonl and re-plans through a real runner (fake-agent processes); queued panes move,
// the running one stays. A save that is refused re-plans nothing. Waits are for events.
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {loadHermesConfig} from '../../../src/core/config/config.js';
import {changesPath} from '../../../src/core/config/changes.js';
import {signalGroup} from '../../../src/core/process/group.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import {BatchSteering} from '../../../src/core/config/steering.js';
import type {TaskSpec} from '../../../src/core/types.js';
import {runnerControl} from '../../../src/host/control.js';
import {feedStore} from '../../../src/state/feed.js';
import {createBatchStore} from '../../../src/state/store.js';
import {agentWithModelDown} from '../../helpers/down-route.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {noOutput, plannedTasks} from '../../helpers/render.js';
import {steeringConfig} from '../../helpers/steering-config.js';
import {waitFor} from '../../helpers/wait-for.js';
import {editorOf, pickerOf} from '../../helpers/overlay.js';


const homes: string[] = [];
const stops: Array<() => void> = [];
const pgids = new Set<number>();
afterEach(() => {
	for (const stop of stops.splice(0)) stop();
	for (const pgid of pgids) signalGroup(pgid, 'SIGKILL');
	pgids.clear();
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

/** A running batch in a temp HERMES_HOME: t01 runs until `release` exists, the others queue behind it (concurrency 1). */
function steeredBatch(config: string, tasksOf: (release: string) => TaskSpec[], concurrency = 1, env: NodeJS.ProcessEnv = {}, options: {hermesBin?: (home: string) => string} = {}) {
	const home = mkdtempSync(path.join(tmpdir(), 'steering-'));
	homes.push(home);
	for (const profile of ['coder', 'writer']) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
	const configPath = path.join(home, 'config.yaml');
	writeFileSync(configPath, config);
	const release = path.join(home, 'release');
	const tasks = tasksOf(release);
	const loaded = loadHermesConfig({configPath, hermesHome: home, explicit: true});
	const plan = planBatch({tasks, delegation: loaded.delegation, settings: defaultSettings});
	const folder = createRunFolder(home);
	// As the dashboard's runner: a finished batch can still be re-opened by R.
	const runner = new BatchRunner(plan, {hermesBin: options.hermesBin?.(home) ?? fakeAgentPath, capabilities: fakeCapabilities(), folder, concurrency, graceMs: 300, env: {...fakeVersionEnv(), ...env}, routing: {settings: defaultSettings, outsideWarnings: []}, retryAfterFinish: true});
	runner.subscribe(event => {
		if (event.type === 'task.started') pgids.add(event.pid);
	});
	const steering = new BatchSteering(loaded, {runDir: folder.dir, applyRouting: delegation => runner.applyRouting(delegation)});
	const store = createBatchStore({control: runnerControl(runner, steering), plan, runId: folder.runId, runDir: folder.dir, concurrency: 1, graceMs: 300});
	stops.push(feedStore(store, runner));
	const done = runner.start();
	return {home, configPath, release, folder, runner, store, done};
}

/** The control's replies sent so far have landed (the runner host's control answers at once, a turn later). */
async function replied(): Promise<void> {
	await new Promise(resolve => setImmediate(resolve));
}

const threeTasks = (release: string): TaskSpec[] => [
	{goal: 'first', context: `[fake:until-file=${release}]`},
	{goal: 'second', context: '[fake:duration=0]'},
	{goal: 'third', context: '[fake:duration=0]'},
];

describe('m: switch the routing mode', () => {
	it('saves profile_routes into config.yaml, records it, moves the queued panes and leaves the running one', async () => {
		const batch = steeredBatch(steeringConfig, threeTasks);
		await waitFor(() => batch.store.getState().tasks['t01']!.status === 'running', {message: 't01 running'});

		batch.store.getState().switchMode();
		await replied();

		const state = batch.store.getState();
		expect(state.mode).toBe('profile_routes');
		expect(state.tasks['t01']).toMatchObject({status: 'running', routeName: 'fast', routeKind: 'model'});
		expect(state.tasks['t02']).toMatchObject({status: 'queued', routeName: 'coder', routeKind: 'profile', reason: 'default route of profile_routes'});
		expect(state.tasks['t03']).toMatchObject({routeName: 'coder'});
		expect(state.notice).toMatch(/^mode profile_routes: saved to .*config\.yaml: set the routing mode to profile_routes; re-planned t02, t03$/);
		// Only the mode's value changed in the file; its comment stayed.
		expect(readFileSync(batch.configPath, 'utf8')).toBe(steeringConfig.replace('backend: model_map   #', 'backend: profile_routes   #'));
		const changes = readFileSync(changesPath(batch.folder.dir), 'utf8').trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>);
		expect(changes).toEqual([{at: expect.any(String), path: 'delegation.backend', old: 'model_map', new: 'profile_routes'}]);

		writeFileSync(batch.release, '');
		const report = await batch.done;
		expect(report.results.map(result => result.route.name)).toEqual(['fast', 'coder', 'coder']);
	});

	it('goes on to the built-in mode, then back to model_map, skipping a mode without routes and saying so', async () => {
		const noProfiles = steeringConfig.slice(0, steeringConfig.indexOf('    profile_routes:'));
		const batch = steeredBatch(noProfiles, threeTasks);
		await waitFor(() => batch.store.getState().tasks['t01']!.status === 'running', {message: 't01 running'});

		batch.store.getState().switchMode();
		await replied();
		expect(batch.store.getState().mode).toBe('default');
		expect(batch.store.getState().notice).toMatch(/^mode default \(built-in\) \(skipped profile_routes: no routes configured\): saved/);
		expect(batch.store.getState().tasks['t02']).toMatchObject({routeName: null, routeKind: 'parent'});

		batch.store.getState().switchMode();
		await replied();
		expect(batch.store.getState().mode).toBe('model_map');
		expect(batch.store.getState().tasks['t02']).toMatchObject({routeName: 'fast'});
		writeFileSync(batch.release, '');
		await batch.done;
	});

	it('a save refused for a conflicting change on disk re-plans nothing and says why', async () => {
		const batch = steeredBatch(steeringConfig, threeTasks);
		await waitFor(() => batch.store.getState().tasks['t01']!.status === 'running', {message: 't01 running'});
		// Someone sets the mode by hand meanwhile (no watcher here: the save itself must notice).
		const theirs = steeringConfig.replace('backend: model_map', 'backend: default');
		writeFileSync(batch.configPath, theirs);

		batch.store.getState().switchMode();
		await replied();

		const state = batch.store.getState();
		expect(state.notice).toMatch(/could not set the routing mode to profile_routes: changed on disk since it was loaded.*nothing changed$/s);
		expect(state.mode).toBe('model_map');
		expect(state.tasks['t02']).toMatchObject({routeName: 'fast'});
		expect(readFileSync(batch.configPath, 'utf8')).toBe(theirs);
		expect(existsSync(changesPath(batch.folder.dir))).toBe(false);
		writeFileSync(batch.release, '');
		expect((await batch.done).results.map(result => result.route.name)).toEqual(['fast', 'fast', 'fast']);
	});

	it('without a config to steer, says so and changes nothing', async () => {
		const store = createBatchStore({control: {cancel: async () => true, async shutdown() {}, ...noOutput}, plan: {mode: 'model_map', tasks: plannedTasks(1), warnings: []}, runId: 'r', runDir: '/tmp/r', concurrency: 1, graceMs: 0});
		store.getState().switchMode();
		await replied();
		expect(store.getState()).toMatchObject({mode: 'model_map', notice: expect.stringMatching(/cannot be steered/)});
	});
});

describe('the routes editor: a description edit', () => {
	it('re-plans the queued tasks whose goal now matches the new words, and the reason says which words', async () => {
		const batch = steeredBatch(steeringConfig, release => [
			{goal: 'first', context: `[fake:until-file=${release}]`},
			{goal: 'Tokenizer crashes on nested quotes', context: '[fake:duration=0]'},
			{goal: 'Rename the variables', context: '[fake:duration=0]'},
		]);
		const {store} = batch;
		await waitFor(() => store.getState().tasks['t01']!.status === 'running', {message: 't01 running'});
		expect(store.getState().tasks['t02']).toMatchObject({routeName: 'fast', reason: 'default route of model_map'});

		store.getState().openRoutes();
		store.getState().moveRoute(1);
		store.getState().editDescription();
		const value = 'Slow and careful: tokenizer crashes, hard debugging and design work.';
		store.getState().setField({value, cursor: value.length});
		store.getState().submitField();
		await replied();

		expect(editorOf(store.getState())).toMatchObject({input: null, error: null, selected: 1});
		expect(editorOf(store.getState())?.routes[1]?.description).toBe(value);
		expect(store.getState().tasks['t02']).toMatchObject({status: 'queued', routeName: 'deep', reason: 'goal matches route "deep" (tokenizer, crashes)'});
		expect(store.getState().tasks['t03']).toMatchObject({routeName: 'fast'});
		expect(store.getState().tasks['t01']).toMatchObject({status: 'running', routeName: 'fast'});
		expect(store.getState().notice).toMatch(/set description of model_map route "deep"; re-planned t02$/);
		const changes = readFileSync(changesPath(batch.folder.dir), 'utf8').trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>);
		expect(changes).toEqual([{at: expect.any(String), path: 'delegation.backends.model_map.options[1].description', old: 'Slow and careful: hard debugging and design work.', new: value}]);
		writeFileSync(batch.release, '');
		expect((await batch.done).results.map(result => result.route.name)).toEqual(['fast', 'deep', 'fast']);
	});
});

describe('R: re-route a task', () => {
	it('puts a failed task back in the queue on the picked route; the pane shows the attempt, the running task cannot be picked', async () => {
		const batch = steeredBatch(steeringConfig, release => [
			{goal: 'first', context: `[fake:until-file=${release}]`},
			{goal: 'second', context: '[fake:fail]'},
		], 2);
		const {store} = batch;
		await waitFor(() => store.getState().tasks['t01']!.status === 'running' && store.getState().tasks['t02']!.status === 'failed', {message: 't01 running, t02 failed'});

		store.getState().openReroute();
		expect(store.getState()).toMatchObject({overlay: null, notice: expect.stringMatching(/first is running: only a queued task, or one that ran and ended \(succeeded, failed, cancelled, timed out or lost\) can be re-routed/)});
		store.getState().focus('t02');
		store.getState().openReroute();
		expect(pickerOf(store.getState())).toMatchObject({taskId: 't02', selected: 0});
		store.getState().moveRoute(1);
		store.getState().pickRoute();
		await replied();

		expect(store.getState().overlay).toBeNull();
		expect(store.getState().notice).toBe('t02 queued on route "deep" as attempt 2; the earlier attempt\'s log and result are kept');
		expect(store.getState().tasks['t02']).toMatchObject({attempt: 2, routeName: 'deep', reason: 're-routed to "deep" by the operator (attempt 2)'});
		await waitFor(() => store.getState().tasks['t02']!.status === 'failed' && store.getState().tasks['t02']!.attempt === 2, {message: 'attempt 2 ended'});
		writeFileSync(batch.release, '');
		const report = await batch.done;
		expect(report.results[1]).toMatchObject({attempt: 2, route: {name: 'deep'}});
		expect(report.results[1]!.earlier_attempts).toHaveLength(1);
	});
});

describe('R after the batch finished', () => {
	it('re-opens the batch: the state shows it running again, then the second finish and its report', async () => {
		const batch = steeredBatch(steeringConfig, () => [
			{goal: 'steady', context: '[fake:duration=0]', option: 'deep'},
			{goal: 'flaky', context: '[fake:duration=0]'},
		], 2, {}, {hermesBin: home => agentWithModelDown(home, 'google/gemini-3-flash-preview')});
		const {store} = batch;
		const first = await batch.done;
		expect(store.getState()).toMatchObject({report: first, finishedAt: expect.any(Number)});
		expect(store.getState().tasks['t02']!.status).toBe('failed');
		store.getState().focus('t02');
		store.getState().openReroute();
		store.getState().moveRoute(1);
		const seen: Array<string | null> = [];
		store.subscribe(state => seen.push(state.report?.summary ?? null));
		store.getState().pickRoute();
		await replied();

		expect(store.getState().notice).toBe('t02 queued on route "deep" as attempt 2; the earlier attempt\'s log and result are kept');
		expect(store.getState()).toMatchObject({report: null, finishedAt: null});
		const second = await batch.runner.whenSettled();
		expect(store.getState()).toMatchObject({report: second, exitRequested: false});
		expect(store.getState().report?.summary).toBe('2/2 tasks succeeded');
		expect(store.getState().tasks['t02']).toMatchObject({status: 'succeeded', attempt: 2, routeName: 'deep'});
		// Running again (no report) from the pick until the second batch.finished, and never the first report again.
		const finishedAgain = seen.indexOf('2/2 tasks succeeded');
		expect(finishedAgain).toBeGreaterThan(0);
		expect(new Set(seen.slice(0, finishedAgain))).toEqual(new Set([null]));
		expect(new Set(seen.slice(finishedAgain))).toEqual(new Set(['2/2 tasks succeeded']));
	});
});

describe('R: explicit model…', () => {
	it('re-queues a failed task on the typed model and provider (the attempt runs with -m NAME --provider NAME); a blank or NUL name is refused in place, Esc goes back to the picker', async () => {
		const argvFile = path.join(mkdtempSync(path.join(tmpdir(), 'argv-')), 'argv.jsonl');
		homes.push(path.dirname(argvFile));
		const batch = steeredBatch(steeringConfig, release => [{goal: 'first', context: `[fake:until-file=${release}]`}, {goal: 'second', context: '[fake:fail]'}], 2, {FAKE_HERMES_ARGV_FILE: argvFile});
		const {store} = batch;
		await waitFor(() => store.getState().tasks['t01']!.status === 'running' && store.getState().tasks['t02']!.status === 'failed', {message: 't01 running, t02 failed'});

		store.getState().focus('t02');
		store.getState().openReroute();
		store.getState().moveRoute(5); // past the two routes: the last row is "explicit model…"
		expect(pickerOf(store.getState())).toMatchObject({taskId: 't02', selected: 2, explicit: null});
		store.getState().pickRoute();
		await replied();
		expect(pickerOf(store.getState())).toMatchObject({taskId: 't02', explicit: {step: 'model', field: {value: '', cursor: 0}}});
		for (const [value, reason] of [['   ', 'a model name must not be empty'], ['a\0b', 'a model name cannot contain a NUL character (\\u0000): no command-line argument can carry it'], ['x'.repeat(201), 'a model name is at most 200 characters']] as const) {
			store.getState().setField({value, cursor: value.length});
			store.getState().submitField();
			await replied();
			expect(pickerOf(store.getState())).toMatchObject({taskId: 't02', explicit: {field: {value}}, error: reason});
		}

		expect(store.getState().tasks['t02']).toMatchObject({status: 'failed', attempt: 1});
		store.getState().closeOverlay();
		expect(pickerOf(store.getState())).toMatchObject({taskId: 't02', explicit: null, error: null, selected: 2});
		store.getState().pickRoute();
		await replied();
		store.getState().setField({value: ' kimi-k3 ', cursor: 9});
		store.getState().submitField(); // the model; then its provider
		expect(pickerOf(store.getState())).toMatchObject({explicit: {step: 'provider', model: 'kimi-k3', field: {value: ''}}, error: null});
		store.getState().setField({value: 'p'.repeat(201), cursor: 201});
		store.getState().submitField();
		await replied();
		expect(pickerOf(store.getState())).toMatchObject({explicit: {step: 'provider'}, error: 'a provider name is at most 200 characters'});
		store.getState().setField({value: ' nous ', cursor: 6});
		store.getState().submitField();
		await replied();

		expect(store.getState().overlay).toBeNull();
		expect(store.getState().notice).toBe('t02 queued with explicit model "kimi-k3" on provider "nous" as attempt 2; the earlier attempt\'s log and result are kept');
		expect(store.getState().tasks['t02']).toMatchObject({attempt: 2, routeName: null, reason: 'explicit model kimi-k3, set by the operator (attempt 2)'});
		await waitFor(() => store.getState().tasks['t02']!.status === 'failed' && store.getState().tasks['t02']!.attempt === 2, {message: 'attempt 2 ended'});
		writeFileSync(batch.release, '');
		const report = await batch.done;
		expect(report.results[1]).toMatchObject({attempt: 2});
		// Three runs: t01 and t02 on the default route, then t02's second attempt on the typed model.
		const argvs = readFileSync(argvFile, 'utf8').trim().split('\n').map(line => JSON.parse(line) as string[]);
		expect(argvs.map(argv => argv[argv.indexOf('-m') + 1])).toEqual(['google/gemini-3-flash-preview', 'google/gemini-3-flash-preview', 'kimi-k3']);
		expect(argvs.map(argv => argv[argv.indexOf('--provider') + 1])).toEqual(['openrouter', 'openrouter', 'nous']);
	});

	it('under profile routes the task keeps running as its profile, the typed model on top', async () => {
		const config = steeringConfig.replace('backend: model_map', 'backend: profile_routes');
		const batch = steeredBatch(config, release => [{goal: 'first', context: `[fake:until-file=${release}]`}, {goal: 'second'}]);
		const {store} = batch;
		await waitFor(() => store.getState().tasks['t01']!.status === 'running', {message: 't01 running'});
		store.getState().focus('t02');
		store.getState().openReroute();
		store.getState().moveRoute(2);
		store.getState().pickRoute();
		await replied();
		store.getState().setField({value: 'kimi-k3', cursor: 7});
		store.getState().submitField();
		await replied();
		store.getState().submitField();
		await replied();

		expect(store.getState().notice).toBe('t02 queued with explicit model "kimi-k3"');
		expect(store.getState().tasks['t02']).toMatchObject({status: 'queued', attempt: 1, routeName: 'coder', profile: 'coder', reason: 'default route of profile_routes; explicit model kimi-k3 overrides the profile\'s model, set by the operator'});
		writeFileSync(batch.release, '');
		await batch.done;
	});
});

describe('batch.replanned in the store', () => {
	it('a queued pane refused by its new plan shows why; a refused one given a route is queued again', async () => {
		const [first, second] = plannedTasks(2);
		const store = createBatchStore({control: {cancel: async () => true, async shutdown() {}, ...noOutput}, plan: {mode: 'model_map', tasks: [first!, {...second!, decision: {route: null, refused: true, reason: 'option "x" is not in model_map'}}], warnings: []}, runId: 'r', runDir: '/tmp/r', concurrency: 1, graceMs: 0});
		expect(store.getState().tasks['t02']!.status).toBe('refused');
		const coder = {kind: 'profile' as const, name: 'coder', description: 'Writes code.'};
		store.getState().applyEvent({type: 'batch.replanned', mode: 'profile_routes', at: 1, warnings: ['w'], tasks: [
			{id: 't01', plan: {...first!, decision: {route: null, refused: true, reason: 'task.option "fast" names a model_map route, but the active mode is profile_routes'}}},
			{id: 't02', plan: {...second!, decision: {route: coder, refused: false, reason: 'default route of profile_routes'}, effective: {...second!.effective, model: null, provider: null, profile: 'coder'}}},
		]});
		const state = store.getState();
		expect(state.mode).toBe('profile_routes');
		expect(state.warnings).toEqual(['w']);
		expect(state.tasks['t01']).toMatchObject({status: 'refused', routeName: null, errorLine: expect.stringMatching(/names a model_map route/)});
		expect(state.tasks['t02']).toMatchObject({status: 'queued', routeName: 'coder', routeKind: 'profile', profile: 'coder', errorLine: null, reason: 'default route of profile_routes'});
	});
});
