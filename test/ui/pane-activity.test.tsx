// Each running pane says how long since its last output and its last tool activity,
// stuck or not, in a form that fits narrow panes. The times are the runner's (the output
// snapshot's, the events'); only the clock that ticks is the dashboard's.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import type {Spend} from '../../src/core/types.js';
import {activityLine} from '../../src/ui/text/activity.js';
import {finishTask, plannedTasks, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

const withTools = (count: number): Spend => ({input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, reasoning_tokens: null, api_calls: null, tool_calls: count, cost_usd: null, cost_status: null, model: null, billing_provider: null});

describe('the pane\'s activity line', () => {
	test('counts from the runner\'s times as the clock ticks; a new tool call or output resets its part; gone once the task ends', async () => {
		const {frame, store, control} = render({tasks: plannedTasks(1), columns: 160});
		startTask(store, 't01', t0);
		store.getState().tick(t0 + 5000);
		await vi.waitFor(() => {
			expect(frame()).toContain('no output yet · no tool call yet');
		});
		control.write('t01', ['thinking…'], undefined, t0 + 6000);
		control.publish();
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: withTools(1), at: t0 + 7000});
		store.getState().tick(t0 + 18_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('last output 12s ago · last tool call 11s ago');
		});
		store.getState().tick(t0 + 200_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('last output 3m14s ago · last tool call 3m13s ago');
		});
		store.getState().applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: withTools(2), at: t0 + 199_000});
		await vi.waitFor(() => {
			expect(frame()).toContain('last output 3m14s ago · last tool call 1s ago');
		});
		finishTask(store, 't01', 'succeeded', {startedAt: t0, finishedAt: t0 + 201_000, exitCode: 0});
		await vi.waitFor(() => {
			expect(frame()).not.toContain('last output');
		});
	});

	test('narrow panes get shorter forms; every line of the frame fits', async () => {
		const {frame, store, control} = render({tasks: plannedTasks(1), columns: 40, rows: 20});
		startTask(store, 't01', t0);
		control.write('t01', ['a line'], undefined, t0 + 1000);
		control.publish();
		store.getState().tick(t0 + 65_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('output 1m04s ago · no tool yet');
		});
		for (const line of frame().split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
		const view = {status: 'running', startedAt: t0, lastOutputAt: t0 + 1000, lastToolAt: null};
		expect(activityLine(view, t0 + 65_000, 100)).toBe('last output 1m04s ago · no tool call yet');
		expect(activityLine(view, t0 + 65_000, 30)).toBe('output 1m04s ago · no tool yet');
		expect(activityLine(view, t0 + 65_000, 20)).toBe('out 1m04s · tool –');
		expect(activityLine(view, t0 + 65_000, 8)).toBe('1m04s/–');
	});

	test('a stuck pane says its quiet once, in the stuck mark, not again in the activity line', async () => {
		const {frame, store, control} = render({tasks: plannedTasks(1), columns: 160});
		startTask(store, 't01', t0);
		control.write('t01', ['a line'], undefined, t0 + 1000);
		control.publish();
		store.getState().tick(t0 + 100_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('last output 1m39s ago');
		});
		store.getState().applyEvent({type: 'task.stuck', id: 't01', attempt: 1, stuck: true, quietSince: t0 + 1000, at: t0 + 301_000});
		store.getState().tick(t0 + 301_000);
		await vi.waitFor(() => {
			expect(frame()).toContain('stuck? no output or tool activity for 5m00s');
		});
		expect(frame()).not.toContain('last output');
		expect(frame()).toContain('a line');
	});

	test('a time from before this attempt started is an earlier attempt\'s: not this one\'s output', () => {
		expect(activityLine({status: 'running', startedAt: t0 + 10_000, lastOutputAt: t0 + 5000, lastToolAt: t0 + 12_000}, t0 + 20_000, 100)).toBe('no output yet · last tool call 8s ago');
		expect(activityLine({status: 'queued', startedAt: null, lastOutputAt: null, lastToolAt: null}, t0, 100)).toBeNull();
	});
});
