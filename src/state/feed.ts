// Connects a batch's client to the store: events go in as they arrive (they are few), the panes
// as each output push arrives (paced once, by the runner host: host/server.ts), and the clock
// wakes only for what it shows: once a second while elapsed and quiet times move, 12 times a
// second while a cancel countdown is on screen, and not at all once nothing shown can change (the
// batch finished and nothing runs). Returns a stop function.
//
// Telemetry is the exception among events: a stream-json agent sends a snapshot with every tool
// call and result, dozens a second across a batch, and each applied at once would be a frame of
// its own. A task's newest snapshot is whole, so it waits for the next output push (or a push's
// interval, when no output comes); any other event applies what waits first, so the store never
// sees events out of order.
import type {BatchEvent} from '../core/types.js';
import {isActive} from '../core/types.js';
import type {OutputSnapshot} from '../wire/port.js';
import type {BatchState, BatchStore} from './store-types.js';

export type FeedSource = {
	subscribe(listener: (event: BatchEvent) => void): () => void;
	/** The panes that changed, whole, as each output push arrives (client/connection.ts). */
	subscribeOutput?(listener: (panes: Readonly<Record<string, OutputSnapshot>>) => void): () => void;
};

export type FeedOptions = {
	/** The wall clock the store's tick shows (default Date.now). */
	now?: () => number;
};

/** How long telemetry waits for an output push to ride with, and the countdown's tick: the host's push interval (12 a second). */
const frameMs = Math.round(1000 / 12);

export function feedStore(store: BatchStore, source: FeedSource, options: FeedOptions = {}): () => void {
	const now = options.now ?? Date.now;
	const telemetry = new Map<string, BatchEvent>();
	let telemetryTimer: NodeJS.Timeout | undefined;
	const applyTelemetry = () => {
		clearTimeout(telemetryTimer);
		telemetryTimer = undefined;
		const waiting = [...telemetry.values()];
		telemetry.clear();
		for (const event of waiting) {
			store.getState().applyEvent(event);
		}
	};

	let clock: NodeJS.Timeout | undefined;
	let stopped = false;
	/** Arms the clock's next wake-up, if anything shown moves with it. */
	const wind = () => {
		if (clock !== undefined || stopped) return;
		const state = store.getState();
		if (!clockShows(state)) return;
		const time = now();
		const delay = counting(state) ? frameMs : 1000 - (time % 1000);
		clock = setTimeout(() => {
			clock = undefined;
			store.getState().tick(now());
			wind();
		}, delay);
		clock.unref?.();
	};

	const unsubscribe = source.subscribe(event => {
		if (event.type === 'task.telemetry') {
			// Re-inserted: the map's order stays the order of the newest snapshots.
			telemetry.delete(event.id);
			telemetry.set(event.id, event);
			telemetryTimer ??= setTimeout(applyTelemetry, frameMs);
			return;
		}

		applyTelemetry();
		store.getState().applyEvent(event);
		// A cancel begins a countdown, a finish may stop the clock (wind re-checks at its wake-up), R re-opens the batch.
		if (event.type === 'task.cancelling') {
			clearTimeout(clock);
			clock = undefined;
		}

		wind();
	});
	const unsubscribeOutput = source.subscribeOutput?.(panes => {
		applyTelemetry();
		store.getState().takeOutput(panes);
	});
	wind();
	return () => {
		stopped = true;
		clearTimeout(clock);
		unsubscribe();
		unsubscribeOutput?.();
		applyTelemetry();
	};
}

/** Something on screen moves with the clock: the batch's elapsed time (until it finished), or a task's. */
function clockShows(state: BatchState): boolean {
	return state.finishedAt === null || state.order.some(id => isActive(state.tasks[id]!.status));
}

/** A cancel countdown is on screen: its seconds move faster than the clock's. */
function counting(state: BatchState): boolean {
	return state.order.some(id => state.tasks[id]!.status === 'cancelling');
}
