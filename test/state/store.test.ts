// The store's contract with the batch: events apply at once (telemetry waits for the next output
// push), output arrives as the host pushes it (whole panes, never per line), the clock wakes only
// for what it shows, and the operator's intents reach the core only after confirmation.
import {afterEach, describe, expect, it, vi} from 'vitest';
import {TaskOutput} from '../../src/core/output/task-output.js';
import type {BatchEvent, PlannedTask, TaskResult} from '../../src/core/types.js';
import {feedStore} from '../../src/state/feed.js';
import {createBatchStore} from '../../src/state/store.js';
import {outputControl} from '../../src/host/control.js';
import {PaneLedger} from '../../src/host/pane-ledger.js';
import {ClientPanes} from '../../src/client/panes.js';
import type {BatchControl, OutputSnapshot} from '../../src/wire/port.js';
import {plannedTask, plannedTasks, t0, testHermes} from '../helpers/render.js';
import {questionOf, zoomOf} from '../helpers/overlay.js';
import {fieldAtEnd} from '../../src/state/text-field.js';
import {failureLine} from '../../src/state/task-view.js';
import {unknownSpend} from '../../src/core/hermes/state-db/sessions.js';

function setup(taskCount = 2, plan: {tasks: PlannedTask[]; warnings: string[]} = {tasks: plannedTasks(taskCount), warnings: []}) {
	const outputs = new Map(plan.tasks.map(task => [task.id, new TaskOutput({maxLines: 500})]));
	const calls: string[] = [];
	const control: BatchControl = {
		async cancel(id, options) {
			calls.push(`cancel ${id} ${options.skipGrace ? 'kill' : 'term'}`);
			return true;
		},
		async shutdown(options) {
			calls.push(`shutdown ${options.skipGrace ? 'kill' : 'term'}`);
		},
		...outputControl(id => outputs.get(id)),
	};
	const store = createBatchStore({control, plan: {mode: 'model_map', ...plan}, runId: 'run-1', runDir: '/tmp/run-1', concurrency: 2, graceMs: 5000, now: t0});
	const listeners = new Set<(event: BatchEvent) => void>();
	const outputListeners = new Set<(panes: Readonly<Record<string, OutputSnapshot>>) => void>();
	// The host's side of the output (one client's ledger) and the client's, as over the socket.
	const ledger = new PaneLedger(40, true);
	const clientPanes = new ClientPanes(40);
	const source = {
		subscribe(listener: (event: BatchEvent) => void) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		subscribeOutput(listener: (panes: Readonly<Record<string, OutputSnapshot>>) => void) {
			outputListeners.add(listener);
			return () => outputListeners.delete(listener);
		},
		emit(event: BatchEvent) {
			for (const listener of listeners) {
				listener(event);
			}
		},
		/** One push of the host's pacer: the panes that moved, to every output listener. */
		push() {
			const panes = clientPanes.take(ledger.changes(outputs));
			for (const listener of outputListeners) listener(panes);
		},
	};
	/** A push straight into the store, without a feed. */
	const publish = () => store.getState().takeOutput(clientPanes.take(ledger.changes(outputs)));
	return {store, outputs, calls, source, publish};
}

function result(id: string, status: TaskResult['status'], exitCode: number | null): TaskResult {
	return {id, name: null, goal: 'g', model: null, route: {name: null, kind: 'parent', provider: null, model: null, reasoning_effort: null, service_tier: null, profile: null, refused: false, reason: ''}, status, success: status === 'succeeded', exit_code: exitCode, signal: null, started_at: new Date(t0).toISOString(), finished_at: new Date(t0 + 3000).toISOString(), duration_ms: 3000, result: '', answer: '', session_id: null, hermes_version: null, tokens: null, model_used: null, tool_calls: [], log: null};
}

afterEach(() => {
	vi.useRealTimers();
});

/** The control's replies sent so far have landed (they are answered at once, and land a turn later). */
async function replied(): Promise<void> {
	await new Promise(resolve => setImmediate(resolve));
}

describe('output pushes', () => {
	it('a flood of lines reaches the store in one update, keeping only a pane-sized tail', () => {
		const {store, outputs, publish} = setup();
		let updates = 0;
		store.subscribe(() => updates++);
		const output = outputs.get('t01')!;
		for (let line = 0; line < 10_000; line++) {
			output.pushStdout(Buffer.from(`line ${line}\n`));
		}

		expect(updates).toBe(0); // nothing reaches the store per line
		publish();
		expect(updates).toBe(1);
		const view = store.getState().tasks['t01']!;
		expect(view.tail).toHaveLength(40);
		expect(view.tail.at(-1)).toBe('line 9999');
		expect(view.totalLines).toBe(10_000);
		publish();
		expect(updates).toBe(1); // unchanged output pushes nothing
	});

	it('the feed applies each push as it arrives, and nothing between pushes', () => {
		vi.useFakeTimers({now: t0});
		const {store, outputs, source} = setup();
		const stop = feedStore(store, source, {now: () => Date.now()});
		source.emit({type: 'task.started', id: 't01', pid: 123, argv: ['hermes'], at: t0});
		expect(store.getState().tasks['t01']!.status).toBe('running');
		outputs.get('t01')!.pushStdout(Buffer.from('one\n'));
		vi.advanceTimersByTime(5000);
		expect(store.getState().tasks['t01']!.tail).toEqual([]);
		source.push();
		expect(store.getState().tasks['t01']!.tail).toEqual(['one']);
		outputs.get('t01')!.pushStdout(Buffer.from('two\n'));
		source.push();
		expect(store.getState().tasks['t01']!.tail).toEqual(['one', 'two']);
		stop();
	});

	it('a failed task\'s stderr line shows whether its last output is pushed before or after its finish', () => {
		for (const order of ['output first', 'finish first']) {
			const {store, outputs, publish} = setup();
			store.getState().applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0});
			outputs.get('t01')!.pushStderr(Buffer.from('Error: provider returned 429\n'));
			if (order === 'output first') publish();
			store.getState().applyEvent({type: 'task.finished', id: 't01', result: result('t01', 'failed', 1), at: t0 + 100});
			if (order === 'finish first') publish();
			expect(failureLine(store.getState().tasks['t01']!), order).toBe('Error: provider returned 429');
		}
	});
});

describe('the clock', () => {
	/** The store's `now` as it moved over `ms` of fake time. */
	function ticksOver(store: ReturnType<typeof createBatchStore>, ms: number): number {
		let ticks = 0;
		const unsubscribe = store.subscribe((state, before) => {
			if (state.now !== before.now) ticks++;
		});
		vi.advanceTimersByTime(ms);
		unsubscribe();
		return ticks;
	}

	it('wakes once a second while the batch runs, 12 times a second during a cancel countdown, and not at all once nothing shown can change', () => {
		vi.useFakeTimers({now: t0});
		const {store, source} = setup();
		const stop = feedStore(store, source, {now: () => Date.now()});
		source.emit({type: 'task.started', id: 't01', pid: 1, argv: [], at: t0});
		expect(ticksOver(store, 10_000)).toBe(10);
		source.emit({type: 'task.cancelling', id: 't01', cancelling: {termSentAt: Date.now(), killDueAt: Date.now() + 5000, killSent: false}, at: Date.now()} as BatchEvent);
		const counting = ticksOver(store, 1000);
		expect(counting).toBeGreaterThanOrEqual(11);
		expect(counting).toBeLessThanOrEqual(13);
		source.emit({type: 'task.finished', id: 't01', result: result('t01', 'cancelled', null), at: Date.now()});
		source.emit({type: 'task.finished', id: 't02', result: result('t02', 'cancelled', null), at: Date.now()});
		source.emit({type: 'batch.finished', report: {summary: '', run_id: 'run-1', run_dir: '', results_file: '', mode: 'model_map', interrupted: false, hermes: testHermes, warnings: [], results: []}, at: Date.now()});
		ticksOver(store, 1000); // the wake-up already set may come once more
		expect(ticksOver(store, 60_000)).toBe(0);
		expect(vi.getTimerCount()).toBe(0);
		// R re-opens the batch: its clock moves again.
		source.emit({type: 'batch.reopened', at: Date.now()} as BatchEvent);
		expect(ticksOver(store, 3000)).toBe(3);
		stop();
	});
});

describe('telemetry publishing', () => {
	const telemetry = (id: string, toolCalls: number, at: number): BatchEvent => ({type: 'task.telemetry', id, telemetry: {model_used: 'm', session_id: null, tokens: null, cost_usd: null, tool_calls: toolCalls}, at});

	it('waits for the next output push (a push\'s interval at most), the newest snapshot of each task in one update', () => {
		vi.useFakeTimers({now: t0});
		const {store, source} = setup();
		const stop = feedStore(store, source, {now: () => Date.now()});
		source.emit({type: 'task.started', id: 't01', pid: 1, argv: [], at: t0});
		source.emit({type: 'task.started', id: 't02', pid: 2, argv: [], at: t0});
		vi.advanceTimersByTime(100);
		let updates = 0;
		store.subscribe(() => updates++);
		for (let call = 1; call <= 50; call++) {
			source.emit(telemetry(call % 2 ? 't01' : 't02', call, t0 + call));
		}

		expect(updates).toBe(0);
		expect(store.getState().tasks['t01']!.telemetry).toBeNull();
		vi.advanceTimersByTime(100);
		expect(store.getState().tasks['t01']!.telemetry?.tool_calls).toBe(49);
		expect(store.getState().tasks['t02']!.telemetry?.tool_calls).toBe(50);
		stop();
	});

	it('is applied before any later event, so a finished task never shows a stale snapshot over its result', () => {
		vi.useFakeTimers({now: t0});
		const {store, source} = setup();
		const stop = feedStore(store, source, {now: () => Date.now()});
		const seen: string[] = [];
		store.subscribe(state => {
			const task = state.tasks['t01']!;
			seen.push(`${task.status} ${task.telemetry?.tool_calls ?? '-'}`);
		});
		source.emit({type: 'task.started', id: 't01', pid: 1, argv: [], at: t0});
		source.emit(telemetry('t01', 3, t0 + 1));
		source.emit({type: 'task.finished', id: 't01', result: result('t01', 'succeeded', 0), at: t0 + 2});
		vi.advanceTimersByTime(1000);
		stop();

		expect(seen.slice(0, 3)).toEqual(['running -', 'running 3', 'succeeded 3']);
		expect(store.getState().tasks['t01']).toMatchObject({status: 'succeeded', telemetry: {tool_calls: 3}});
	});

	it('still reaches the store when the feed stops between two publishes', () => {
		vi.useFakeTimers({now: t0});
		const {store, source} = setup();
		const stop = feedStore(store, source, {now: () => Date.now()});
		source.emit({type: 'task.started', id: 't01', pid: 1, argv: [], at: t0});
		source.emit(telemetry('t01', 7, t0 + 1));
		stop();

		expect(store.getState().tasks['t01']!.telemetry?.tool_calls).toBe(7);
	});
});

describe('events', () => {
	it('shows what a queued task waits for until it starts, a stuck mark for its own attempt only, and each budget\'s newest standing', () => {
		const {store} = setup();
		const {applyEvent} = store.getState();
		applyEvent({type: 'task.waiting', id: 't01', waitingFor: 'openrouter\u001B[2J: 4 of 4 slots busy', at: t0});
		expect(store.getState().tasks['t01']!.waitingFor).toBe('openrouter: 4 of 4 slots busy');
		applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0 + 10});
		expect(store.getState().tasks['t01']!.waitingFor).toBeNull();
		applyEvent({type: 'task.stuck', id: 't01', attempt: 2, stuck: true, quietSince: t0 + 10, at: t0 + 300_010});
		expect(store.getState().tasks['t01']!.stuckSince).toBeNull();
		applyEvent({type: 'task.stuck', id: 't01', attempt: 1, stuck: true, quietSince: t0 + 10, at: t0 + 300_010});
		expect(store.getState().tasks['t01']!.stuckSince).toBe(t0 + 10);
		applyEvent({type: 'task.stuck', id: 't01', attempt: 1, stuck: false, quietSince: t0 + 300_500, at: t0 + 300_500});
		expect(store.getState().tasks['t01']!.stuckSince).toBeNull();

		const standing = (spent: number, level: 'warning' | 'reached') => ({scope: {kind: 'batch' as const}, unit: 'usd' as const, limit: 1, spent, level, action: 'stop' as const});
		applyEvent({type: 'batch.budget', budget: standing(0.8, 'warning'), at: t0 + 1});
		applyEvent({type: 'batch.budget', budget: {...standing(900, 'warning'), unit: 'tokens', limit: 1000}, at: t0 + 2});
		applyEvent({type: 'batch.budget', budget: standing(1.02, 'reached'), at: t0 + 3});
		expect(Object.values(store.getState().budgets).map(budget => [budget.unit, budget.level])).toEqual([['usd', 'reached'], ['tokens', 'warning']]);
	});

	it('shows the running attempt\'s spend, ignores a late one of an earlier attempt, and keeps the result\'s at the end', () => {
		const {store} = setup();
		const {applyEvent} = store.getState();
		const spend = (tool_calls: number) => ({...unknownSpend, tool_calls});
		applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0});
		applyEvent({type: 'task.spend', id: 't01', attempt: 1, spend: spend(2), at: t0 + 1000});
		expect(store.getState().tasks['t01']!.spend?.tool_calls).toBe(2);
		applyEvent({type: 'task.spend', id: 't01', attempt: 2, spend: spend(9), at: t0 + 1500});
		expect(store.getState().tasks['t01']!.spend?.tool_calls).toBe(2);
		applyEvent({type: 'task.finished', id: 't01', result: {...result('t01', 'succeeded', 0), spend: spend(3)}, at: t0 + 2000});
		expect(store.getState().tasks['t01']!.spend?.tool_calls).toBe(3);
	});

	it('shows the cascade: cancelling with its deadline, then SIGKILL sent, then the final status', () => {
		const {store, outputs} = setup();
		const {applyEvent} = store.getState();
		applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0});
		applyEvent({type: 'task.cancelling', id: 't01', cancelling: {reason: 'cancel', termSentAt: t0 + 1000, killDueAt: t0 + 6000, killSent: false}, at: t0 + 1000});
		expect(store.getState().tasks['t01']!.status).toBe('cancelling');
		applyEvent({type: 'task.killed', id: 't01', at: t0 + 6000});
		expect(store.getState().tasks['t01']!.cancelling).toMatchObject({killSent: true, killDueAt: t0 + 6000});
		outputs.get('t01')!.pushStderr(Buffer.from('ignoring SIGTERM\n'));
		applyEvent({type: 'task.finished', id: 't01', result: {...result('t01', 'cancelled', null), signal: 'SIGKILL'}, at: t0 + 6100});
		// The pane says how the cascade ended, not the agent's last complaint.
		expect(store.getState().tasks['t01']).toMatchObject({status: 'cancelled', cancelling: null, errorLine: 'ignored SIGTERM: killed with SIGKILL after the grace period'});
	});

	it('K (kill now) says the grace period was skipped, not that SIGTERM was ignored', () => {
		const {store} = setup();
		const {applyEvent} = store.getState();
		applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0});
		// What the runner announces for K on a running task: SIGKILL due the moment SIGTERM went.
		applyEvent({type: 'task.cancelling', id: 't01', cancelling: {reason: 'cancel', termSentAt: t0 + 1000, killDueAt: t0 + 1000, killSent: false}, at: t0 + 1000});
		applyEvent({type: 'task.killed', id: 't01', at: t0 + 1001});
		applyEvent({type: 'task.finished', id: 't01', result: {...result('t01', 'cancelled', null), signal: 'SIGKILL'}, at: t0 + 1100});
		expect(store.getState().tasks['t01']!.errorLine).toBe('killed with SIGKILL (grace period skipped)');
	});

	it('K during the grace period cuts it short: killed early, which says so', () => {
		const {store} = setup();
		const {applyEvent} = store.getState();
		applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0});
		applyEvent({type: 'task.cancelling', id: 't01', cancelling: {reason: 'cancel', termSentAt: t0 + 1000, killDueAt: t0 + 6000, killSent: false}, at: t0 + 1000});
		applyEvent({type: 'task.killed', id: 't01', at: t0 + 2000});
		applyEvent({type: 'task.finished', id: 't01', result: {...result('t01', 'cancelled', null), signal: 'SIGKILL'}, at: t0 + 2100});
		expect(store.getState().tasks['t01']!.errorLine).toBe('killed with SIGKILL (grace period skipped)');
	});

	it('a task cancelled while queued says it never started', () => {
		const {store} = setup();
		store.getState().applyEvent({type: 'task.finished', id: 't02', result: {...result('t02', 'cancelled', null), started_at: null, finished_at: null}, at: t0});
		expect(store.getState().tasks['t02']).toMatchObject({status: 'cancelled', errorLine: 'cancelled before it started'});
	});

	it('the batch keeps the time it finished, so its run time stops there', () => {
		const {store} = setup();
		store.getState().applyEvent({type: 'batch.finished', report: {summary: '', run_id: 'run-1', run_dir: '', results_file: '', mode: 'model_map', interrupted: false, hermes: testHermes, warnings: [], results: []}, at: t0 + 24_000});
		store.getState().tick(t0 + 90_000);
		expect(store.getState()).toMatchObject({startedAt: t0, finishedAt: t0 + 24_000});
	});

	it('a failed task shows the stderr line that matters', () => {
		const {store, outputs, publish} = setup();
		store.getState().applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0});
		outputs.get('t01')!.pushStderr(Buffer.from('Error: provider returned 429\n'));
		publish();
		store.getState().applyEvent({type: 'task.finished', id: 't01', result: result('t01', 'failed', 1), at: t0 + 100});
		expect(store.getState().tasks['t01']).toMatchObject({status: 'failed', exitCode: 1});
		expect(failureLine(store.getState().tasks['t01']!)).toBe('Error: provider returned 429');
	});
});

describe('intents', () => {
	it('cancels only after confirmation, and only the focused task', () => {
		const {store, calls} = setup();
		store.getState().applyEvent({type: 'task.started', id: 't02', pid: 43, argv: [], at: t0});
		store.getState().focus('t02');
		store.getState().requestCancel(false);
		expect(calls).toEqual([]);
		store.getState().confirmNo();
		expect(calls).toEqual([]);
		store.getState().requestCancel(true);
		store.getState().confirmYes();
		expect(calls).toEqual(['cancel t02 kill']);
	});

	it('quitting with running tasks asks, stops them all, and exits once the batch is finished', () => {
		const {store, calls} = setup();
		store.getState().applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0});
		store.getState().requestQuit();
		expect(questionOf(store.getState())?.action).toBe('quit');
		store.getState().confirmYes();
		expect(calls).toEqual(['shutdown term']);
		expect(store.getState()).toMatchObject({quitting: true, exitRequested: false});
		store.getState().requestCancel(true); // K while quitting: kill everything now
		expect(calls).toEqual(['shutdown term', 'shutdown kill']);
		store.getState().applyEvent({type: 'batch.finished', report: {summary: '', run_id: 'run-1', run_dir: '', results_file: '', mode: 'model_map', interrupted: true, hermes: testHermes, warnings: [], results: []}, at: t0});
		expect(store.getState().exitRequested).toBe(true);
	});
});

describe('a batch re-opened by R after it finished', () => {
	const report = (summary: string, interrupted = false) => ({summary, run_id: 'run-1', run_dir: '', results_file: '', mode: 'model_map' as const, interrupted, hermes: testHermes, warnings: [], results: []});

	it('runs again (no report, the clock moving) until the second batch.finished, whose report is the batch\'s', () => {
		const {store} = setup();
		store.getState().applyEvent({type: 'task.finished', id: 't01', result: result('t01', 'failed', 1), at: t0 + 1000});
		store.getState().applyEvent({type: 'batch.finished', report: report('1/2 tasks succeeded'), at: t0 + 2000});

		store.getState().applyEvent({type: 'batch.reopened', at: t0 + 9000});
		expect(store.getState()).toMatchObject({report: null, finishedAt: null});
		store.getState().applyEvent({type: 'task.requeued', id: 't01', attempt: 2, plan: plannedTask(1), at: t0 + 9000});
		store.getState().applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0 + 9100});
		expect(store.getState().tasks['t01']).toMatchObject({status: 'running', attempt: 2});
		store.getState().applyEvent({type: 'task.finished', id: 't01', result: result('t01', 'succeeded', 0), at: t0 + 12_000});
		store.getState().applyEvent({type: 'batch.finished', report: report('2/2 tasks succeeded'), at: t0 + 12_100});

		expect(store.getState()).toMatchObject({report: {summary: '2/2 tasks succeeded'}, finishedAt: t0 + 12_100, exitRequested: false});
	});

	it('q while the retry runs asks, stops it, and exits at the second finish', () => {
		const {store, calls} = setup();
		store.getState().applyEvent({type: 'batch.finished', report: report('1/2 tasks succeeded'), at: t0});
		store.getState().applyEvent({type: 'batch.reopened', at: t0 + 1000});
		store.getState().applyEvent({type: 'task.requeued', id: 't01', attempt: 2, plan: plannedTask(1), at: t0 + 1000});
		store.getState().applyEvent({type: 'task.started', id: 't01', pid: 42, argv: [], at: t0 + 1100});

		store.getState().requestQuit();
		expect(questionOf(store.getState())?.action).toBe('quit');
		store.getState().confirmYes();
		expect(calls).toEqual(['shutdown term']);
		expect(store.getState()).toMatchObject({quitting: true, exitRequested: false});
		store.getState().applyEvent({type: 'batch.finished', report: report('1/2 tasks succeeded', true), at: t0 + 2000});
		expect(store.getState()).toMatchObject({exitRequested: true, report: {interrupted: true}});
	});
});

describe('zoom', () => {
	it('keeps a scrolled-up view on the same lines while new output arrives, and follows at the bottom', async () => {
		const {store, outputs, publish} = setup();
		const output = outputs.get('t01')!;
		output.pushStdout(Buffer.from(Array.from({length: 100}, (_, i) => `old ${i}\n`).join('')));
		store.getState().openZoom(20);
		await replied();
		store.getState().scroll(-10, 20); // negative: up
		const before = zoomOf(store.getState().overlay)!;
		expect(before.offsetFromBottom).toBe(10);
		const visibleBefore = before.scrollback[before.scrollback.length - 1 - before.offsetFromBottom];
		output.pushStdout(Buffer.from('new a\nnew b\n'));
		publish();
		await replied();
		const after = zoomOf(store.getState().overlay)!;
		expect(after.scrollback[after.scrollback.length - 1 - after.offsetFromBottom]).toBe(visibleBefore);

		store.getState().scroll('bottom', 20);
		output.pushStdout(Buffer.from('newest\n'));
		publish();
		await replied();
		expect(zoomOf(store.getState().overlay)!.offsetFromBottom).toBe(0);
		expect(zoomOf(store.getState().overlay)!.scrollback.at(-1)).toBe('newest');
	});
});

describe('zoom scrolling keeps the view full', () => {
	async function zoomedOn(lineCount: number, visible: number) {
		const {store, outputs} = setup();
		outputs.get('t01')!.pushStdout(Buffer.from(Array.from({length: lineCount}, (_, i) => `line ${i}\n`).join('')));
		store.getState().openZoom(visible);
		await replied();
		return {store, outputs, view: () => {
			const zoom = zoomOf(store.getState().overlay)!;
			const end = zoom.scrollback.length - zoom.offsetFromBottom;
			return zoom.scrollback.slice(Math.max(0, end - visible), end);
		}};
	}

	it('top stops at the first full page, and one step down from there moves at once', async () => {
		const {store, view} = await zoomedOn(100, 10);
		store.getState().scroll('top', 10);
		expect(view()).toEqual(Array.from({length: 10}, (_, i) => `line ${i}`));
		store.getState().scroll(1, 10);
		expect(view()[0]).toBe('line 1');
		store.getState().scroll(-1000, 10); // page up past the top
		expect(view()).toHaveLength(10);
		expect(view()[0]).toBe('line 0');
	});

	it('output shorter than the screen does not scroll at all', async () => {
		const {store} = await zoomedOn(5, 10);
		store.getState().scroll('top', 10);
		expect(zoomOf(store.getState().overlay)!.offsetFromBottom).toBe(0);
	});

	it('a search match near the start keeps a full view', async () => {
		const {store, view} = await zoomedOn(100, 10);
		store.getState().startSearch();
		store.getState().setField(fieldAtEnd('line 2'));
		// From the end backwards: "line 29", "line 28", ... "line 20", then "line 2".
		store.getState().submitSearch();
		await replied();
		for (let step = 0; step < 10; step++) {
			store.getState().findNext(-1);
			await replied();
		}

		expect(zoomOf(store.getState().overlay)!.search.matchLine).toBe(2);
		expect(view()).toHaveLength(10);
		expect(view()).toContain('line 2');
	});

	it('a "no match" notice goes with the zoom, and with the next search', async () => {
		const {store} = await zoomedOn(100, 10);
		store.getState().startSearch();
		store.getState().setField(fieldAtEnd('nowhere'));
		store.getState().submitSearch();
		await replied();
		expect(store.getState().notice).toMatch(/no .* match for "nowhere"/);

		store.getState().startSearch();
		expect(store.getState().notice).toBeNull();
		store.getState().setField(fieldAtEnd('nowhere'));
		store.getState().submitSearch();
		await replied();
		expect(store.getState().notice).not.toBeNull();

		store.getState().closeOverlay(); // the zoom
		expect(store.getState().overlay).toBeNull();
		expect(store.getState().notice).toBeNull();
	});
});

describe('warnings', () => {
	it('come with the tasks\' own warnings, once each, those about running tasks first', () => {
		const coder = {kind: 'profile' as const, name: 'coder', description: 'Writes code'};
		const fieldWarning = 'route "fast": base_url has no `hermes chat` flag and is not passed';
		const tasks = [
			{...plannedTask(0), warnings: [fieldWarning]},
			{...plannedTask(1), warnings: [fieldWarning]},
			plannedTask(2, {decision: {route: coder}, effective: {profile: 'coder'}}),
			plannedTask(3, {decision: {route: coder}, effective: {profile: 'coder'}}),
		];
		const apiKey = '/home/me/.hermes/config.yaml: delegation.backends.model_map.options[0].api_key: an API key is stored in plain text';
		const shared = 'profile "coder" is used by 2 tasks (t03, t04): run in parallel they all write that profile\'s memory';
		const {store} = setup(4, {tasks, warnings: [apiKey, shared]});
		expect(store.getState().warnings).toEqual([shared, fieldWarning, apiKey]);
	});
});
