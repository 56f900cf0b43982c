// Connects a running batch to the store: events go in as they happen (they are few), output
// is copied in at a capped rate (it can be thousands of lines a second), and the clock ticks
// so elapsed times and cancel countdowns move. Returns a stop function.
import type {BatchEvent} from '../core/types.js';
import type {BatchStore} from './store.js';

export type FeedSource = {subscribe(listener: (event: BatchEvent) => void): () => void};

export type FeedOptions = {
	/** Output publishes per second; 10–20 keeps the dashboard live without burning CPU. */
	publishHz?: number;
	now?: () => number;
};

export function feedStore(store: BatchStore, source: FeedSource, options: FeedOptions = {}): () => void {
	const now = options.now ?? Date.now;
	const interval = Math.round(1000 / (options.publishHz ?? 12));
	const unsubscribe = source.subscribe(event => {
		store.getState().applyEvent(event);
	});
	let lastSecond = -1;
	const timer = setInterval(() => {
		const state = store.getState();
		state.syncOutput();
		const time = now();
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
		store.getState().syncOutput();
	};
}
