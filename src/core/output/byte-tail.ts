// The last bytes of a stream, for what a result keeps of a task's raw stdout and stderr: at most
// the limit (and one chunk) held, however much a task prints.

/**
 * The last `limit` bytes written. Chunks of `borrowFrom` bytes or more are kept as they came, by
 * reference: a flood's pipe reads (tens of KiB each) were each copied once more just to be
 * dropped by the next one, ~3 % of `run`'s main thread in the headless flood (bench/RESULTS.md,
 * 2026-12-03, 7ee40b5). Smaller chunks are copied into blocks of our own: an agent printing a line at a
 * time hands over a chunk per line, and keeping those would be a thousand Buffers alive per task,
 * each an object on the heap (promoted, then collected by a major GC) for 60 bytes of output. So
 * at most ~2 × limit / borrowFrom buffers are held. A chunk kept by reference must not be changed
 * by its owner afterwards: stream chunks never are.
 */
export class ByteTail {
	/** Oldest first; together `size` bytes, of which the newest `limit` count. */
	private segments: Buffer[] = [];
	private size = 0;
	private total = 0;
	/** The block small chunks are being copied into (the last segment views its used part). */
	private block: {buffer: Buffer; used: number} | undefined;

	constructor(private readonly limit: number, private readonly borrowFrom = Math.min(4096, limit)) {}

	push(chunk: Buffer): void {
		this.total += chunk.length;
		if (chunk.length === 0) {
			return;
		}

		if (chunk.length >= this.limit) {
			this.segments = [chunk.subarray(chunk.length - this.limit)];
			this.size = this.limit;
			this.block = undefined;
			return;
		}

		if (chunk.length >= this.borrowFrom) {
			this.segments.push(chunk);
			this.block = undefined;
		} else {
			this.copyIn(chunk);
		}

		this.size += chunk.length;
		// Segments wholly older than the newest `limit` bytes are let go.
		while (this.size - this.segments[0]!.length >= this.limit) {
			this.size -= this.segments.shift()!.length;
			if (this.segments.length === 0) this.block = undefined;
		}
	}

	/** Decoded text of at most `limit` bytes; a character cut at the front is dropped. */
	text(): {text: string; truncated: boolean} {
		const buffer = this.contents();
		const truncated = this.total > this.limit;
		let start = 0;
		// Skip UTF-8 continuation bytes left over from a character cut in half.
		while (truncated && start < buffer.length && start < 4 && (buffer[start]! & 0xc0) === 0x80) {
			start++;
		}

		return {text: buffer.subarray(start).toString('utf8'), truncated};
	}

	/** The kept bytes, oldest first, in one buffer of at most `limit` bytes. */
	private contents(): Buffer {
		const all = this.segments.length === 1 ? this.segments[0]! : Buffer.concat(this.segments, this.size);
		return all.subarray(Math.max(0, all.length - this.limit));
	}

	/** A small chunk, copied after the previous small ones (a new block when the last is full or not ours). */
	private copyIn(chunk: Buffer): void {
		let {block} = this;
		let copied = 0;
		if (block && block.used < block.buffer.length) {
			copied = chunk.copy(block.buffer, block.used);
			block.used += copied;
			this.segments[this.segments.length - 1] = block.buffer.subarray(0, block.used);
		}

		if (copied < chunk.length) {
			const rest = chunk.subarray(copied);
			block = {buffer: Buffer.allocUnsafe(Math.max(this.borrowFrom, rest.length)), used: rest.length};
			rest.copy(block.buffer);
			this.segments.push(block.buffer.subarray(0, block.used));
			this.block = block;
		}
	}
}

export const resultLimitBytes = 64 * 1024;
