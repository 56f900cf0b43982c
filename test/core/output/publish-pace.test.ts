// The pace output is handed on at: every tick at publishHz, and only every busyPublishHz while
// the event loop is saturated, whoever asks (the in-process feed, the runner host's pushes).
import {describe, expect, it} from 'vitest';
import {publishPacer} from '../../../src/core/output/publish-pace.js';

describe('publishPacer', () => {
	it('is due at every tick of publishHz, and at busyPublishHz while the loop is saturated', () => {
		let now = 0;
		let load = 0.2;
		const pacer = publishPacer({publishHz: 12, busyPublishHz: 4, load: () => load, clock: () => now});
		expect(pacer.interval).toBe(83);
		const dueTicks = (ticks: number) => {
			let due = 0;
			for (let tick = 0; tick < ticks; tick++) {
				now += pacer.interval;
				if (pacer.due()) due++;
			}

			return due;
		};

		expect(dueTicks(24)).toBe(24);
		load = 0.97;
		expect(dueTicks(24)).toBe(8); // 2 s at 4 a second: every third tick
		load = 0.1;
		expect(dueTicks(5)).toBe(5);
	});
});
