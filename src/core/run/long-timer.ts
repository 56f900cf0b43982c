// Node's timers hold at most 2^31-1 ms (24.8 days): a longer delay fires after 1 ms, with only a
// TimeoutOverflowWarning. A task timeout of 30 days must wait 30 days, so longer delays run as an
// interval of equal steps that fires the callback on its last step.

export const maxTimerMs = 2 ** 31 - 1;

/**
 * setTimeout for any delay. Returns a Node timer, so clearTimeout cancels it whatever its length.
 * A delay too large to be a number of milliseconds (Infinity) never fires.
 */
export function setLongTimeout(callback: () => void, ms: number): NodeJS.Timeout {
	if (ms <= maxTimerMs) {
		return setTimeout(callback, ms);
	}

	if (!Number.isFinite(ms)) {
		return setInterval(() => undefined, maxTimerMs);
	}

	const steps = Math.ceil(ms / maxTimerMs);
	let left = steps;
	const timer = setInterval(() => {
		left--;
		if (left === 0) {
			clearInterval(timer);
			callback();
		}
	}, Math.ceil(ms / steps));
	return timer;
}
