// What a pane tells the operator about its task, in every status.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {finishTask, plannedTask, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

const second = 1000;

function renderOne(task = plannedTask(0)) {
	return render({tasks: [task], columns: 100, rows: 20});
}

describe('task pane', () => {
	test('queued: badge, title, route and model', async () => {
		const {frame} = renderOne(plannedTask(0, {spec: {goal: 'Summarise the changelog'}}));
		await vi.waitFor(() => {
			expect(frame()).toContain('t01 Summarise the changelog');
		});
		expect(frame()).toContain('○ queued');
		expect(frame()).toContain('fast (openrouter) · google/gemini-3-flash-preview');
	});

	test('running: elapsed time that moves with the store clock, and the output tail', async () => {
		const {frame, store, control} = renderOne();
		startTask(store, 't01', t0);
		store.getState().tick(t0 + (65 * second));
		await vi.waitFor(() => {
			expect(frame()).toContain('● running 1m05s');
		});

		control.write('t01', ['first line', 'second \u001B[32mgreen\u001B[0m line', 'third line']);
		control.publish();
		store.getState().tick(t0 + (66 * second));
		await vi.waitFor(() => {
			expect(frame()).toContain('● running 1m06s');
		});
		expect(frame()).toContain('second green line');
		expect(frame()).toContain('third line');
	});

	test('shows only the newest output lines that fit, each cut to the pane width', async () => {
		const {frame, store, control} = render({tasks: [plannedTask(0)], columns: 60, rows: 14});
		startTask(store, 't01', t0);
		const lines = Array.from({length: 50}, (_, index) => `output-${String(index + 1).padStart(2, '0')} ${'x'.repeat(80)}`);
		control.write('t01', lines);
		control.publish();
		await vi.waitFor(() => {
			expect(frame()).toContain('output-50');
		});
		expect(frame()).not.toContain('output-01');
		for (const line of frame().split('\n')) {
			expect([...line].length).toBeLessThanOrEqual(60);
		}
	});

	test('cancelling: counts down to SIGKILL, then says it was sent', async () => {
		const {frame, store} = renderOne();
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.cancelling', id: 't01', cancelling: {reason: 'cancel', termSentAt: t0 + (10 * second), killDueAt: t0 + (15 * second), killSent: false}, at: t0 + (10 * second)});
		store.getState().tick(t0 + (12 * second));
		await vi.waitFor(() => {
			expect(frame()).toContain('SIGTERM sent 2s ago · SIGKILL in 3s');
		});
		expect(frame()).toContain('◐ cancelling');

		store.getState().tick(t0 + (13 * second));
		await vi.waitFor(() => {
			expect(frame()).toContain('SIGTERM sent 3s ago · SIGKILL in 2s');
		});

		store.getState().applyEvent({type: 'task.killed', id: 't01', at: t0 + (15 * second)});
		store.getState().tick(t0 + (15 * second));
		await vi.waitFor(() => {
			expect(frame()).toContain('SIGTERM sent 5s ago · SIGKILL sent');
		});
	});

	test('cancelling on the y alone: says the stop was asked, until the runner host\'s countdown replaces it', async () => {
		const {frame, store} = renderOne();
		startTask(store, 't01', t0);
		store.getState().requestCancel(false);
		store.getState().confirmYes();
		await vi.waitFor(() => {
			expect(frame()).toContain('stop asked of the runner host');
		});
		expect(frame()).toContain('◐ cancelling');
		expect(frame()).not.toContain('Cancel t01');

		store.getState().applyEvent({type: 'task.cancelling', id: 't01', cancelling: {reason: 'cancel', termSentAt: t0 + (10 * second), killDueAt: t0 + (15 * second), killSent: false}, at: t0 + (10 * second)});
		store.getState().tick(t0 + (12 * second));
		await vi.waitFor(() => {
			expect(frame()).toContain('SIGTERM sent 2s ago · SIGKILL in 3s');
		});
		expect(frame()).not.toContain('stop asked');
	});

	test('succeeded: the run time', async () => {
		const {frame, store} = renderOne();
		startTask(store, 't01', t0);
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + (65 * second), exitCode: 0});
		store.getState().tick(t0 + (200 * second));
		await vi.waitFor(() => {
			expect(frame()).toContain('✓ succeeded 1m05s');
		});
	});

	test('failed: the exit code and the error line', async () => {
		const {frame, store} = renderOne();
		startTask(store, 't01', t0);
		finishTask(store, 't01', 'failed', {startedAt: t0, finishedAt: t0 + (12 * second), exitCode: 1, error: 'Traceback (most recent call last):\nValueError: no API key for openrouter'});
		await vi.waitFor(() => {
			expect(frame()).toContain('✗ failed exit 1 · 12s');
		});
		expect(frame()).toContain('ValueError: no API key for openrouter');
	});

	test('failed: an error line the output tail already shows is shown once, whole, above the tail', async () => {
		const {frame, store, control} = renderOne();
		startTask(store, 't01', t0);
		control.write('t01', ['working', 'Traceback (most recent call last):', 'ValueError: no API key for openrouter'], 'ValueError: no API key for openrouter');
		control.publish();
		finishTask(store, 't01', 'failed', {startedAt: t0, finishedAt: t0 + (12 * second), exitCode: 1});
		await vi.waitFor(() => {
			expect(frame()).toContain('✗ failed exit 1 · 12s');
		});
		expect(frame().match(/ValueError: no API key for openrouter/g)).toHaveLength(1);
		expect(frame()).toMatch(/┃ ValueError: no API key for openrouter +┃\n┃ working/);
	});

	test('failed: a long error line the tail shows cut is shown whole, wrapped, as the detail', async () => {
		const {frame, store, control} = renderOne();
		const error = `Error: provider returned 429 Too Many Requests for google/gemini-3-flash-preview ${'(retry after 30s) '.repeat(3)}`.trim();
		startTask(store, 't01', t0);
		control.write('t01', ['working', error], error);
		control.publish();
		finishTask(store, 't01', 'failed', {startedAt: t0, finishedAt: t0 + (12 * second), exitCode: 1});
		await vi.waitFor(() => {
			expect(frame()).toContain('✗ failed exit 1 · 12s');
		});
		const text = frame().split('\n').map(line => line.replace(/^[┃│]\s?/, '').replace(/\s*[┃│]$/, '')).join(' ').replaceAll(/\s+/g, ' ');
		expect(text).toContain(error);
		expect(frame()).not.toContain('…');
	});

	test('cancelled and timed out say so', async () => {
		const {frame, store} = render({tasks: [plannedTask(0), plannedTask(1)], columns: 100, rows: 24});
		startTask(store, 't01', t0);
		startTask(store, 't02', t0);
		finishTask(store, 't01', 'cancelled', {startedAt: t0, finishedAt: t0 + (3 * second), signal: 'SIGTERM'});
		finishTask(store, 't02', 'timed_out', {startedAt: t0, finishedAt: t0 + (300 * second), signal: 'SIGKILL'});
		await vi.waitFor(() => {
			expect(frame()).toContain('⊘ cancelled 3s');
		});
		expect(frame()).toContain('◷ timed out 5m00s');
	});

	test('refused: no model claimed, and the whole reason in the room the pane has', async () => {
		const reason = 'option "huge" is not one of the model routes: fast, deep, research, summarise, translate; add it to delegation.backends.model_map.options in config.yaml or pick one of those';
		const {frame} = render({tasks: [plannedTask(0, {decision: {route: null, refused: true, reason}, effective: {model: null, provider: null}})], columns: 50, rows: 20});
		await vi.waitFor(() => {
			expect(frame()).toContain('⊖ refused');
		});
		expect(frame()).toContain('refused: not run');
		expect(frame()).not.toContain("parent's model");
		expect(frame()).not.toContain('no route');
		const text = frame().replaceAll(/\s*[│┃]\s*/g, ' ').replaceAll(/\s+/g, ' ');
		expect(text).toContain(reason);
	});

	test('refused: the reason, without starting', async () => {
		const {frame} = renderOne(plannedTask(0, {decision: {route: null, refused: true, reason: 'option "huge" is not one of the model routes: fast, deep'}}));
		await vi.waitFor(() => {
			expect(frame()).toContain('⊖ refused');
		});
		expect(frame()).toContain('option "huge" is not one of the model routes: fast, deep');
	});

	test('route details: reasoning effort, and profile routes by profile name', async () => {
		const deep = plannedTask(0, {
			decision: {route: {kind: 'model', name: 'deep', description: 'Careful', model: 'claude-opus-5', provider: 'anthropic', reasoning_effort: 'high'}},
			effective: {model: 'claude-opus-5', provider: 'anthropic', reasoning_effort: 'high'},
		});
		const coder = plannedTask(1, {
			decision: {route: {kind: 'profile', name: 'coder', description: 'Writes code'}},
			effective: {model: null, provider: null, profile: 'coder'},
		});
		const {frame} = render({tasks: [deep, coder], columns: 100, rows: 24});
		await vi.waitFor(() => {
			expect(frame()).toContain('deep (anthropic, high) · claude-opus-5');
		});
		expect(frame()).toContain("profile coder · profile's model");
	});

	test('a profile route shows the model its profile\'s config.yaml names, marked as that config\'s', async () => {
		const coder = plannedTask(0, {
			decision: {route: {kind: 'profile', name: 'coder', description: 'Writes code', configured_model: 'profile-coder-model'}},
			effective: {model: null, provider: null, profile: 'coder'},
		});
		const {frame} = render({tasks: [coder], columns: 100, rows: 24});
		await vi.waitFor(() => {
			expect(frame()).toContain("profile coder · profile-coder-model (profile's config)");
		});
	});

	test('a long title is cut to the pane, keeping the status badge whole', async () => {
		const {frame, store} = render({tasks: [plannedTask(0, {spec: {goal: `Investigate ${'the flaky integration test '.repeat(6)}`}})], columns: 50, rows: 14});
		startTask(store, 't01', t0);
		await vi.waitFor(() => {
			expect(frame()).toContain('● running 0s');
		});
		expect(frame()).toMatch(/t01 Investigate the flaky.*… ● running 0s/);
	});
});
