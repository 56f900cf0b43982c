// The ring that keeps the last bytes of a task's stdout and stderr for its result.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {ByteTail} from '../../../src/core/output/byte-tail.js';

describe('ByteTail', () => {
	it('holds exactly the last bytes pushed, however the chunks fall, and says whether any were dropped', () => {
		fc.assert(fc.property(fc.integer({min: 1, max: 3000}), fc.array(fc.uint8Array({maxLength: 1500}), {maxLength: 40}), (limit, chunks) => {
			const tail = new ByteTail(limit);
			const pushed: Buffer[] = [];
			for (const bytes of chunks) {
				const chunk = Buffer.from(bytes);
				tail.push(chunk);
				pushed.push(chunk);
				const all = Buffer.concat(pushed);
				const kept = all.subarray(Math.max(0, all.length - limit));
				let start = 0;
				while (all.length > limit && start < kept.length && start < 4 && (kept[start]! & 0xc0) === 0x80) start++;
				expect(tail.text()).toEqual({text: kept.subarray(start).toString('utf8'), truncated: all.length > limit});
			}
		}));
	});

	it('holds the same bytes when chunks from any size up are kept by reference and smaller ones copied', () => {
		fc.assert(fc.property(fc.integer({min: 1, max: 3000}), fc.integer({min: 1, max: 3000}), fc.array(fc.uint8Array({maxLength: 4000}), {maxLength: 40}), (limit, borrowFrom, chunks) => {
			const tail = new ByteTail(limit, Math.min(borrowFrom, limit));
			let all = Buffer.alloc(0);
			for (const bytes of chunks) {
				tail.push(Buffer.from(bytes));
				all = Buffer.concat([all, Buffer.from(bytes)]);
				const kept = all.subarray(Math.max(0, all.length - limit));
				let start = 0;
				while (all.length > limit && start < kept.length && start < 4 && (kept[start]! & 0xc0) === 0x80) start++;
				expect(tail.text()).toEqual({text: kept.subarray(start).toString('utf8'), truncated: all.length > limit});
			}
		}));
	});

	it('keeps the last bytes and drops a character cut in half at the front', () => {
		const tail = new ByteTail(4);
		tail.push(Buffer.from('ab'));
		tail.push(Buffer.from('cé'));
		tail.push(Buffer.from('z'));
		// 'abcéz' is 6 bytes; whole chunks are dropped from the front while 4 bytes remain.
		expect(tail.text()).toEqual({text: 'céz', truncated: true});
	});

	it('cuts inside a chunk and skips the continuation bytes of a split character', () => {
		const tail = new ByteTail(2);
		tail.push(Buffer.from('aéz'));
		// 'a' c3 a9 'z' → the last 2 bytes start with the continuation byte a9, which is skipped.
		expect(tail.text()).toEqual({text: 'z', truncated: true});
	});
});
