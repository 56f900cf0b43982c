// y to a cancel shows the task cancelling in the frame that closes the question, before the runner
// host answers; the host's task.cancelling then confirms it (the countdown), and a refusal or a
// failed request takes it back: the dashboard never claims a cancel the host did not make.
import {describe, expect, it} from 'vitest';
import type {TaskResult} from '../../src/core/types.js';
import {createBatchStore} from '../../src/state/store.js';
import type {BatchStore} from '../../src/state/store-types.js';
import {statusDetail} from '../../src/ui/text/format.js';
import type {BatchControl} from '../../src/wire/port.js';
import {plannedTasks, t0} from '../helpers/render.js';

/** A store whose control holds each cancel's reply until the test answers it. */
function setup() {
	const answers: Array<{id: string; skipGrace: boolean; answer(stopped: boolean | Error): void}> = [];
	const control: BatchControl = {
		async cancel(id, {skipGrace}) {
			return new Promise<boolean>((resolve, reject) => {
				answers.push({id, skipGrace, answer: stopped => (stopped instanceof Error ? reject(stopped) : resolve(stopped))});
			});
		},
		async shutdown() {},
		async readOutput() {
			return undefined;
		},
		async searchOutput() {
			return {line: null};
		},
	};
	const store = createBatchStore({control, plan: {mode: 'model_map', tasks: plannedTasks(2), warnings: []}, runId: 'run-1', runDir: '/tmp/run-1', concurrency: 2, graceMs: 5000, now: t0});
	store.getState().applyEvent({type: 'task.started', id: 't01', pid: 100, argv: ['hermes'], at: t0});
	return {store, answers};
}

/** c, y on the focused task (t01). */
function cancelFocused(store: BatchStore, kill = false): void {
	store.getState().requestCancel(kill);
	store.getState().confirmYes();
}

async function landed(): Promise<void> {
	await new Promise(resolve => setImmediate(resolve));
}

const task = (store: BatchStore) => store.getState().tasks['t01']!;

function cancelled(): TaskResult {
	return {id: 't01', name: null, goal: 'g', model: null, route: {name: null, kind: 'parent', provider: null, model: null, reasoning_effort: null, service_tier: null, profile: null, refused: false, reason: ''}, status: 'cancelled', success: false, exit_code: null, signal: 'SIGTERM', started_at: new Date(t0).toISOString(), finished_at: new Date(t0 + 3000).toISOString(), duration_ms: 3000, result: '', answer: '', session_id: null, hermes_version: null, tokens: null, model_used: null, tool_calls: [], log: null};
}

describe('a cancel confirmed with y', () => {
	it('shows the task cancelling at once, with the question closed in the same update, and the host’s event fills in the countdown', async () => {
		const {store, answers} = setup();
		store.getState().requestCancel(false);
		const updates: Array<{overlay: string | undefined; status: string}> = [];
		store.subscribe(state => updates.push({overlay: state.overlay?.kind, status: state.tasks['t01']!.status}));
		store.getState().confirmYes();
		// One update: the question gone and the pane cancelling, before any reply.
		expect(updates).toEqual([{overlay: undefined, status: 'cancelling'}]);
		expect(answers.map(({id, skipGrace}) => ({id, skipGrace}))).toEqual([{id: 't01', skipGrace: false}]);
		expect(task(store)).toMatchObject({status: 'cancelling', cancelling: null});
		expect(statusDetail(task(store), t0 + 1000)).toBe('stop asked of the runner host');
		expect(store.getState().tasks['t02']!.status).toBe('queued');

		store.getState().applyEvent({type: 'task.cancelling', id: 't01', cancelling: {reason: 'cancel', termSentAt: t0 + 1000, killDueAt: t0 + 6000, killSent: false}, at: t0 + 1000});
		answers[0]!.answer(true);
		await landed();
		expect(task(store)).toMatchObject({status: 'cancelling', cancelling: {termSentAt: t0 + 1000}});
		expect(statusDetail(task(store), t0 + 2000)).toBe('SIGTERM sent 1s ago · SIGKILL in 4s');
		expect(store.getState().notice).toBeNull();
	});

	it('a kill (K, y) shows it cancelling at once too', () => {
		const {store, answers} = setup();
		cancelFocused(store, true);
		expect(answers.map(({skipGrace}) => skipGrace)).toEqual([true]);
		expect(task(store)).toMatchObject({status: 'cancelling', cancelling: null});
	});

	it('goes back to running when the host answers that there was nothing to stop, and says so', async () => {
		const {store, answers} = setup();
		cancelFocused(store);
		expect(task(store).status).toBe('cancelling');
		answers[0]!.answer(false);
		await landed();
		expect(task(store)).toMatchObject({status: 'running', cancelling: null});
		expect(store.getState().notice).toBe('nothing to cancel: the task has already finished');
	});

	it('goes back to running when the request fails, and says why', async () => {
		const {store, answers} = setup();
		cancelFocused(store);
		answers[0]!.answer(new Error('the runner host\'s connection closed before it answered: socket error: EPIPE'));
		await landed();
		expect(task(store).status).toBe('running');
		expect(store.getState().notice).toBe('cancelling t01 failed: the runner host\'s connection closed before it answered: socket error: EPIPE');
	});

	it('keeps what the host\'s events said when they came before its answer: a finished task is not made running again', async () => {
		const {store, answers} = setup();
		cancelFocused(store);
		store.getState().applyEvent({type: 'task.finished', id: 't01', result: cancelled(), at: t0 + 3000});
		answers[0]!.answer(false);
		await landed();
		expect(task(store).status).toBe('cancelled');
	});

	it('leaves a queued task queued until the runner says what became of it', () => {
		const {store, answers} = setup();
		store.getState().focus('t02');
		store.getState().requestCancel(false);
		store.getState().confirmYes();
		expect(answers.map(({id}) => id)).toEqual(['t02']);
		expect(store.getState().tasks['t02']!.status).toBe('queued');
	});
});
