// R's route picker driven by the keyboard: its last row, "explicit model…", opens a text field
// for the model, then one for its provider (empty: the one Hermes configures); Enter there hands
// both to the control (a blank model is refused in place and the control is not asked), Esc goes
// back a step. The runner side is test/state/steering.test.ts.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cleanup, render as inkRender} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {loadHermesConfig} from '../../src/core/config/config.js';
import type {RetryTarget} from '../../src/core/types.js';
import {planBatch} from '../../src/core/plan/routing.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import {loadTheme} from '../../src/core/theme/themes.js';
import {createBatchStore} from '../../src/state/store.js';
import {App} from '../../src/ui/App.js';
import {defaultBindings} from '../../src/ui/keys/keys.js';
import {FakeControl, finishTask, startTask, stripAnsi, t0} from '../helpers/render.js';
import {steeringConfig} from '../helpers/steering-config.js';

const homes: string[] = [];
afterEach(() => {
	cleanup();
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

const keys = {down: '\u001B[B', enter: '\r', escape: '\u001B'};

function picker(config = steeringConfig, tasks: Array<Record<string, unknown> & {goal: string}> = [{goal: 'summaries of the logs'}, {goal: 'anything'}]) {
	const home = mkdtempSync(path.join(tmpdir(), 'reroute-picker-'));
	homes.push(home);
	const configPath = path.join(home, 'config.yaml');
	writeFileSync(configPath, config);
	const loaded = loadHermesConfig({configPath, hermesHome: home, explicit: true});
	const plan = planBatch({tasks, delegation: loaded.delegation, settings: defaultSettings});
	const rerouted: Array<{id: string; target: RetryTarget}> = [];
	const control = new FakeControl().steering({
		routing: () => loaded.delegation,
		steer: () => ({ok: true, message: 'not in this test', delegation: loaded.delegation, replanned: []}),
		reroute(id: string, target: RetryTarget) {
			rerouted.push({id, target});
			return {ok: true, message: `${id} queued with explicit model "${typeof target === 'string' ? target : `${target.model}${target.provider ? ` on ${target.provider}` : ''}`}"`};
		},
	});
	const store = createBatchStore({control, plan, runId: 'run-test', runDir: home, concurrency: 1, graceMs: 1000, now: t0});
	const instance = inkRender(<App store={store} theme={loadTheme('dark', {noColor: false})} bindings={defaultBindings} columns={110} rows={30}/>);
	const frame = () => stripAnsi(instance.lastFrame() ?? '');
	const until = async (pattern: RegExp) => vi.waitFor(() => {
		expect(frame()).toMatch(pattern);
	});
	return {...instance, store, rerouted, frame, until};
}

describe('R: where the task is now', () => {
	test('a succeeded task is offered R and goes back in the queue on the route picked (restart a succeeded task)', async () => {
		const view = picker();
		startTask(view.store, 't01', t0);
		finishTask(view.store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 1000, exitCode: 0, answer: 'done'});
		await view.until(/succeeded/);
		expect(view.frame().split('\n').at(-1)).toContain('R run again');
		view.stdin.write('R');
		await view.until(/Re-route t01 /);
		view.stdin.write(keys.enter);
		await vi.waitFor(() => {
			expect(view.rerouted.map(entry => entry.id)).toEqual(['t01']);
		});
	});

	test('a running task is not: R says which tasks it acts on', async () => {
		const view = picker();
		startTask(view.store, 't01', t0);
		await view.until(/running/);
		view.stdin.write('R');
		await vi.waitFor(() => {
			expect(view.store.getState().notice).toMatch(/only a queued task, or one that ran and ended \(succeeded, failed, cancelled, timed out or lost\) can be re-routed/);
		});
	});

	test('the picker opens on the task\'s own route and marks it as current', async () => {
		const view = picker(steeringConfig, [{goal: 'hard design work', option: 'deep'}]);
		view.stdin.write('R');
		await view.until(/Re-route t01 /);
		expect(view.frame()).toMatch(/▸ deep \(current\) · claude-opus-5/);
		expect(view.frame()).toMatch(/ {2}fast \(default\) · /);
		expect(view.frame()).not.toMatch(/fast \(default\) \(current\)/);
	});
});

describe('R: explicit model…', () => {
	test('the picker lists the routes and then "explicit model…", whose field sends the typed model; Esc goes back to the picker', async () => {
		const view = picker();
		view.stdin.write('R');
		await view.until(/Re-route t01 /);
		expect(view.frame()).toMatch(/▸ fast \(default\)/);
		expect(view.frame()).toMatch(/ {2}deep · claude-opus-5/);
		expect(view.frame()).toMatch(/ {2}explicit model…/);

		view.stdin.write(keys.down);
		await view.until(/ {2}fast \(default\)/);
		view.stdin.write(keys.down);
		await view.until(/▸ explicit model…/);
		view.stdin.write(keys.enter);
		await view.until(/model: /);
		expect(view.frame()).toMatch(/Enter asks its provider next · Esc goes back to the routes/);

		// Nothing typed: refused in place, the control is not asked.
		view.stdin.write(keys.enter);
		await view.until(/refused: a model name must not be empty/);
		expect(view.rerouted).toEqual([]);

		// Esc leaves the field, not the picker.
		view.stdin.write(keys.escape);
		await vi.waitFor(() => {
			expect(view.frame()).not.toMatch(/model: /);
		});
		expect(view.frame()).toMatch(/▸ explicit model…/);
		expect(view.frame()).toMatch(/Re-route t01 /);

		view.stdin.write(keys.enter);
		await view.until(/model: /);
		view.stdin.write('kimi-k3');
		await view.until(/model: kimi-k3/);
		view.stdin.write(keys.enter);
		await view.until(/provider: /);
		expect(view.frame()).toMatch(/▸ explicit model… kimi-k3/);
		expect(view.frame()).toMatch(/Enter puts t01 back in the queue on that model \(empty: Hermes's own provider\) · Esc back to the model/);
		expect(view.rerouted).toEqual([]);

		// Esc goes back to the model as typed; Enter asks the provider again.
		view.stdin.write(keys.escape);
		await view.until(/model: kimi-k3/);
		view.stdin.write(keys.enter);
		await view.until(/provider: /);
		view.stdin.write('nous');
		await view.until(/provider: nous/);
		view.stdin.write(keys.enter);
		await view.until(/t01 queued with explicit model "kimi-k3 on nous"/);
		expect(view.rerouted).toEqual([{id: 't01', target: {model: 'kimi-k3', provider: 'nous'}}]);
		expect(view.store.getState().overlay).toBeNull();
	});

	test('in the built-in mode, which has no routes, the picker offers the explicit model alone', async () => {
		const view = picker(steeringConfig.replace('backend: model_map', 'backend: default'));
		view.stdin.write('R');
		await view.until(/▸ explicit model…/);
		expect(view.frame()).toMatch(/Enter asks for the model to run t01 on · Esc cancels/);
		expect(view.frame()).toMatch(/The built-in mode has no routes: subagents run on Hermes's own delegation settings, or on an explicit/);
		view.stdin.write(keys.enter);
		await view.until(/model: /);
		view.stdin.write('kimi-k3');
		await view.until(/model: kimi-k3/);
		view.stdin.write(keys.enter);
		await view.until(/provider: /);
		// No provider typed: the model alone, on the provider Hermes configures for it.
		view.stdin.write(keys.enter);
		await view.until(/t01 queued with explicit model "kimi-k3"/);
		expect(view.rerouted).toEqual([{id: 't01', target: {model: 'kimi-k3'}}]);
	});
});
