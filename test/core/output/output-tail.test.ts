import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import {describe, expect, it} from 'vitest';
import {OutputTail} from '../../../src/core/output/output-tail.js';
import {ReferenceStream, randomOutput, randomSplits, seededRandom} from '../../helpers/reference-output.js';

const E = '\x1b';

function tailOf(...chunks: Array<string | Buffer>): OutputTail {
	const tail = new OutputTail();
	for (const chunk of chunks) {
		tail.push(chunk);
	}
	return tail;
}

describe('OutputTail lines', () => {
	it('splits on newlines and shows the partial line last', () => {
		const tail = tailOf('a\nb\nc');
		expect(tail.lines()).toEqual(['a', 'b', 'c']);
		expect(tail.totalLines).toBe(2);
		tail.push('\n');
		expect(tail.lines()).toEqual(['a', 'b', 'c']);
		expect(tail.totalLines).toBe(3);
	});

	it('keeps empty lines', () => {
		expect(tailOf('a\n\nb\n').lines()).toEqual(['a', '', 'b']);
	});

	it('treats \\r\\n as one line ending, also when split across chunks', () => {
		expect(tailOf('one\r\ntwo\r\n').lines()).toEqual(['one', 'two']);
		const split = tailOf('one\r', '\ntwo\r', '\n');
		expect(split.lines()).toEqual(['one', 'two']);
		expect(split.totalLines).toBe(2);
	});

	it('shows the last state of a progress bar drawn with \\r', () => {
		expect(tailOf('10%\r20%\r30%\n').lines()).toEqual(['30%']);
		expect(tailOf('\rstep 1', '\rstep 2', '\n').lines()).toEqual(['step 2']);
	});

	it('keeps the text before a trailing \\r until new text arrives', () => {
		const tail = tailOf('progress 10%\r');
		expect(tail.lines()).toEqual(['progress 10%']);
		tail.push('progress 20%');
		expect(tail.lines()).toEqual(['progress 20%']);
		tail.push('\r');
		expect(tail.lines()).toEqual(['progress 20%']);
		tail.push('\n');
		expect(tail.lines()).toEqual(['progress 20%']);
		expect(tail.totalLines).toBe(1);
	});

	it('keeps multibyte UTF-8 intact when a character is split across chunks', () => {
		const bytes = Buffer.from('héllo 世界 😀\n');
		for (let k = 0; k <= bytes.length; k++) {
			const tail = tailOf(bytes.subarray(0, k), bytes.subarray(k));
			expect(tail.lines(), `split at byte ${k}`).toEqual(['héllo 世界 😀']);
		}
	});

	it('sanitizes what it is fed, keeping SGR', () => {
		const tail = tailOf(`${E}]0;title\x07${E}[2Jok${E}[31m!${E}[0m\x07\n`);
		expect(tail.lines()).toEqual([`ok${E}[31m!${E}[0m`]);
	});

	it('sanitizes escape sequences split across chunks', () => {
		const tail = tailOf(`a${E}]52;c;QU`, 'JD\x07b', `${E}`, '[2Jc\n');
		expect(tail.lines()).toEqual(['abc']);
	});
});

describe('OutputTail bounds', () => {
	it('keeps at most maxLines lines and counts all of them', () => {
		const tail = new OutputTail({maxLines: 3});
		for (let k = 1; k <= 10; k++) {
			tail.push(`line ${k}\n`);
		}
		expect(tail.lines()).toEqual(['line 8', 'line 9', 'line 10']);
		expect(tail.lines(2)).toEqual(['line 9', 'line 10']);
		expect(tail.lines(0)).toEqual([]);
		expect(tail.lines(99)).toEqual(['line 8', 'line 9', 'line 10']);
		expect(tail.totalLines).toBe(10);
		tail.push('partial');
		expect(tail.lines(2)).toEqual(['line 10', 'partial']);
	});

	it('keeps the order after the ring wraps many times within one chunk', () => {
		const tail = new OutputTail({maxLines: 7});
		const text = Array.from({length: 1000}, (_, k) => `${k}\n`).join('');
		tail.push(text);
		expect(tail.lines()).toEqual(['993', '994', '995', '996', '997', '998', '999']);
	});

	it('cuts long lines with a trailing ellipsis', () => {
		const tail = new OutputTail({maxLineLength: 10});
		tail.push(`${'x'.repeat(25)}\n${'y'.repeat(10)}\n${'z'.repeat(12)}`);
		expect(tail.lines()).toEqual(['xxxxxxxxx…', 'yyyyyyyyyy', 'zzzzzzzzz…']);
	});

	it('never cuts inside an SGR sequence or a surrogate pair', () => {
		const tail = new OutputTail({maxLineLength: 10});
		tail.push(`abcd${E}[31mefgh${E}[0m\n`);
		tail.push(`abcdef${E}[31mgh${E}[0m\n`);
		tail.push('abcdefgh😀xyz\n');
		// A cut line that held styling closes it.
		expect(tail.lines()).toEqual([`abcd${E}[31m…${E}[0m`, 'abcdef…', 'abcdefgh…']);
	});

	it('keeps a 10 MB line without newline bounded while it streams', () => {
		const maxLineLength = 2000;
		const tail = new OutputTail({maxLineLength});
		const chunk = Buffer.alloc(64 * 1024, 'a');
		for (let sent = 0; sent < 10 * 1024 * 1024; sent += chunk.length) {
			tail.push(chunk);
			const lines = tail.lines();
			expect(lines).toHaveLength(1);
			expect(lines[0]?.length).toBeLessThanOrEqual(maxLineLength);
		}
		tail.push('\nnext\n');
		expect(tail.lines()).toEqual([`${'a'.repeat(maxLineLength - 1)}…`, 'next']);
		expect(tail.totalLines).toBe(2);
	});

	it('bounds the total kept text whatever is pushed', () => {
		const tail = new OutputTail({maxLines: 50, maxLineLength: 100});
		const chunk = `${'b'.repeat(300)}\n`.repeat(200);
		for (let k = 0; k < 20; k++) {
			tail.push(chunk);
		}
		const lines = tail.lines();
		expect(lines).toHaveLength(50);
		expect(lines.every((line) => line.length <= 100)).toBe(true);
	});

	it('rejects nonsensical limits', () => {
		expect(() => new OutputTail({maxLines: 0})).toThrow(RangeError);
		expect(() => new OutputTail({maxLineLength: 1.5})).toThrow(RangeError);
	});
});

describe('OutputTail version and end', () => {
	it('increments version on every change and only then', () => {
		const tail = new OutputTail();
		expect(tail.version).toBe(0);
		tail.push('a');
		const afterText = tail.version;
		expect(afterText).toBeGreaterThan(0);
		tail.push('');
		tail.push(`${E}]0;swallowed title\x07`);
		expect(tail.version).toBe(afterText);
		tail.push('\n');
		expect(tail.version).toBeGreaterThan(afterText);
	});

	it('end() turns the partial line into a complete one and ignores later pushes', () => {
		const tail = tailOf('first\nlast');
		const before = tail.version;
		tail.end();
		expect(tail.totalLines).toBe(2);
		expect(tail.lines()).toEqual(['first', 'last']);
		expect(tail.version).toBeGreaterThan(before);
		tail.push('more\n');
		expect(tail.lines()).toEqual(['first', 'last']);
	});

	it('end() shows a character cut off by the end of the stream as U+FFFD', () => {
		const tail = new OutputTail();
		tail.push(Buffer.from('ok ', 'utf8'));
		tail.push(Buffer.from('世', 'utf8').subarray(0, 2));
		tail.end();
		expect(tail.lines()).toEqual(['ok \ufffd']);
	});
});

describe('OutputTail lastLine', () => {
	it('lastLine skips lines that are empty once SGR is stripped', () => {
		const tail = tailOf(`first\n${E}[31mlast${E}[0m\n\n   \n${E}[0m\n`);
		expect(tail.lastLine()).toBe(`${E}[31mlast${E}[0m`);
		expect(tail.lastLine((line) => line.startsWith('f'))).toBe('first');
		expect(tail.lastLine((line) => line.includes('nowhere'))).toBeUndefined();
		tail.push('partial');
		expect(tail.lastLine()).toBe('partial');
	});

	it('lastLine is undefined for an empty tail', () => {
		expect(new OutputTail().lastLine()).toBeUndefined();
	});
});

describe('OutputTail blocks of lines', () => {
	it('returns exactly the last maxLines lines while whole chunks are forgotten', () => {
		const tail = new OutputTail({maxLines: 5});
		let next = 0;
		for (let chunk = 0; chunk < 20; chunk++) {
			tail.push(`${next++}\n${next++}\n${next++}\n`);
			const expected = Array.from({length: Math.min(5, next)}, (_, k) => String(next - Math.min(5, next) + k));
			expect(tail.lines()).toEqual(expected);
			expect(tail.lines(4)).toEqual(expected.slice(-4));
		}
		expect(tail.totalLines).toBe(60);
	});

	it('joins the partial line to the first line of the next chunk', () => {
		const tail = tailOf('a\nfirst ha', 'lf\nb\nc');
		expect(tail.lines()).toEqual(['a', 'first half', 'b', 'c']);
		expect(tail.lines(3)).toEqual(['first half', 'b', 'c']);
		expect(tail.totalLines).toBe(3);
	});

	it('handles a carriage return among complete lines of one chunk', () => {
		const tail = tailOf('x', 'a\nb\n10%\r20%\nc\n50%\r');
		expect(tail.lines()).toEqual(['xa', 'b', '20%', 'c', '50%']);
		tail.push('60%\nd\n');
		expect(tail.lines()).toEqual(['xa', 'b', '20%', 'c', '60%', 'd']);
		expect(tail.totalLines).toBe(6);
	});

	it('drops the carriage return of CRLF endings inside a block', () => {
		const tail = tailOf('one\r\ntwo\nthree\r\n\r\nfour');
		expect(tail.lines()).toEqual(['one', 'two', 'three', '', 'four']);
		expect(tail.lines(3)).toEqual(['three', '', 'four']);
	});

	it('cuts a long line inside an otherwise short-lined chunk', () => {
		const tail = new OutputTail({maxLineLength: 10});
		tail.push(`short\n${'x'.repeat(25)}\nok\n${'y'.repeat(10)}\n`);
		expect(tail.lines()).toEqual(['short', 'xxxxxxxxx…', 'ok', 'yyyyyyyyyy']);
		expect(tail.totalLines).toBe(4);
	});

	it('cuts a first line made too long by the partial line before it', () => {
		const tail = new OutputTail({maxLineLength: 10});
		tail.push('abcdefgh');
		tail.push('ijk\nnext\n');
		expect(tail.lines()).toEqual(['abcdefghi…', 'next']);
	});

	it('matches the line-by-line meaning of the output however it is chunked', () => {
		const random = seededRandom(7);
		for (let round = 0; round < 300; round++) {
			const text = randomOutput(random, 60, 12);
			const tail = new OutputTail({maxLines: 4, maxLineLength: 8});
			const reference = new ReferenceStream(4, 8);
			for (const piece of randomSplits(random, text)) {
				tail.push(piece);
				reference.push(piece);
				const context = `round ${round}, after ${JSON.stringify(piece)}`;
				expect(tail.lines(), context).toEqual(reference.lines());
				expect(tail.lines(2), context).toEqual(reference.lines().slice(-2));
				expect(tail.totalLines, context).toBe(reference.total);
				expect(tail.partialLine(), context).toBe(reference.partialLine());
				expect(tail.lastLine(), context).toBe(reference.lines().findLast((line) => line.trim() !== ''));
			}
		}
	});
});

describe('OutputTail memory', () => {
	it('keeps text within (maxLines + lines of one chunk) × (maxLineLength + 2)', () => {
		const maxLines = 50;
		const maxLineLength = 100;
		const tail = new OutputTail({maxLines, maxLineLength});
		const linesPerChunk = 30;
		for (let k = 0; k < 500; k++) {
			const lengths = Array.from({length: linesPerChunk}, (_, i) => (k * 7 + i * 13) % 150);
			tail.push(`${lengths.map((length) => 'm'.repeat(length)).join(k % 3 === 0 ? '\r\n' : '\n')}\n`);
			expect(tail.keptChars).toBeLessThanOrEqual((maxLines + linesPerChunk) * (maxLineLength + 2));
		}
		expect(tail.lines()).toHaveLength(maxLines);
	});

	it('does not keep alive the big chunks its lines were cut from', () => {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		const big = 'z'.repeat(1024 * 1024);
		// A line sliced out of a chunk keeps all of the chunk in memory. Here each chunk is
		// 1 MB for one or two short lines: a short line between two long ones, or a partial
		// line at the end of a chunk that is completed by the next one.
		const shapes = {
			'short line between long ones': `\nshort line here\n${big}`,
			'partial line completed by the next chunk': `more\n${big}\nlong enough partial `,
		};
		for (const [shape, text] of Object.entries(shapes)) {
			const chunk = Buffer.from(text);
			const tail = new OutputTail({maxLines: 100, maxLineLength: 100});
			gc();
			const before = process.memoryUsage().heapUsed;
			for (let k = 0; k < 200; k++) {
				tail.push(chunk);
			}
			gc();
			const grown = process.memoryUsage().heapUsed - before;
			expect(tail.totalLines, shape).toBeGreaterThanOrEqual(200);
			// Keeping the chunks would take 100 MB; the kept lines themselves are about 10 kB.
			expect(grown, shape).toBeLessThan(16 * 1024 * 1024);
		}
	});
});
