// When the family watch walks its trees again (walk-pace.ts): only when a process may have been
// created since the last walk, and never skipping what the watch exists to catch.
import {spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {hasProc} from '../../../src/core/process/proc-tree.js';
import {maxQuietSkips, newestPid, walkDue, type WalkPace} from '../../../src/core/process/walk-pace.js';

const pace = (overrides: Partial<WalkPace> = {}): WalkPace => ({newestPid: 1234, skipped: 0, mustWalk: false, ...overrides});

describe('walkDue', () => {
	it('skips a round in which the kernel handed out no pid', () => {
		expect(walkDue(pace(), 1234)).toBe(false);
	});

	it('walks once a pid was handed out since the last walk', () => {
		expect(walkDue(pace(), 1235)).toBe(true);
		// Wrapped around pid_max: a different pid all the same.
		expect(walkDue(pace(), 300)).toBe(true);
	});

	it('walks when the newest pid cannot be read, or was not read at the last walk', () => {
		expect(walkDue(pace(), undefined)).toBe(true);
		expect(walkDue(pace({newestPid: undefined}), 1234)).toBe(true);
	});

	it('walks a new watch, and the round after a walk that found a new descendant, whatever the pid', () => {
		expect(walkDue(pace({mustWalk: true}), 1234)).toBe(true);
	});

	it('walks after maxQuietSkips skipped rounds: a descendant seen before may call setsid without forking', () => {
		expect(walkDue(pace({skipped: maxQuietSkips - 1}), 1234)).toBe(false);
		expect(walkDue(pace({skipped: maxQuietSkips}), 1234)).toBe(true);
	});
});

describe.runIf(hasProc)('newestPid', () => {
	it('moves on when a process is created', () => {
		const before = newestPid();
		const child = spawnSync('true');

		expect(before).toEqual(expect.any(Number));
		expect(child.pid).toBeGreaterThan(0);
		expect(newestPid()).not.toBe(before);
	});
});
