// The open-files budget: how many tasks fit under a limit, when the soft limit is raised first,
// and when nothing fits. The real limit and descriptors are exercised end to end in
// test/e2e/reliability.test.ts; here the limit is given, so every branch is reached.
import {describe, expect, it} from 'vitest';
import {InputError} from '../../../src/core/errors.js';
import {fitConcurrencyToOpenFiles, readOpenFilesLimit} from '../../../src/core/process/open-files.js';

const limits = (soft: string, hard: string) => `Limit                     Soft Limit           Hard Limit           Units     
Max cpu time              unlimited            unlimited            seconds   
Max open files            ${soft}                 ${hard}                 files     
Max locked memory         8388608              8388608              bytes     
`;

describe('readOpenFilesLimit', () => {
	it('reads the soft and hard limit from /proc/self/limits, unlimited as Infinity', () => {
		expect(readOpenFilesLimit(limits('256', '4096'))).toEqual({soft: 256, hard: 4096});
		expect(readOpenFilesLimit(limits('1024', 'unlimited'))).toEqual({soft: 1024, hard: Number.POSITIVE_INFINITY});
		expect(readOpenFilesLimit('nothing here')).toBeUndefined();
	});

	it('reads this process\'s real limit', () => {
		expect(readOpenFilesLimit()).toMatchObject({soft: expect.any(Number), hard: expect.any(Number)});
	});
});

describe('fitConcurrencyToOpenFiles', () => {
	const never = () => false;

	it('keeps the requested concurrency when it fits', () => {
		expect(fitConcurrencyToOpenFiles(80, 80, {limit: {soft: 1024, hard: 1024}, inUse: 30, raise: never})).toEqual({concurrency: 80});
	});

	it('counts only the tasks that will run: -j 80 for three tasks needs room for three', () => {
		expect(fitConcurrencyToOpenFiles(80, 3, {limit: {soft: 64, hard: 64}, inUse: 20, raise: never})).toEqual({concurrency: 80});
	});

	it('lowers the concurrency with a warning that says why and how to get more', () => {
		const fit = fitConcurrencyToOpenFiles(80, 80, {limit: {soft: 256, hard: 256}, inUse: 24, raise: never});
		expect(fit.concurrency).toBe(50);
		expect(fit.warning).toBe('running 50 tasks at once instead of 80: the open-files limit (ulimit -n) is 256 and each running task needs about 4 descriptors; raise it with `ulimit -n 376` (above the hard limit of 256: that takes root, or /etc/security/limits.conf) to run 80 at once');
	});

	it('raises the soft limit toward the hard one first, and then needs no warning', () => {
		const asked: number[] = [];
		const fit = fitConcurrencyToOpenFiles(80, 80, {limit: {soft: 256, hard: 4096}, inUse: 24, raise: wanted => asked.push(wanted) > 0});
		expect(asked).toEqual([376]);
		expect(fit).toEqual({concurrency: 80});
	});

	it('refuses up front when not even one task fits', () => {
		expect(() => fitConcurrencyToOpenFiles(4, 4, {limit: {soft: 40, hard: 40}, inUse: 20, raise: never})).toThrow(InputError);
		expect(() => fitConcurrencyToOpenFiles(4, 4, {limit: {soft: 40, hard: 40}, inUse: 20, raise: never})).toThrow(/is 40, too low to run even one task: 20 descriptors are in use/);
	});

	it('changes nothing where the limit cannot be read (no /proc)', () => {
		expect(fitConcurrencyToOpenFiles(80, 80, {limit: undefined, inUse: 0, raise: never})).toEqual({concurrency: 80});
	});
});
