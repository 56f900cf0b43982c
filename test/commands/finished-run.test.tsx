// A finished run opened from its run folder (attach on a finished run): the store made from the
// recorded events and the logs, rendered as the dashboard renders it. Panes, zoom and search read
// the logs; every steering key says the run is read-only and asks nothing of the core.
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {cleanup, render as inkRender} from 'ink-testing-library';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {openFinishedRun} from '../../src/commands/finished-run.js';
import {loadTheme} from '../../src/core/theme/themes.js';
import {EventRecord} from '../../src/core/run-folder/events.js';
import type {BatchEvent, BatchReport, TaskResult} from '../../src/core/types.js';
import {readOnlyNotice} from '../../src/state/store.js';
import {App} from '../../src/ui/App.js';
import {defaultBindings} from '../../src/ui/keys/keys.js';
import {plannedTasks, stripAnsi, t0, testHermes} from '../helpers/render.js';
import {scratchAfterEach} from '../helpers/scratch.js';

afterEach(cleanup);
const scratch = scratchAfterEach();

function result(id: string, status: 'succeeded' | 'failed', answer: string): TaskResult {
	return {
		id, name: null, goal: `goal of ${id}`, model: 'm', route: {name: 'fast', kind: 'model', provider: 'p', model: 'm', reasoning_effort: null, service_tier: null, profile: null, refused: false, reason: 'r'},
		status, success: status === 'succeeded', exit_code: status === 'succeeded' ? 0 : 1, signal: null,
		started_at: new Date(t0).toISOString(), finished_at: new Date(t0 + 65_000).toISOString(), duration_ms: 65_000,
		result: answer, answer, session_id: null, hermes_version: null, tokens: null, model_used: null, tool_calls: [], log: null,
	};
}

/** A run folder as a finished batch of two tasks leaves it: its record and one log per task. */
function finishedRunFolder(): {runId: string; dir: string} {
	const dir = scratch.folder('hd-finished-');
	const tasks = plannedTasks(2);
	const results = [result('t01', 'succeeded', 'the answer'), result('t02', 'failed', '')];
	const report: BatchReport = {summary: '1/2 tasks succeeded', run_id: 'r', run_dir: dir, results_file: path.join(dir, 'results.json'), mode: 'model_map', interrupted: false, hermes: testHermes, warnings: [], results};
	const events: BatchEvent[] = [
		{type: 'batch.planned', runId: 'r', runDir: dir, plan: {mode: 'model_map', tasks, warnings: []}, at: t0},
		{type: 'task.started', id: 't01', pid: 1, argv: [], at: t0},
		{type: 'task.started', id: 't02', pid: 2, argv: [], at: t0},
		{type: 'task.finished', id: 't01', result: results[0]!, at: t0 + 65_000},
		{type: 'task.finished', id: 't02', result: results[1]!, at: t0 + 65_000},
		{type: 'batch.finished', report, at: t0 + 65_000},
	];
	const record = new EventRecord(dir);
	for (const event of events) record.add(event);
	mkdirSync(path.join(dir, 'logs'));
	writeFileSync(path.join(dir, 'logs', 't01.log'), `${Array.from({length: 40}, (_, index) => `line ${index + 1}`).join('\n')}\nthe needle is here\nthe answer\nsession_id: 20250101_120000_abcdef\n`);
	writeFileSync(path.join(dir, 'logs', 't02.log'), 'Error: the provider refused\n');
	return {runId: '20250101-120000-abcdef', dir};
}

function show() {
	const {store} = openFinishedRun(finishedRunFolder());
	const instance = inkRender(<App store={store} theme={loadTheme('dark', {noColor: false})} bindings={defaultBindings} columns={120} rows={30}/>);
	return {store, ...instance, frame: () => stripAnsi(instance.lastFrame() ?? '')};
}

describe('a finished run, read-only', () => {
	it('shows each task as it ended, its log\'s last lines in its pane, and says read-only in the header', async () => {
		const view = show();
		await vi.waitFor(() => {
			expect(view.frame()).toMatch(/finished after 1m05s · model routes · read-only/);
		});
		const frame = view.frame();
		expect(frame).toMatch(/t01 .*✓ succeeded/);
		expect(frame).toMatch(/t02 .*✗ failed/);
		expect(frame).toContain('the needle is here');
		expect(frame).toContain('Error: the provider refused');
		// Hermes's closing session line is no more news here than it was live.
		expect(frame).not.toContain('session_id:');
		expect(view.store.getState()).toMatchObject({readOnly: true, canSteer: false, canDetach: false});
	});

	it.each([['c', 'cancel'], ['K', 'kill'], ['R', 're-route'], ['r', 'routes'], ['m', 'mode']])('%s (%s) says the run is read-only, opens nothing and is not offered', async key => {
		const view = show();
		await vi.waitFor(() => {
			expect(view.frame()).toContain('read-only');
		});
		view.stdin.write(key);
		await vi.waitFor(() => {
			expect(view.store.getState().notice).toBe(readOnlyNotice);
		});
		expect(view.store.getState().overlay).toBeNull();
		expect(view.frame()).toMatch(/this run has finished: read-only/i);
		expect(view.frame()).not.toMatch(/\bc cancel\b|\bK kill\b|\bR re-route\b|\br routes\b|\bm mode\b/);
	});

	it('zooms into the whole log and finds a line in it', async () => {
		const view = show();
		await vi.waitFor(() => {
			expect(view.frame()).toContain('read-only');
		});
		view.stdin.write('\r');
		await vi.waitFor(() => {
			expect(view.frame()).toMatch(/lines \d+–42 of 42/);
		});
		view.stdin.write('/');
		await vi.waitFor(() => {
			expect(view.store.getState().overlay?.kind).toBe('zoom');
		});
		view.stdin.write('line 3');
		view.stdin.write('\r');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('match "line 3" at line 39');
		});
	});
});
