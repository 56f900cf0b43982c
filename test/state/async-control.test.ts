// The store against a control whose replies come later (as across a socket): once they land, the
// zoom, its search and steering end where an in-process control leaves them at once; a reply
// that no longer fits (the zoom closed or moved on, a newer request) is dropped; a failed one
// becomes a notice, never an unhandled rejection.
import {afterEach, describe, expect, it} from 'vitest';
import type {RetryTarget} from '../../src/core/types.js';
import {createBatchStore} from '../../src/state/store.js';
import type {BatchControl} from '../../src/wire/port.js';
import type {BatchStore} from '../../src/state/store-types.js';
import {fieldAtEnd} from '../../src/state/text-field.js';
import {asyncControl, Replies} from '../helpers/async-control.js';
import {editorOf, zoomOf} from '../helpers/overlay.js';
import {FakeControl, plannedTasks, t0} from '../helpers/render.js';
import {removeSteeredHomes, steeredStore} from '../helpers/steered-store.js';

afterEach(removeSteeredHomes);

/** `fake`: the control whose output is pushed to the store (publish), when `control` wraps it. */
function storeOn(control: BatchControl, fake = control): BatchStore {
	const store = createBatchStore({control, plan: {mode: 'model_map', tasks: plannedTasks(2), warnings: []}, runId: 'run-test', runDir: '/tmp/run-test', concurrency: 2, graceMs: 1000, now: t0});
	if (fake instanceof FakeControl) fake.feeds(store);
	return store;
}

const numbered = (prefix: string, from: number, count: number) => Array.from({length: count}, (_, index) => `${prefix}-${String(from + index).padStart(3, '0')}`);

/** The zoom and the notice after each step of a session in the zoom; `landed` waits for the replies. */
async function zoomSession(store: BatchStore, fake: FakeControl, landed: () => Promise<void>) {
	const seen: unknown[] = [];
	const step = async (act: () => void) => {
		act();
		await landed();
		const {overlay, notice} = store.getState();
		seen.push({zoom: zoomOf(overlay), notice});
	};

	const state = () => store.getState();
	// 80 lines into a core that keeps 50: the zoom starts at line 30.
	fake.write('t01', numbered('entry', 0, 80));
	fake.publish();
	await step(() => state().openZoom(10));
	await step(() => state().scroll(-5, 10));
	await step(() => {
		state().startSearch();
		state().setField(fieldAtEnd('entry-07'));
		state().submitSearch();
	});
	await step(() => state().findNext(-1));
	await step(() => state().findNext(1));
	// 30 more: 30 lines fall out of the buffer and the match moves up by as many.
	await step(() => {
		fake.write('t01', numbered('entry', 80, 30));
		fake.publish();
	});
	// Output the zoom has not copied yet: nothing earlier than the view matches, a later match
	// is in the new lines, which are read, then shown.
	await step(() => {
		fake.write('t01', numbered('fresh', 0, 5));
		state().startSearch();
		state().setField(fieldAtEnd('fresh-002'));
		state().submitSearch();
	});
	await step(() => state().findNext(1));
	await step(() => state().findNext(-1));
	return seen;
}

describe('an async control', () => {
	it('gives the zoom and its search the same results once the replies arrive', async () => {
		const inProcess = new FakeControl(50);
		const expected = await zoomSession(storeOn(inProcess), inProcess, async () => inProcess.landed());
		const replies = new Replies('land');
		const remote = new FakeControl(50);
		const store = storeOn(asyncControl(remote, replies), remote);
		const seen = await zoomSession(store, remote, async () => replies.landed());
		expect(seen).toEqual(expected);

		// What the session went through, so that equal results are also the right ones.
		const zoomAt = (index: number) => (expected[index] as {zoom: {scrollback: string[]; first: number; search: {matchLine: number | null}}}).zoom;
		expect(zoomAt(0)).toMatchObject({first: 30, scrollback: numbered('entry', 30, 50)});
		// Scrolled up 5, the search starts from the view's bottom line.
		expect(zoomAt(2).scrollback[zoomAt(2).search.matchLine!]).toBe('entry-074');
		expect(zoomAt(3).scrollback[zoomAt(3).search.matchLine!]).toBe('entry-073');
		expect(zoomAt(5).first).toBe(60);
		expect(zoomAt(5).scrollback[zoomAt(5).search.matchLine!]).toBe('entry-074');
		expect(expected[6]).toMatchObject({notice: 'no earlier match for "fresh-002"'});
		expect(zoomAt(7).scrollback[zoomAt(7).search.matchLine!]).toBe('fresh-002');
		expect(expected[8]).toMatchObject({notice: 'no earlier match for "fresh-002"'});
	});

	it('gives steering the same results once the replies arrive: a saved edit, a refused one, a mode switch', async () => {
		async function steerSession({store, home}: {store: BatchStore; home: string}, landed: () => Promise<void>) {
			const seen: unknown[] = [];
			const state = () => store.getState();
			const step = async (act: () => void) => {
				act();
				await landed();
				// Each store has its own HERMES_HOME, which the notices name.
				seen.push({editor: editorOf(state()), mode: state().mode, notice: state().notice?.replace(home, '<home>'), conflict: state().configConflict});
			};

			await step(() => state().openRoutes());
			await step(() => {
				state().editDescription();
				state().setField(fieldAtEnd('quick lookups and summaries'));
				state().submitField();
			});
			await step(() => {
				state().editRouteField('reasoning_effort');
				state().setField(fieldAtEnd('ultra-max'));
				state().submitField();
			});
			await step(() => {
				state().cancelField();
				state().closeOverlay();
				state().switchMode();
			});
			return seen;
		}

		const direct = steeredStore('async-steer-sync-');
		const expected = await steerSession(direct, async () => direct.control.landed());
		const replies = new Replies('land');
		const seen = await steerSession(steeredStore('async-steer-', control => asyncControl(control, replies)), async () => replies.landed());
		expect(seen).toEqual(expected);
		expect(expected[1]).toMatchObject({editor: {input: null, error: null}});
		expect((expected[2] as {editor: {error: string}}).editor.error).toMatch(/must be one of/);
		expect(expected[3]).toMatchObject({mode: 'profile_routes'});
	});
});

describe('an async control re-routing', () => {
	it('re-routes through the picker the same way once the replies arrive: a route picked, an explicit model typed', async () => {
		async function rerouteSession({store}: {store: BatchStore}, landed: () => Promise<void>) {
			const seen: unknown[] = [];
			const state = () => store.getState();
			const step = async (act: () => void) => {
				act();
				await landed();
				seen.push({overlay: state().overlay, notice: state().notice});
			};

			await step(() => state().openReroute());
			await step(() => {
				state().moveRoute(1);
				state().pickRoute();
			});
			state().focus('t02');
			await step(() => state().openReroute());
			await step(() => {
				state().moveRoute(99);
				state().pickRoute();
				state().setField(fieldAtEnd('some/model'));
				state().submitField();
				state().setField(fieldAtEnd('openrouter'));
				state().submitField();
			});
			return seen;
		}

		const withReroute = (control: BatchControl) => Object.assign(control, {
			reroute: async (id: string, target: RetryTarget) => ({ok: true, message: `${id} queued on ${JSON.stringify(target)}`}),
		});
		const direct = steeredStore('async-reroute-sync-', withReroute);
		const expected = await rerouteSession(direct, async () => direct.control.landed());
		const replies = new Replies('land');
		const seen = await rerouteSession(steeredStore('async-reroute-', control => asyncControl(withReroute(control), replies)), async () => replies.landed());
		expect(seen).toEqual(expected);
		expect(expected[1]).toMatchObject({overlay: null, notice: expect.stringMatching(/^t01 queued on "\w+"$/)});
		expect(expected[3]).toMatchObject({overlay: null, notice: 't02 queued on {"model":"some/model","provider":"openrouter"}'});
	});
});

describe('a reply that no longer fits', () => {
	function heldStore() {
		const replies = new Replies('hold');
		const fake = new FakeControl();
		const store = storeOn(asyncControl(fake, replies), fake);
		return {replies, fake, store, state: () => store.getState()};
	}

	it('a zoom reply that lands after the zoom moved to another task is dropped', async () => {
		const {replies, fake, state} = heldStore();
		fake.write('t01', numbered('one', 0, 3));
		fake.write('t02', numbered('two', 0, 3));
		fake.publish();
		state().openZoom(10);
		state().closeOverlay();
		state().focus('t02');
		state().openZoom(10);
		replies.release('readOutput', 0);
		await replies.landed();
		expect(zoomOf(state().overlay)).toMatchObject({taskId: 't02', scrollback: []});
		replies.release('readOutput', 0);
		await replies.landed();
		expect(zoomOf(state().overlay)).toMatchObject({taskId: 't02', scrollback: numbered('two', 0, 3)});
	});

	it('an older read of the same task landing after a newer one does not take the zoom back', async () => {
		const {replies, fake, state} = heldStore();
		fake.write('t01', numbered('one', 0, 3));
		state().openZoom(10);
		state().closeOverlay();
		fake.write('t01', numbered('one', 3, 2));
		state().openZoom(10);
		replies.release('readOutput', 1);
		await replies.landed();
		replies.release('readOutput', 0);
		await replies.landed();
		expect(zoomOf(state().overlay)!.scrollback).toEqual(numbered('one', 0, 5));
	});

	it('a search answered after a newer search was started is dropped', async () => {
		const {replies, fake, state} = heldStore();
		fake.write('t01', numbered('one', 0, 20));
		state().openZoom(10);
		replies.release('readOutput');
		await replies.landed();
		const search = (query: string) => {
			state().startSearch();
			state().setField(fieldAtEnd(query));
			state().submitSearch();
		};

		search('one-003');
		search('one-012');
		replies.release('searchOutput', 0);
		await replies.landed();
		expect(zoomOf(state().overlay)!.search).toEqual({query: 'one-012', matchLine: null});
		replies.release('searchOutput', 0);
		await replies.landed();
		expect(zoomOf(state().overlay)!.search).toEqual({query: 'one-012', matchLine: 12});
	});
});

describe('a failed reply', () => {
	it('becomes a notice naming what was asked, for the zoom, a cancel and a steer', async () => {
		const replies = new Replies('hold');
		const fake = new FakeControl();
		const store = storeOn(asyncControl(fake, replies), fake);
		const state = () => store.getState();
		fake.write('t01', ['a line']);
		state().openZoom(10);
		replies.release('readOutput', 0, new Error('the host went away'));
		await replies.landed();
		expect(state().notice).toBe('reading t01\'s output failed: the host went away');
		expect(zoomOf(state().overlay)).toMatchObject({taskId: 't01', scrollback: []});

		state().closeOverlay();
		state().requestCancel(false);
		state().confirmYes();
		replies.release('cancel', 0, new Error('connection reset'));
		await replies.landed();
		expect(state().notice).toBe('cancelling t01 failed: connection reset');

		const steered = steeredStore('async-steer-fail-', control => asyncControl(control, replies));
		steered.store.getState().switchMode();
		replies.release('steer', 0, new Error('the host went away'));
		await replies.landed();
		expect(steered.store.getState()).toMatchObject({mode: 'model_map', notice: 'switching the routing mode failed: the host went away'});
	});
});

describe('a zoom refresh that lands late', () => {
	it('brings the zoom up to date without putting back the task views of when it was asked', async () => {
		const replies = new Replies('hold');
		const fake = new FakeControl();
		const store = storeOn(asyncControl(fake, replies), fake);
		const state = () => store.getState();
		fake.write('t01', ['a line']);
		fake.publish();
		state().openZoom(10);
		replies.release('readOutput');
		await replies.landed();
		// New output while zoomed: the panes are copied at once, the zoom's read is held.
		fake.write('t01', ['another line']);
		fake.publish();
		// Meanwhile t01 starts: its view moves on past what the held read was asked with.
		state().applyEvent({type: 'task.started', id: 't01', pid: 4242, argv: ['hermes'], at: t0 + 1000});
		expect(state().tasks['t01']?.status).toBe('running');
		replies.release('readOutput');
		await replies.landed();
		expect(state().tasks['t01']?.status).toBe('running');
		expect(zoomOf(state().overlay)?.scrollback).toEqual(['a line', 'another line']);
	});
});
