// The last bytes of a stream, for what a result keeps of a task's raw stdout and stderr: a ring
// of fixed most size, so a task that prints gigabytes holds no more than the limit.

/**
 * The last `limit` bytes written, copied into a ring that grows by doubling up to `limit`. Copied,
 * not kept as the chunks they came in: an agent printing a line at a time hands over a chunk per
 * line, and a tail of 64 KiB was a thousand Buffers kept alive per task, each an object on the
 * heap (promoted, then collected by a major GC) for 60 bytes of output.
 */
export class ByteTail {
	private ring = Buffer.alloc(0);
	/** Where the oldest kept byte is. */
	private start = 0;
	private size = 0;
	private total = 0;

	constructor(private readonly limit: number) {}

	push(chunk: Buffer): void {
		this.total += chunk.length;
		const data = chunk.length > this.limit ? chunk.subarray(chunk.length - this.limit) : chunk;
		if (data.length === 0) {
			return;
		}

		if (this.size + data.length > this.ring.length && this.ring.length < this.limit) {
			this.grow(Math.min(this.limit, Math.max(this.size + data.length, this.ring.length * 2, 1024)));
		}

		const capacity = this.ring.length;
		const overflow = this.size + data.length - capacity;
		if (overflow > 0) {
			this.start = (this.start + overflow) % capacity;
			this.size -= overflow;
		}

		const at = (this.start + this.size) % capacity;
		const first = Math.min(data.length, capacity - at);
		data.copy(this.ring, at, 0, first);
		data.copy(this.ring, 0, first);
		this.size += data.length;
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

	/** The kept bytes, oldest first, in one buffer. */
	private contents(): Buffer {
		const end = this.start + this.size;
		if (end <= this.ring.length) {
			return this.ring.subarray(this.start, end);
		}

		return Buffer.concat([this.ring.subarray(this.start), this.ring.subarray(0, end - this.ring.length)], this.size);
	}

	private grow(capacity: number): void {
		const ring = Buffer.alloc(capacity);
		this.contents().copy(ring, 0);
		this.ring = ring;
		this.start = 0;
	}
}

export const resultLimitBytes = 64 * 1024;
