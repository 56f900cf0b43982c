// The task log writes the chunks queued behind a write in one writev, as they are, without joining
// them first. What must hold: the file has every byte in order, and at the limit the head, marker
// and tail are cut at the same byte whichever chunk the cut falls in. Real files.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {closeTaskLog, dropFront, openTaskLog, splitAt} from '../../src/core/task-log.js';
import {scratchAfterEach} from '../helpers/scratch.js';

const scratch = scratchAfterEach();
const buffers = fc.array(fc.uint8Array({maxLength: 40}).map(bytes => Buffer.from(bytes)), {maxLength: 12});

describe('splitAt and dropFront', () => {
	it('cut the bytes where Buffer.concat and subarray would (splitAt: without empty buffers)', () => {
		fc.assert(fc.property(buffers, fc.nat({max: 500}), (parts, at) => {
			const whole = Buffer.concat(parts);
			const [head, rest] = splitAt(parts, at);
			expect(Buffer.concat(head)).toEqual(whole.subarray(0, at));
			expect(Buffer.concat(rest)).toEqual(whole.subarray(at));
			expect(Buffer.concat(dropFront(parts, at))).toEqual(whole.subarray(at));
			expect([...head, ...rest].every(part => part.length > 0)).toBe(true);
		}));
	});
});

/** Lines of distinct text, `count` of them, each `size` bytes with its newline. */
function numberedLines(count: number, size: number): Buffer[] {
	return Array.from({length: count}, (_, index) => Buffer.from(`line ${index + 1} `.padEnd(size - 1, 'x') + '\n'));
}

/** Writes the chunks in corked groups of `group`, so the log gets them as writev batches. */
async function writeInGroups(file: string, chunks: Buffer[], group: number, limitBytes?: number) {
	const log = openTaskLog(file, {limitBytes});
	for (let start = 0; start < chunks.length; start += group) {
		log.cork();
		for (const chunk of chunks.slice(start, start + group)) {
			log.write(chunk);
		}

		log.uncork();
		if (log.writableNeedDrain) {
			await new Promise(resolve => log.once('drain', resolve));
		}
	}

	return closeTaskLog(log);
}

describe('the task log', () => {
	it('has every byte of batched writes in order, small (written inline) and large (through the thread pool)', async () => {
		const folder = scratch.folder('task-log-');
		for (const [size, group] of [[50, 7], [40_000, 3], [70_000, 5]] as const) {
			const chunks = numberedLines(60, size);
			const file = path.join(folder, `whole-${size}.log`);
			const notes = await writeInGroups(file, chunks, group);

			expect(notes).toEqual([]);
			expect(readFileSync(file, 'latin1') === Buffer.concat(chunks).toString('latin1')).toBe(true); // toEqual on MiBs of bytes takes seconds
		}
	});

	it('cuts at its limit inside a batch: the first and last half around the marker, whichever chunk the cut falls in', async () => {
		const folder = scratch.folder('task-log-');
		const chunks = numberedLines(300, 100); // 30,000 bytes
		const limit = 2000;
		for (const group of [1, 7, 300]) {
			const file = path.join(folder, `cut-${group}.log`);
			const notes = await writeInGroups(file, chunks, group, limit);
			const whole = Buffer.concat(chunks);

			expect(readFileSync(file, 'utf8')).toBe(`${whole.subarray(0, limit / 2).toString()}[hermes-delegate: ${whole.length - limit} bytes of output dropped here: the log limit is 2 KiB, so the log keeps the first 1000 bytes and the last 1000 bytes]\n${whole.subarray(-limit / 2).toString()}`);
			expect(notes).toEqual([expect.stringMatching(/^log cut at its limit/)]);
		}
	});
});
