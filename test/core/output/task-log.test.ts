// The task log writes the chunks queued behind a write in one writev, as they are, without joining
// them first. What must hold: the file has every byte in order (also past writev's 1024 buffers,
// and after partial writes), and at the limit the head, marker and tail are cut at the same byte
// whichever chunk, and wherever in a line, the cut falls. Real files.
import fs, {readFileSync} from 'node:fs';
import {open} from 'node:fs/promises';
import {syncBuiltinESMExports} from 'node:module';
import path from 'node:path';
import fc from 'fast-check';
import {afterEach, describe, expect, it} from 'vitest';
import {closeTaskLog, dropFront, openTaskLog, splitAt} from '../../../src/core/output/task-log.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

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
	return Array.from({length: count}, (_, index) => Buffer.from(`${`line ${index + 1} `.padEnd(size - 1, 'x')}\n`));
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

/** What a log limited to 2050 bytes keeps of `whole`: its first and last 1025 bytes around the marker. */
function cutAt2050(whole: Buffer): string {
	const limit = 2050;
	return `${whole.subarray(0, limit / 2).toString()}\n[hermes-delegate: ${whole.length - limit} bytes of output dropped here: the log limit is 2 KiB, so the log keeps the first 1 KiB and the last 1 KiB]\n${whole.subarray(-limit / 2).toString()}`;
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
		// 99-byte lines and a limit of 2050: the head ends 35 bytes into line 11, mid-chunk and
		// mid-line, so the marker needs a line break of its own before it.
		const chunks = numberedLines(300, 99);
		const limit = 2050;
		const whole = Buffer.concat(chunks);
		for (const group of [1, 7, 300]) {
			const file = path.join(folder, `cut-${group}.log`);
			const notes = await writeInGroups(file, chunks, group, limit);

			expect(readFileSync(file, 'utf8')).toBe(cutAt2050(whole));
			expect(notes).toEqual([expect.stringMatching(/^log cut at its limit/)]);
		}
	});

	it('writes a batch of more buffers than one writev takes (IOV_MAX, 1024)', async () => {
		const folder = scratch.folder('task-log-');
		const chunks = numberedLines(3000, 20);
		const file = path.join(folder, 'many.log');
		await writeInGroups(file, chunks, 3000);

		expect(readFileSync(file, 'latin1') === Buffer.concat(chunks).toString('latin1')).toBe(true);
	});

	it('carries on after partial writes, inline and through the thread pool, losing and repeating nothing', async () => {
		const folder = scratch.folder('task-log-');
		const probe = await open(path.join(folder, 'probe'), 'w');
		const fileHandle = Object.getPrototypeOf(probe) as {writev: (buffers: Buffer[], position?: number | null) => Promise<{bytesWritten: number}>};
		await probe.close();
		/** Hands at most the first 1–7 bytes of the first buffer to the real write. */
		let turn = 0;
		const stingy = (buffers: Buffer[]) => [buffers[0]!.subarray(0, Math.min(buffers[0]!.length, 1 + (turn++ % 7)))];
		const {writev} = fileHandle;
		const {writevSync} = fs;
		fileHandle.writev = async function (this: unknown, buffers: Buffer[], position?: number | null) {
			return writev.call(this, stingy(buffers), position);
		};

		fs.writevSync = (fd: number, buffers: readonly NodeJS.ArrayBufferView[], position?: number | null) => writevSync(fd, stingy(buffers as Buffer[]), position ?? undefined);
		syncBuiltinESMExports();
		restore.push(() => {
			fileHandle.writev = writev;
			fs.writevSync = writevSync;
			syncBuiltinESMExports();
		});
		for (const [size, group] of [[30, 5], [20_000, 2]] as const) {
			const chunks = numberedLines(12, size);
			const file = path.join(folder, `partial-${size}.log`);
			await writeInGroups(file, chunks, group);

			expect(readFileSync(file, 'latin1') === Buffer.concat(chunks).toString('latin1')).toBe(true);
		}

		// Past the head: the ring's positional writes, across its wrap, after partial writes too.
		const lines = numberedLines(300, 99);
		const file = path.join(folder, 'partial-cut.log');
		await writeInGroups(file, lines, 7, 2050);
		expect(readFileSync(file, 'utf8')).toBe(cutAt2050(Buffer.concat(lines)));

		expect(turn).toBeGreaterThan(100); // the stand-ins were used, both of them
	});
});

const restore: Array<() => void> = [];
afterEach(() => {
	for (const undo of restore.splice(0)) undo();
});
