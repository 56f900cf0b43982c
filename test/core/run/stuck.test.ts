import {describe, expect, it} from 'vitest';
import {isStuck, quietSince} from '../../../src/core/run/stuck.js';

describe('the stuck rule', () => {
	it('counts quiet time from the newest sign of life: start, output or tool activity', () => {
		expect(quietSince(1000, null, null)).toBe(1000);
		expect(quietSince(1000, 5000, null)).toBe(5000);
		expect(quietSince(1000, 5000, 9000)).toBe(9000);
		expect(quietSince(1000, 9000, 5000)).toBe(9000);
	});

	it('is stuck from stuck_after on, not a moment before', () => {
		expect(isStuck(1000, 1000 + 299_999, 300_000)).toBe(false);
		expect(isStuck(1000, 1000 + 300_000, 300_000)).toBe(true);
	});
});
