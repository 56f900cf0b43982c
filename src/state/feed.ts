// Connects a running batch to the store: events go in as they happen (they are few), output
// is copied in at a capped rate (it can be thousands of lines a second), and the clock ticks
// so elapsed times and cancel countdowns move. Returns a stop function.
//
// Telemetry is the exception among events: a stream-json agent sends a snapshot with every tool
// call and result, dozens a second across a batch, and each applied at once would be a frame of
// its own (Ink draws up to 250 a second: tui.tsx). A task's newest snapshot is whole, so it waits
// for the next publish with the output; any other event applies what waits first, so the store
// never sees events out of order.
import {performance} from 'node:perf_hooks';
import type {BatchEvent} from '../core/types.js';
import type {BatchStore} from './store-types.js';

export type FeedSource = {subscribe(listener: (event: BatchEvent) => void): () => void};

export type FeedOptions = {
	/** Output publishes per second; 10–20 keeps the dashboard live without burning CPU. */
	publishHz?: number;
	/** Publishes per second while the event loop is saturated (a flood): draining comes first. */
	busyPublishHz?: number;
	/** Share of the time since the last call the event loop was busy, 0–1 (default: Node's event loop utilisation). */
	load?: () => number;
	now?: () => number;
	/** A monotonic clock in ms for the publish rate (default performance.now): the wall clock may step back. */
	clock?: () => number;
};

/** Above this event loop utilisation output is published at busyPublishHz (4 floods on 2 cores: ~0.7; 32 agents at 20 lines/s: ~0.2). */
const busyLoad = 0.6;

/** The event loop's utilisation since the previous call. */
function eventLoopLoad(): () => number {
	let last = performance.eventLoopUtilization();
	return () => {
		const now = performance.eventLoopUtilization();
		const {utilization} = performance.eventLoopUtilization(now, last);
		last = now;
		return utilization;
	};
}

export function feedStore(store: BatchStore, source: FeedSource, options: FeedOptions = {}): () => void {
	const now = options.now ?? Date.now;
	const interval = Math.round(1000 / (options.publishHz ?? 12));
	// Under a flood every publish costs a frame of all panes while the pipes wait to be read:
	// the frames then come less often, so the output is drained sooner (keys still draw at once).
	const busyInterval = Math.round(1000 / (options.busyPublishHz ?? 4));
	const load = options.load ?? eventLoopLoad();
	const clock = options.clock ?? (() => performance.now());
	let lastPublish = Number.NEGATIVE_INFINITY;
	const telemetry = new Map<string, BatchEvent>();
	const applyTelemetry = () => {
		const waiting = [...telemetry.values()];
		telemetry.clear();
		for (const event of waiting) {
			store.getState().applyEvent(event);
		}
	};

	const unsubscribe = source.subscribe(event => {
		if (event.type === 'task.telemetry') {
			// Re-inserted: the map's order stays the order of the newest snapshots.
			telemetry.delete(event.id);
			telemetry.set(event.id, event);
			return;
		}

		applyTelemetry();
		store.getState().applyEvent(event);
	});
	let lastSecond = -1;
	const timer = setInterval(() => {
		const state = store.getState();
		const time = now();
		const tickAt = clock();
		if (tickAt - lastPublish >= (load() > busyLoad ? busyInterval : interval) - 1) {
			lastPublish = tickAt;
			applyTelemetry();
			state.syncOutput();
		}

		const second = Math.floor(time / 1000);
		// The clock only needs to move once a second, except while a countdown is on screen.
		const counting = Object.values(state.tasks).some(task => task.status === 'cancelling');
		if (second !== lastSecond || counting) {
			lastSecond = second;
			state.tick(time);
		}
	}, interval);
	timer.unref?.();
	return () => {
		clearInterval(timer);
		unsubscribe();
		applyTelemetry();
		store.getState().syncOutput();
	};
}
