// Delays past Node's 2^31-1 ms limit: honoured (not fired at once), and cancellable.
import {afterEach, describe, expect, it, vi} from 'vitest';
import {maxTimerMs, setLongTimeout} from '../../../src/core/run/long-timer.js';

const day = 24 * 60 * 60 * 1000;

afterEach(() => {
	vi.useRealTimers();
});

describe('setLongTimeout', () => {
	it('waits the whole 30 days, then fires once', () => {
		vi.useFakeTimers();
		const fired = vi.fn();
		setLongTimeout(fired, 30 * day);
		vi.advanceTimersByTime(1000);
		expect(fired).not.toHaveBeenCalled();
		vi.advanceTimersByTime(30 * day - 1000 - 1);
		expect(fired).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(fired).toHaveBeenCalledTimes(1);
		vi.advanceTimersByTime(100 * day);
		expect(fired).toHaveBeenCalledTimes(1);
	});

	it('is cancelled by clearTimeout, short or long', () => {
		vi.useFakeTimers();
		const fired = vi.fn();
		clearTimeout(setLongTimeout(fired, 1000));
		clearTimeout(setLongTimeout(fired, maxTimerMs * 3));
		vi.advanceTimersByTime(maxTimerMs * 4);
		expect(fired).not.toHaveBeenCalled();
	});

	it('never fires for a delay too large to count (1e308 seconds in ms)', () => {
		vi.useFakeTimers();
		const fired = vi.fn();
		const timer = setLongTimeout(fired, 1e308 * 1000);
		vi.advanceTimersByTime(maxTimerMs * 2);
		expect(fired).not.toHaveBeenCalled();
		clearTimeout(timer);
	});
});
