// The footer offers what applies to the focused task and the batch: R only on a task that holds
// no process, m and r only when the batch was started with its config (it can be steered). Short
// of room, it drops hints from the end and keeps help and quit.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cleanup, render as inkRender} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {loadHermesConfig} from '../../src/core/config/config.js';
import {planBatch} from '../../src/core/plan/routing.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import {loadTheme} from '../../src/core/theme/themes.js';
import {createBatchStore} from '../../src/state/store.js';
import {App} from '../../src/ui/App.js';
import {fitHints} from '../../src/ui/components/Footer.js';
import {defaultBindings} from '../../src/ui/keys/keys.js';
import {FakeControl, finishTask, plannedTasks, render, startTask, stripAnsi, t0} from '../helpers/render.js';
import {steeringConfig} from '../helpers/steering-config.js';

const homes: string[] = [];
afterEach(() => {
	cleanup();
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

/** A steerable batch of three tasks (config, steer and reroute present), the dashboard `columns` wide. */
function steerableDashboard(columns: number) {
	const home = mkdtempSync(path.join(tmpdir(), 'footer-'));
	homes.push(home);
	const configPath = path.join(home, 'config.yaml');
	writeFileSync(configPath, steeringConfig);
	const loaded = loadHermesConfig({configPath, hermesHome: home, explicit: true});
	const plan = planBatch({tasks: [{goal: 'first'}, {goal: 'second'}, {goal: 'third'}], delegation: loaded.delegation, settings: defaultSettings});
	const control = new FakeControl().steering({
		routing: () => loaded.delegation,
		steer: () => ({ok: true, message: 'not in this test', delegation: loaded.delegation, replanned: []}),
		reroute: () => ({ok: true, message: 'not in this test'}),
	});
	const store = createBatchStore({control, plan, runId: 'run-test', runDir: home, concurrency: 1, graceMs: 1000, now: t0});
	const instance = inkRender(<App store={store} theme={loadTheme('dark', {noColor: false})} bindings={defaultBindings} columns={columns} rows={30}/>);
	const footer = () => stripAnsi(instance.lastFrame() ?? '').split('\n').at(-1) ?? '';
	return {...instance, store, footer};
}

describe('footer', () => {
	test('a steerable batch offers m and r, and R on the focused queued or failed task but not on a running one', async () => {
		const view = steerableDashboard(120);
		await vi.waitFor(() => {
			expect(view.footer()).toMatch(/R re-route/);
		});
		expect(view.footer()).toMatch(/m mode/);
		expect(view.footer()).toMatch(/r routes/);

		startTask(view.store, 't01', t0 + 10);
		await vi.waitFor(() => {
			expect(view.footer()).not.toMatch(/R re-route/);
		});
		expect(view.footer()).toMatch(/c cancel/);

		finishTask(view.store, 't01', 'failed', {startedAt: t0 + 10, finishedAt: t0 + 20, exitCode: 1});
		await vi.waitFor(() => {
			expect(view.footer()).toMatch(/R re-route/);
		});
		expect(view.footer()).not.toMatch(/c cancel/);
	});

	test('at 80 columns a failed task still shows R, with help and quit', async () => {
		const view = steerableDashboard(80);
		startTask(view.store, 't01', t0 + 10);
		finishTask(view.store, 't01', 'failed', {startedAt: t0 + 10, finishedAt: t0 + 20, exitCode: 1});
		await vi.waitFor(() => {
			expect(view.footer()).toMatch(/R re-route/);
		});
		expect(view.footer()).toMatch(/\? help +q quit/);
	});

	test('a batch started without its config offers neither m, r nor R', async () => {
		const view = render({columns: 160});
		await vi.waitFor(() => {
			expect(view.frame()).toMatch(/q quit/);
		});
		const footer = view.frame().split('\n').at(-1) ?? '';
		expect(footer).not.toMatch(/m mode|r routes|R re-route/);
	});
});

describe('fitHints', () => {
	const hints = [
		{keys: '↑↓←→', label: 'move'},
		{keys: 'Enter', label: 'zoom'},
		{keys: 'c', label: 'cancel'},
		{keys: 'K', label: 'kill'},
		{keys: '?', label: 'help', pinned: true},
		{keys: 'q', label: 'quit', pinned: true},
	];

	test('keeps everything that fits', () => {
		expect(fitHints(hints, 80)).toEqual(hints);
	});

	test('drops the last unpinned hint first, so help and quit always stay', () => {
		// "↑↓←→ move  Enter zoom  ? help  q quit" is 37 columns.
		expect(fitHints(hints, 37).map(hint => hint.label)).toEqual(['move', 'zoom', 'help', 'quit']);
		expect(fitHints(hints, 36).map(hint => hint.label)).toEqual(['move', 'help', 'quit']);
		expect(fitHints(hints, 5).map(hint => hint.label)).toEqual(['help', 'quit']);
	});
});

describe('the zoom on a narrow terminal', () => {
	test('at 50 columns the zoom\'s footer keeps Esc back, with help and quit', async () => {
		const view = render({tasks: plannedTasks(1), columns: 50, rows: 24});
		startTask(view.store, 't01', t0);
		view.stdin.write('\r');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('(no output yet)');
		});
		const footer = view.frame().split('\n').at(-1)!;
		expect(footer).toContain('Esc back');
		expect(footer).toContain('? help');
		expect(footer).toContain('q quit');
	});
});
