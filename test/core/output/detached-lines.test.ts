// A line kept for the screen must not keep alive the (possibly megabytes long) block of output it
// was cut from: V8 may share memory between a slice and its source. Measured on the heap, with a
// bound ten times above what a working detached() keeps and ten times below what a broken one does.
import v8 from 'node:v8';
import vm from 'node:vm';
import {describe, expect, it} from 'vitest';
import {detached, MergedLines} from '../../../src/core/output/task-output.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function heapAfterGc(): number {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

describe('lines handed to the screen', () => {
	it('do not keep the block they were cut from alive', () => {
		const before = heapAfterGc();
		const kept: string[] = [];
		for (let index = 0; index < 200; index++) {
			// A fresh 1 MB block per line, as a flood delivers them; only a short line of each is kept.
			const block = `${String(index).padStart(6, '0')}${'y'.repeat(1024 * 1024)}`;
			kept.push(detached(block.slice(0, 40)));
		}

		const grown = heapAfterGc() - before;
		expect(kept).toHaveLength(200);
		expect(grown).toBeLessThan(20 * 1024 * 1024);
	});

	it('do not keep their block alive when a later read hands out the same line again', () => {
		// MergedLines reuses the copies of its last read; what it reuses must be those copies.
		const merged = new MergedLines(2, () => []);
		const before = heapAfterGc();
		const kept: string[][] = [];
		for (let index = 0; index < 200; index++) {
			const line = `${String(index).padStart(6, '0')} a line of forty characters or so`;
			merged.add({text: `${'y'.repeat(1024 * 1024)}\n${line}`, count: 2, crlf: false});
			kept.push(merged.lines(1), merged.lines(1));
			expect(kept.at(-1)).toEqual([line]);
		}

		const grown = heapAfterGc() - before;
		expect(grown).toBeLessThan(20 * 1024 * 1024);
	});
});
