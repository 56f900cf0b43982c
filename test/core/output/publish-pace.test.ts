// The pace output is handed on at: one publish per slot of publishHz, and per slot of
// busyPublishHz while the event loop is saturated.
import {describe, expect, it} from 'vitest';
import {publishPacer} from '../../../src/core/output/publish-pace.js';

describe('publishPacer', () => {
	it('lets a publish go at once, then one per slot of publishHz, and of busyPublishHz while the loop is saturated', () => {
		let now = 1000;
		let load = 0.2;
		const pacer = publishPacer({publishHz: 12, busyPublishHz: 4, load: () => load, clock: () => now});
		expect(pacer.interval).toBe(83);
		expect(pacer.wait()).toBe(0); // nothing published yet
		pacer.published();
		expect(pacer.wait()).toBe(83);
		now += 30;
		expect(pacer.wait()).toBe(53);
		load = 0.97;
		expect(pacer.wait()).toBe(250 - 30); // 4 a second
		now += 300;
		expect(pacer.wait()).toBe(0);
		pacer.published();
		load = 0.1;
		now += 100;
		expect(pacer.wait()).toBe(0); // a quiet loop is due again after 83 ms
	});
});
