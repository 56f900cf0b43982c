// The runner host's cap on connections: a sensible maximum whatever the open-files limit, and
// descriptors kept back for the batch's tasks and the peer checks in flight.
import {describe, expect, it} from 'vitest';
import {defaultMaxConnections, refusalOf} from '../../src/host/admission.js';

const plenty = () => ({free: 10_000, limit: 20_000});

describe('refusalOf', () => {
	it('accepts up to the cap, then refuses with the fix', () => {
		const admission = {maxConnections: defaultMaxConnections, concurrency: 4, free: plenty};
		expect(refusalOf(defaultMaxConnections - 1, 0, admission)).toBeUndefined();
		expect(refusalOf(defaultMaxConnections, 0, admission)).toBe('this runner host already holds 64 connections, its limit: close a dashboard or script attached to it and try again');
	});

	it('keeps each running task\'s descriptors, a spawn\'s and each peer check\'s back', () => {
		// 4 tasks × 4 + a spawn's 6 + the host's 16 = 38.
		const free = (count: number) => () => ({free: count, limit: 120});
		expect(refusalOf(0, 0, {maxConnections: 64, concurrency: 4, free: free(38)})).toBeUndefined();
		expect(refusalOf(0, 0, {maxConnections: 64, concurrency: 4, free: free(37)})).toMatch(/^only 37 file descriptors are left under its open-files limit \(ulimit -n 120\), and 38 are kept/);
		expect(refusalOf(0, 1, {maxConnections: 64, concurrency: 4, free: free(38)})).toMatch(/and 44 are kept/);
	});
});
