// A terminal that reports 0×0 reads as the fallback 80×24 (what Ink then never asks /dev/tty for),
// and a real size, set by Node on a resize, wins again at once.
import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {reportZeroSizeAsFallback} from '../../src/ui/hooks/use-terminal-size.js';

describe('reportZeroSizeAsFallback', () => {
	it('reports 80×24 while the terminal says 0, and the real size once it has one', () => {
		const stdout = Object.assign(new EventEmitter(), {columns: 0, rows: 0}) as unknown as NodeJS.WriteStream;
		reportZeroSizeAsFallback(stdout);
		expect([stdout.columns, stdout.rows]).toEqual([80, 24]);
		stdout.columns = 132; // as tty.WriteStream's resize handling assigns it
		stdout.rows = 40;
		expect([stdout.columns, stdout.rows]).toEqual([132, 40]);
		stdout.columns = 0;
		expect(stdout.columns).toBe(80);
	});
});
