// Connects a running batch to the store: events go in as they happen (they are few), output
// is copied in at a capped rate (it can be thousands of lines a second), and the clock ticks
// so elapsed times and cancel countdowns move. Returns a stop function.
//
// Telemetry is the exception among events: a stream-json agent sends a snapshot with every tool
// call and result, dozens a second across a batch, and each applied at once would be a frame of
// its own (Ink draws up to 250 a second: tui.tsx). A task's newest snapshot is whole, so it waits
// for the next publish with the output; any other event applies what waits first, so the store
// never sees events out of order.
import {publishPacer, type PublishPace} from '../core/output/publish-pace.js';
import type {BatchEvent} from '../core/types.js';
import type {BatchStore} from './store-types.js';

export type FeedSource = {subscribe(listener: (event: BatchEvent) => void): () => void};

/** The output's pace (publish-pace.ts), and the wall clock the store's tick shows. */
export type FeedOptions = PublishPace & {now?: () => number};

export function feedStore(store: BatchStore, source: FeedSource, options: FeedOptions = {}): () => void {
	const now = options.now ?? Date.now;
	// Under a flood every publish costs a frame of all panes while the pipes wait to be read:
	// the frames then come less often, so the output is drained sooner (keys still draw at once).
	const pacer = publishPacer(options);
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
		if (pacer.due()) {
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
	}, pacer.interval);
	timer.unref?.();
	return () => {
		clearInterval(timer);
		unsubscribe();
		applyTelemetry();
		store.getState().syncOutput();
	};
}
