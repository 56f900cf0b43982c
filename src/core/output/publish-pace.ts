// How often a batch's output is handed on: to each client by the runner host, the one pacer of the
// output (host/server.ts). Normally publishHz; while this process's event loop is saturated (a
// flood), busyPublishHz, so that draining the agents' pipes comes first and the pushes, each of
// which costs a frame of every pane in a dashboard, come less often. The dashboard draws what it
// is pushed, as it arrives.
import {performance} from 'node:perf_hooks';

export type PublishPace = {
	/** Publishes per second; 10–20 keeps a dashboard live without burning CPU. */
	publishHz?: number | undefined;
	/** Publishes per second while the event loop is saturated (a flood): draining comes first. */
	busyPublishHz?: number | undefined;
	/** Share of the time since the last call the event loop was busy, 0–1 (default: Node's event loop utilisation). */
	load?: (() => number) | undefined;
	/** A monotonic clock in ms (default performance.now): the wall clock may step back. */
	clock?: (() => number) | undefined;
};

/** Above this event loop utilisation output is published at busyPublishHz (4 floods on 2 cores: ~0.7; 32 agents at 20 lines/s: ~0.2). */
const busyLoad = 0.6;

/** The event loop's utilisation since the previous call. */
export function eventLoopLoad(): () => number {
	let last = performance.eventLoopUtilization();
	return () => {
		const now = performance.eventLoopUtilization();
		const {utilization} = performance.eventLoopUtilization(now, last);
		last = now;
		return utilization;
	};
}

/**
 * When output may be handed on next: the runner host asks wait() when a pane changed and no push
 * is on its way yet, and says published() when it pushed.
 */
export type PublishPacer = {
	interval: number;
	/** ms until a publish may go (0: now), at publishHz, or busyPublishHz while the loop is saturated. */
	wait(): number;
	/** A publish went now. */
	published(): void;
};

export function publishPacer(options: PublishPace = {}): PublishPacer {
	const interval = Math.round(1000 / (options.publishHz ?? 12));
	const busyInterval = Math.round(1000 / (options.busyPublishHz ?? 4));
	const load = options.load ?? eventLoopLoad();
	const clock = options.clock ?? (() => performance.now());
	let last = Number.NEGATIVE_INFINITY;
	const gap = (): number => (load() > busyLoad ? busyInterval : interval);
	return {
		interval,
		wait() {
			return Math.max(0, last + gap() - clock());
		},
		published() {
			last = clock();
		},
	};
}
