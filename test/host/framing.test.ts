// Lines come out whole however the stream is cut (multi-byte characters included), and a line
// past the ceiling stops the reader instead of growing its buffer.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {LineReader} from '../../src/wire/framing.js';

function read(chunks: readonly Buffer[], maxBytes: number): {lines: string[]; oversized: number | null} {
	const lines: string[] = [];
	let oversized: number | null = null;
	const reader = new LineReader(maxBytes, {line: text => lines.push(text), oversized(bytes) {
		oversized = bytes;
	}});
	for (const chunk of chunks) reader.push(chunk);
	return {lines, oversized};
}

/** The bytes cut at the given points. */
function cut(bytes: Buffer, points: readonly number[]): Buffer[] {
	const at = [...new Set(points.map(point => point % (bytes.length + 1)))].sort((a, b) => a - b);
	return [...at, bytes.length].map((end, index) => bytes.subarray(index === 0 ? 0 : at[index - 1]!, end));
}

describe('the line reader', () => {
	it('gives every line whole, however the bytes are cut', () => {
		const line = fc.string({unit: 'grapheme', maxLength: 40}).filter(text => !text.includes('\n'));
		fc.assert(fc.property(fc.array(line, {maxLength: 20}), fc.array(fc.nat(), {maxLength: 10}), (lines, points) => {
			const bytes = Buffer.from(lines.map(text => `${text}\n`).join(''));
			expect(read(cut(bytes, points), 1024)).toEqual({lines, oversized: null});
		}));
	});

	it('stops at a line longer than the ceiling, ended or not, and delivers nothing after it', () => {
		expect(read([Buffer.from('ok\n'), Buffer.from('x'.repeat(11)), Buffer.from('\nlater\n')], 10)).toEqual({lines: ['ok'], oversized: 11});
		expect(read([Buffer.from(`${'y'.repeat(6)}`), Buffer.from(`${'y'.repeat(6)}\nlater\n`)], 10)).toEqual({lines: [], oversized: 12});
		expect(read([Buffer.from('0123456789\n')], 10)).toEqual({lines: ['0123456789'], oversized: null});
	});
});
