// How big each of the suite's workloads is (suite.mjs; cancel-keys.mjs uses the keys workload's).
/** How big each workload is: the sizes, BENCH_SCALE times, or a few seconds in all (tiny). */
export function sizes({tiny, scale, soakSeconds, idleSeconds}) {
	if (tiny) {
		return {
			flood: {tasks: 2, lines: 2000}, trickle: {tasks: 4, seconds: 1}, slowTrickle: {tasks: 4, seconds: 2, rate: 2}, soak: {tasks: 2, seconds: 2, every: 1, from: 1},
			keys: {tasks: 4, presses: 5, settleMs: 300, timeoutMs: 1000, cancels: 2}, cancelGrace: 0.5, quick: {tasks: 20}, headlessFlood: {tasks: 2, lines: 2000}, memory: {few: 2, many: 6, settleMs: 200, samples: 2},
			attach: {tasks: 10, lines: 10, connects: 2, frames: 1}, idleHost: {tasks: 4, seconds: 1, windowSeconds: 1},
			bytes: {tasks: 4, rate: 20, seconds: 1, warmupMs: 500, varied: true},
		};
	}

	const seconds = soakSeconds ?? 600;
	return {
		flood: {tasks: 16, lines: Math.round(100_000 * scale)},
		trickle: {tasks: 32, seconds: 20 * scale},
		slowTrickle: {tasks: 32, seconds: 60 * scale, rate: 2},
		// Growth is measured from minute 2, or from half-way through a soak of 4 minutes or less.
		soak: {tasks: 16, seconds, every: 10, from: Math.min(120, seconds / 2)},
		keys: {tasks: 16, presses: 50, settleMs: 2000, timeoutMs: 5000, cancels: 10},
		cancelGrace: 1,
		quick: {tasks: Math.round(300 * scale)},
		headlessFlood: {tasks: 16, lines: Math.round(100_000 * scale)},
		memory: {few: 10, many: 200, settleMs: 3000},
		// Issue 24's Cost section: the snapshot for 200 tasks, a detached host with 16 quiet ones.
		attach: {tasks: 200, lines: 40, connects: 10, frames: 3},
		idleHost: {tasks: 16, seconds: idleSeconds ?? 60, warmupSeconds: 30, windowSeconds: 10},
		// Issue 39's Cost section: bytes to the terminal, trickle, 200×50; each line unlike the last,
		// as a real agent's (the stand-in's differ in a step number only, a few digits a row).
		bytes: {tasks: 32, rate: 20, seconds: Math.max(2, 10 * scale), varied: true},
	};
}
