// A client rebuilding its panes from the host's tail deltas must show exactly the tail the host
// would have sent whole: the same lines, unfinished ones included, under trickles, floods whose
// older lines are only counted, CRLF and progress-bar output, stderr interleaved, and snapshots
// in between (after which the next delta replaces). And a delta carries only what is new.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {TaskOutput} from '../../src/core/output/task-output.js';
import {applyDelta, type HeldTail} from '../../src/wire/tail-delta.js';
import {paneOf} from '../../src/host/pane-ledger.js';

const lineText = fc.array(fc.constantFrom('a', 'word ', 'é', '日本', '😀', '\t', '0123456789'), {maxLength: 20}).map(parts => parts.join(''));
const text = fc.array(fc.tuple(lineText, fc.constantFrom('\n', '\n', '\n', '\r\n', '\r', '')), {minLength: 1, maxLength: 30})
	.map(lines => lines.map(([line, end]) => line + end).join(''));
const step = fc.oneof(
	{weight: 6, arbitrary: fc.record({kind: fc.constant('push' as const), stderr: fc.integer({min: 0, max: 9}).map(roll => roll < 3), text, repeat: fc.oneof(fc.constant(1), fc.integer({min: 1, max: 3000}))})},
	{weight: 4, arbitrary: fc.constant({kind: 'publish' as const})},
	{weight: 1, arbitrary: fc.constant({kind: 'snapshot' as const})},
);

describe('tail deltas', () => {
	it('rebuild the whole tail the host would have sent, whatever the output and the reads', () => {
		fc.assert(fc.property(fc.array(step, {minLength: 1, maxLength: 40}), fc.constantFrom(0, 1, 3, 40, 100), fc.constantFrom(40, 64, 2000), (steps, tailLines, maxLines) => {
			const output = new TaskOutput({maxLines});
			let held: HeldTail | undefined;
			let linesSent: number | undefined;
			for (const item of [...steps, {kind: 'publish' as const}]) {
				if (item.kind === 'push') {
					const bytes = Buffer.from(item.text.repeat(item.repeat));
					if (item.stderr) output.pushStderr(bytes);
					else output.pushStdout(bytes);
				} else if (item.kind === 'snapshot') {
					held = undefined;
					linesSent = undefined;
				} else {
					const delta = paneOf(output, linesSent, tailLines);
					expect(delta.fresh.length).toBeLessThanOrEqual(tailLines);
					const next = applyDelta(held, delta, tailLines);
					held = next.held;
					linesSent = delta.totalLines;
					expect(next.snapshot.tail).toEqual(output.display.lines(tailLines));
					expect(next.snapshot.totalLines).toBe(output.display.totalLines);
					expect(next.snapshot.errorLine).toBe(output.errorLine() ?? null);
				}
			}
		}), {numRuns: 300});
	});

	it('carry only the lines completed since the last push, and the unfinished one', () => {
		const output = new TaskOutput();
		output.pushStdout(Buffer.from(Array.from({length: 100}, (_, i) => `line ${i}\n`).join('')));
		const first = paneOf(output, undefined, 40);
		expect(first).toMatchObject({from: 60, totalLines: 100, unfinished: []});
		expect(first.fresh).toHaveLength(40);
		let {held} = applyDelta(undefined, first, 40);

		output.pushStdout(Buffer.from('line 100\nhalf a li'));
		const second = paneOf(output, first.totalLines, 40);
		expect(second).toMatchObject({from: 100, totalLines: 101, fresh: ['line 100'], unfinished: ['half a li']});
		const rebuilt = applyDelta(held, second, 40);
		held = rebuilt.held;
		expect(rebuilt.snapshot.tail).toEqual([...Array.from({length: 38}, (_, i) => `line ${i + 62}`), 'line 100', 'half a li']);

		// Nothing completed: only the unfinished line travels.
		output.pushStdout(Buffer.from('ne'));
		expect(paneOf(output, second.totalLines, 40)).toMatchObject({from: 101, fresh: [], unfinished: ['half a line']});
	});

	it('replace what the client holds when more lines came than a tail holds', () => {
		const output = new TaskOutput();
		output.pushStdout(Buffer.from('a\nb\n'));
		const {held} = applyDelta(undefined, paneOf(output, undefined, 3), 3);
		output.pushStdout(Buffer.from('c\nd\ne\nf\n'));
		const delta = paneOf(output, 2, 3);
		expect(delta).toMatchObject({from: 3, fresh: ['d', 'e', 'f']});
		expect(applyDelta(held, delta, 3).snapshot.tail).toEqual(['d', 'e', 'f']);
	});

	it('append only to lines that end where the delta begins', () => {
		const held = {end: 5, complete: ['a', 'b', 'c', 'd', 'e']};
		const delta = {version: 2, totalLines: 8, from: 7, fresh: ['h'], unfinished: ['i'], kept: 8, errorLine: null, lastOutputAt: null};
		expect(applyDelta(held, delta, 40).snapshot.tail).toEqual(['h', 'i']);
		expect(applyDelta(held, {...delta, from: 5, fresh: ['f', 'g', 'h']}, 40).snapshot.tail).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
	});
});
