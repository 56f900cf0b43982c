// What Hermes reports over stream-json reaches the operator: the model it really used, tokens per
// pane and for the batch in the header, tool calls, and how to continue a finished session.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {formatCount} from '../../src/ui/text/format.js';
import {finishTask, plannedTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

const telemetry = (total: number, model: string | null = null) => ({model_used: model, session_id: 's1', tokens: {input: total - 10, output: 10, total, cache_read: 0, cache_write: 0}, cost_usd: null, tool_calls: 2});

describe('telemetry in the dashboard', () => {
	test('each pane shows its tokens and tool calls, and the header the batch\'s tokens', async () => {
		const {frame, store} = render({tasks: plannedTasks(2)});
		startTask(store, 't01', t0);
		startTask(store, 't02', t0);
		store.getState().applyEvent({type: 'task.telemetry', id: 't01', telemetry: telemetry(1200), at: t0 + 1000});
		store.getState().applyEvent({type: 'task.telemetry', id: 't02', telemetry: telemetry(300), at: t0 + 1000});
		await vi.waitFor(() => {
			expect(frame()).toContain('1.2k tok · 2 tools');
			expect(frame().split('\n')[0]).toContain('1.5k tokens');
		});
	});

	test('the header keeps counting the tokens of an attempt the operator re-routed', async () => {
		const {frame, store} = render({tasks: plannedTasks(2)});
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.telemetry', id: 't01', telemetry: telemetry(1200), at: t0 + 1000});
		finishTask(store, 't01', 'failed', {startedAt: t0, finishedAt: t0 + 2000});
		store.getState().applyEvent({type: 'task.requeued', id: 't01', attempt: 2, plan: plannedTask(1), at: t0 + 3000});
		startTask(store, 't01', t0 + 3100);
		store.getState().applyEvent({type: 'task.telemetry', id: 't01', telemetry: telemetry(300), at: t0 + 4000});
		await vi.waitFor(() => {
			expect(frame()).toContain('300 tok · 2 tools');
			expect(frame().split('\n')[0]).toContain('1.5k tokens');
		});
	});

	test('a model Hermes used other than the planned one is shown beside it', async () => {
		const {frame, store} = render({tasks: [plannedTask(0)]});
		startTask(store, 't01', t0);
		store.getState().applyEvent({type: 'task.telemetry', id: 't01', telemetry: telemetry(50, 'other/model'), at: t0 + 1000});
		await vi.waitFor(() => {
			expect(frame()).toContain('google/gemini-3-flash-preview → other/model');
		});
	});

	test('the zoom of a finished task says how to continue its Hermes session', async () => {
		const {frame, store} = render({tasks: [plannedTask(0)]});
		startTask(store, 't01', t0);
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 2000, sessionId: '20261130_abc'});
		store.getState().openZoom(10);
		await vi.waitFor(() => {
			expect(frame()).toContain('continue: hermes -p default --resume 20261130_abc');
		});
	});
});

test('formatCount', () => {
	expect([950, 12_345, 2_500_000].map(formatCount)).toEqual(['950', '12.3k', '2.5M']);
});
