// A task's complete output goes to its log file, however much it prints: the dashboard and the
// results keep only bounded tails, so the log is where nothing is lost. Three things may go wrong
// on the way to the disk, and none of them may stop the task or the batch:
// - the disk is slower than the task: the task's pipe is paused, never given up (output-pipe.ts);
// - the disk is full, or we are out of file descriptors: the log says where it stops, the
//   result carries a warning, the rest of the output is still read (`TaskLog.notes`);
// - the task prints more than the log limit: the log keeps its first and its last part around a
//   marker line that says how much was dropped, so the disk is never filled silently.
import {writevSync} from 'node:fs';
import {open, unlink, type FileHandle} from 'node:fs/promises';
import {Writable} from 'node:stream';
import {formatBytes} from '../text/sizes.js';
import {errnoCode, messageOf} from '../errors.js';

export type TaskLogOptions = {
	/** Most bytes a log holds (first half + last half of the output); 0 or absent: no limit. */
	limitBytes?: number | undefined;
};

type Ring = {handle: FileHandle; file: string; position: number; filled: number};

/**
 * The log file of one task, as a Writable, so a full buffer tells the caller to pause the task's
 * pipe (1 MiB: with 16 KiB every 64 KiB pipe read would wait for the disk). It never emits
 * 'error': a write that fails (ENOSPC, EMFILE, EIO) ends the writing, is kept for `notes()`, and
 * everything after it is accepted and dropped, so the task's output is still read to its end.
 * Past the limit, the last part goes to a ring file beside the log (`<log>.tail`) and is copied
 * into the log behind the marker when the log ends.
 */
export class TaskLog extends Writable {
	private main: FileHandle | undefined;
	private ring: Ring | undefined;
	private readonly headLimit: number;
	private readonly tailLimit: number;
	/** Every byte the task printed. */
	private received = 0;
	/** Bytes of output known to be in the log file. */
	private onDisk = 0;
	private headEndsLine = true;
	private failure: string | undefined;
	/**
	 * Small writes to a regular file go straight to the page cache (a few µs): through the thread
	 * pool each cost ~10× that in CPU, and agents printing a line at a time make thousands a
	 * second. A write that takes long (a slow or network disk) turns this off for good, and a
	 * log that is not a regular file (a FIFO, a device) never has it: there a write may block.
	 */
	private writeInline = false;

	constructor(readonly file: string, private readonly options: TaskLogOptions = {}) {
		super({highWaterMark: 1024 * 1024});
		const limit = options.limitBytes ?? 0;
		this.headLimit = limit > 0 ? Math.ceil(limit / 2) : Number.POSITIVE_INFINITY;
		this.tailLimit = limit > 0 ? limit - this.headLimit : 0;
		// Only our own misuse (a write after end) could get here; it must not crash the batch.
		this.on('error', error => {
			this.failure ??= error.message;
		});
	}

	/** Bytes dropped from the middle of the log at its limit (known once the log has ended). */
	get droppedBytes(): number {
		return Math.max(0, this.received - this.headLimit - (this.ring?.filled ?? 0));
	}

	/** What a result must say about this log: incomplete, or cut at its limit. Empty when whole. */
	notes(): string[] {
		const notes: string[] = [];
		if (this.failure !== undefined) {
			notes.push(`log incomplete: ${this.failure}; ${this.file} holds ${this.onDisk} of the ${this.received} bytes the task printed (the result still has its last part)`);
		}

		if (this.failure === undefined && this.droppedBytes > 0) {
			notes.push(`log cut at its limit of ${formatBytes(this.options.limitBytes ?? 0)}: ${formatBytes(this.droppedBytes)} of output were dropped from its middle (a marker line says where); it keeps the first ${formatBytes(this.headLimit)} and the last ${formatBytes(this.tailLimit)}. Raise log_limit in delegate.yaml or pass --log-limit (0 = no limit)`);
		}

		return notes;
	}

	override _construct(callback: (error?: Error | null) => void): void {
		open(this.file, 'w').then(async handle => {
			this.main = handle;
			this.writeInline = await handle.stat().then(stats => stats.isFile(), () => false);
			callback();
		}, (error: unknown) => {
			this.fail(error, 'cannot open it');
			callback();
		});
	}

	override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
		this.storeThen([chunk], callback);
	}

	// The chunks queued while the previous write was on its way go to the file in one writev, as
	// they are: joining them first (Buffer.concat) copied a flood's every byte once more and made
	// a 1 MiB buffer per write, a third of the dashboard's longest pauses under a flood and much
	// of its peak memory (bench/RESULTS.md, 2026-12-01, 1c331ad).
	override _writev(chunks: Array<{chunk: Buffer}>, callback: (error?: Error | null) => void): void {
		this.storeThen(chunks.map(({chunk}) => chunk), callback);
	}

	override _final(callback: (error?: Error | null) => void): void {
		this.assemble().catch((error: unknown) => {
			this.fail(error, 'cannot finish it');
		}).finally(async () => {
			await this.release();
			callback();
		});
	}

	private storeThen(data: Buffer[], callback: () => void): void {
		this.store(data).then(() => callback(), (error: unknown) => {
			this.fail(error, 'cannot write it');
			callback();
		});
	}

	private async store(data: Buffer[]): Promise<void> {
		const offset = this.received;
		const length = byteLength(data);
		this.received += length;
		if (this.failure !== undefined || !this.main) {
			return;
		}

		const headLength = Math.max(0, Math.min(length, this.headLimit - offset));
		const [head, rest] = splitAt(data, headLength);
		if (headLength > 0) {
			if (this.writeInline && headLength <= inlineWriteBytes) {
				const started = performance.now();
				writeAllInline(this.main, head);
				this.writeInline = performance.now() - started < inlineWriteSlowMs;
			} else {
				await writeAll(this.main, head);
			}

			this.onDisk += headLength;
			this.headEndsLine = head.at(-1)!.at(-1) === 0x0A;
		}

		if (rest.length > 0 && this.tailLimit > 0) {
			await this.storeInRing(rest);
		}
	}

	/**
	 * The last `tailLimit` bytes, oldest overwritten first. The chunks go in as they are, one
	 * positional writev per side of the wrap: joining them first (Buffer.concat) copied every byte
	 * of a flood past its head once more, a tenth of the dashboard's long pauses (bench/RESULTS.md, 2026-12-01, 6585068).
	 */
	private async storeInRing(data: Buffer[]): Promise<void> {
		this.ring ??= {handle: await open(`${this.file}.tail`, 'w+', 0o600), file: `${this.file}.tail`, position: 0, filled: 0};
		const ring = this.ring;
		let rest = dropFront(data, Math.max(0, byteLength(data) - this.tailLimit));
		while (rest.length > 0) {
			const [part, after] = splitAt(rest, this.tailLimit - ring.position);
			const partLength = byteLength(part);
			await writeAll(ring.handle, part, ring.position);
			ring.position = (ring.position + partLength) % this.tailLimit;
			ring.filled = Math.min(this.tailLimit, ring.filled + partLength);
			rest = after;
		}
	}

	/** Head, marker line, then the ring's bytes oldest first. */
	private async assemble(): Promise<void> {
		const {main, ring} = this;
		if (!main || !ring || this.failure !== undefined) {
			return;
		}

		if (this.droppedBytes > 0) {
			const marker = `${this.headEndsLine ? '' : '\n'}[hermes-delegate: ${this.droppedBytes} bytes of output dropped here: the log limit is ${formatBytes(this.options.limitBytes ?? 0)}, so the log keeps the first ${formatBytes(this.headLimit)} and the last ${formatBytes(this.tailLimit)}]\n`;
			await writeAll(main, [Buffer.from(marker)]);
		}

		const oldest = ring.filled < this.tailLimit ? 0 : ring.position;
		const buffer = Buffer.alloc(Math.min(this.tailLimit, 1024 * 1024));
		for (const [from, to] of [[oldest, ring.filled], [0, oldest]] as const) {
			for (let at = from; at < to;) {
				const {bytesRead} = await ring.handle.read(buffer, 0, Math.min(buffer.length, to - at), at);
				if (bytesRead === 0) {
					throw new Error(`${ring.file} is shorter than what was written to it`);
				}

				await writeAll(main, [buffer.subarray(0, bytesRead)]);
				this.onDisk += bytesRead;
				at += bytesRead;
			}
		}
	}

	private fail(error: unknown, what: string): void {
		if (this.failure === undefined) {
			const code = errnoCode(error);
			this.failure = `${what}: ${code ?? messageOf(error)}${code === 'ENOSPC' ? ' (no space left on device)' : code === 'EMFILE' ? ' (too many open files)' : ''}`;
			// The ring is useless now; its space may be what the other tasks' logs need.
			void this.release();
		}
	}

	private async release(): Promise<void> {
		const {main, ring} = this;
		this.main = undefined;
		await main?.close().catch(() => undefined);
		if (ring) {
			await ring.handle.close().catch(() => undefined);
			await unlink(ring.file).catch(() => undefined);
		}
	}
}

/** Larger writes (a flood's 64 KiB reads) go through the thread pool, off the main thread. */
const inlineWriteBytes = 16 * 1024;
const inlineWriteSlowMs = 5;

function writeAllInline(handle: FileHandle, data: Buffer[]): void {
	for (let rest = data; byteLength(rest) > 0;) {
		rest = dropFront(rest, progress(writevSync(handle.fd, rest)));
	}
}

/** At `position` (the ring), or without one at the file's current end (the log is only appended to). */
async function writeAll(handle: FileHandle, data: Buffer[], position?: number): Promise<void> {
	for (let rest = data, at = position; byteLength(rest) > 0;) {
		const {bytesWritten} = await handle.writev(rest, at);
		rest = dropFront(rest, progress(bytesWritten));
		at = at === undefined ? undefined : at + bytesWritten;
	}
}

/** A write that took nothing would be retried for ever; a file does not do that, but a device might. */
function progress(bytesWritten: number): number {
	if (bytesWritten <= 0) {
		throw new Error('the write took no bytes');
	}

	return bytesWritten;
}

function byteLength(buffers: Buffer[]): number {
	let length = 0;
	for (const buffer of buffers) {
		length += buffer.length;
	}

	return length;
}

/** The buffers without their first `bytes` bytes: what a partial write left to write. */
export function dropFront(buffers: Buffer[], bytes: number): Buffer[] {
	let index = 0;
	let skip = bytes;
	while (index < buffers.length && skip >= buffers[index]!.length) {
		skip -= buffers[index]!.length;
		index++;
	}

	const rest = buffers.slice(index);
	if (skip > 0 && rest.length > 0) {
		rest[0] = rest[0]!.subarray(skip);
	}

	return rest;
}

/** The first `bytes` bytes of the buffers and the rest, both without empty buffers. */
export function splitAt(buffers: Buffer[], bytes: number): [Buffer[], Buffer[]] {
	const head: Buffer[] = [];
	let left = bytes;
	let index = 0;
	for (; index < buffers.length && left > 0; index++) {
		const buffer = buffers[index]!;
		if (buffer.length > left) {
			head.push(buffer.subarray(0, left));
			return [head, [buffer.subarray(left), ...buffers.slice(index + 1)].filter(part => part.length > 0)];
		}

		if (buffer.length > 0) {
			head.push(buffer);
		}

		left -= buffer.length;
	}

	return [head, buffers.slice(index).filter(part => part.length > 0)];
}

export function openTaskLog(file: string, options: TaskLogOptions = {}): TaskLog {
	return new TaskLog(file, options);
}

/** Ends the log (the marker and last part are written now) and returns what the result must say about it. */
export async function closeTaskLog(log: TaskLog): Promise<string[]> {
	await new Promise<void>(resolve => {
		log.end(() => resolve());
	});
	return log.notes();
}
