// Display output is decoded when read, and a flood's stdout older than the tail's newest lines
// is only counted; of the lines kept, all but the newest few stay raw
// until somebody reads them. Whatever is skipped, a reader must see exactly
// what it would have seen had every chunk been decoded as it came: the same pane lines, the
// same line numbers in the zoom, the same error line.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {TaskOutput} from '../../../src/core/output/task-output.js';

const maxLines = 40;
const lineText = fc.array(fc.constantFrom('a', 'word ', 'é', '日本', '😀', '\t', '0123456789'), {maxLength: 30}).map(parts => parts.join(''));
/** Output as the agent prints it: lines with \n or \r\n endings, a progress bar's \r now and then. */
const text = fc.array(fc.tuple(lineText, fc.constantFrom('\n', '\n', '\n', '\r\n', '\r')), {minLength: 1, maxLength: 60})
	.map(lines => lines.map(([line, end]) => line + end).join(''));
/** One push: which stream, the text repeated to make a flood, cut into pipe-sized pieces at any byte. */
const push = fc.record({
	stderr: fc.integer({min: 0, max: 9}).map(roll => roll < 3),
	text,
	repeat: fc.integer({min: 1, max: 3000}),
	pieces: fc.integer({min: 1, max: 4}),
	read: fc.boolean(),
});

function piecesOf(bytes: Buffer, count: number): Buffer[] {
	const size = Math.ceil(bytes.length / count);
	const pieces: Buffer[] = [];
	for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
	return pieces;
}

function seen(output: TaskOutput) {
	return {
		display: output.display.lines(),
		displayTotal: output.display.totalLines,
		stdoutTotal: output.stdout.totalLines,
		stdout: output.stdout.lines(),
		errorLine: output.errorLine(),
	};
}

describe('TaskOutput decoding on read', () => {
	it('shows what eager decoding shows, however much was skipped', () => {
		fc.assert(fc.property(fc.array(push, {minLength: 1, maxLength: 12}), pushes => {
			const eager = new TaskOutput({maxLines});
			const lazy = new TaskOutput({maxLines, eagerLines: 7});
			for (const {stderr, text, repeat, pieces, read} of pushes) {
				const bytes = Buffer.from(text.repeat(stderr ? 1 : repeat));
				for (const piece of piecesOf(bytes, pieces)) {
					for (const output of [eager, lazy]) {
						if (stderr) {
							output.pushStderr(piece);
						} else {
							output.pushStdout(piece);
						}
					}

					seen(eager); // read after every chunk: nothing ever waits long enough to be skipped
				}

				if (read) {
					expect(seen(lazy)).toEqual(seen(eager));
				}
			}

			expect(seen(lazy)).toEqual(seen(eager));
			eager.end();
			lazy.end();
			expect(seen(lazy)).toEqual(seen(eager));
		}), {numRuns: 60});
	});

	it('skips a flood around a stderr line: the newest lines show, the warning in its place, and every line is counted', () => {
		const output = new TaskOutput({maxLines});
		const line = (index: number) => `line ${String(index).padStart(6, '0')} ${'x'.repeat(90)}`;
		const lines = (from: number, count: number) => Array.from({length: count}, (_, index) => `${line(from + index)}\n`).join('');
		// 200 KB of stdout waits when the pane looks: more than is decoded whole.
		output.pushStdout(Buffer.from(lines(0, 2000)));
		output.pushStderr(Buffer.from('warning\n'));
		output.pushStdout(Buffer.from(lines(2000, 10)));

		expect(output.display.totalLines).toBe(2011);
		expect(output.stdout.totalLines).toBe(2010);
		expect(output.display.lines()).toEqual([...Array.from({length: 29}, (_, index) => line(1971 + index)), 'warning', ...Array.from({length: 10}, (_, index) => line(2000 + index))]);
		expect(output.errorLine()).toBe('warning');
	});

	it('counts every line of a flood it never decoded', () => {
		const output = new TaskOutput({maxLines});
		const lines = Array.from({length: 50_000}, (_, index) => `line ${index}\n`).join('');
		for (const piece of piecesOf(Buffer.from(lines), 20)) output.pushStdout(piece);
		expect(output.display.totalLines).toBe(50_000);
		expect(output.display.lines(2)).toEqual(['line 49998', 'line 49999']);
	});

	it('decodes a flood whose kept lines carry colour as eager decoding does (no raw stretch across an escape)', () => {
		const make = () => new TaskOutput({maxLines, eagerLines: 7});
		const eager = make();
		const lazy = make();
		const text = Buffer.from(`${Array.from({length: 30_000}, (_, index) => `old ${index}`).join('\n')}\n\u001B[32m${Array.from({length: maxLines}, (_, index) => `kept ${index}`).join('\n')}\n`);
		for (const piece of piecesOf(text, 8)) {
			eager.pushStdout(piece);
			seen(eager);
			lazy.pushStdout(piece);
		}

		expect(lazy.display.lines()).toEqual(eager.display.lines());
		expect(lazy.display.lines()).toContain('\u001B[32mkept 39\u001B[0m');
	});

	it('keeps no more than its bound of very long lines that arrive in a flood', () => {
		const output = new TaskOutput();
		const long = `${'x'.repeat(5 * 1024 * 1024)}\n`;
		output.pushStdout(Buffer.from('short\n'.repeat(3000)));
		for (let line = 0; line < 10; line++) output.pushStdout(Buffer.from(long));
		output.pushStdout(Buffer.from('short\n'.repeat(300)));
		expect(output.display.lines(1)).toEqual(['short']);
		// 2,000 lines of at most 2,000 characters (the tail's own bound), not ten 5 MB lines kept raw.
		expect(output.stdout.keptChars).toBeLessThan(2400 * 2002);
	});

	it('shows the last line the stream-json decoder gives at the end', () => {
		const output = new TaskOutput({decoder: {push: () => Buffer.from('model m1\n'), end: () => Buffer.from('⚙ bash ls\n')}});
		output.pushStdout(Buffer.from('{"type":"system"}\n'));
		expect(output.display.lines()).toEqual(['model m1']);
		const before = output.version;
		output.end();
		expect(output.version).not.toBe(before);
		expect(output.display.lines()).toEqual(['model m1', '⚙ bash ls']);
	});
});
