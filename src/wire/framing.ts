// Newline-delimited framing with a ceiling: a peer that sends a line longer than the limit (or
// never ends one) is cut off, instead of the reader buffering whatever it is sent.
export type LineReaderEvents = {
	line(text: string): void;
	/** The line being read passed maxBytes: the connection should be closed. */
	oversized(bytes: number): void;
};

export class LineReader {
	private chunks: Buffer[] = [];
	private pending = 0;
	private stopped = false;

	constructor(private readonly maxBytes: number, private readonly events: LineReaderEvents) {}

	push(chunk: Buffer): void {
		let start = 0;
		while (!this.stopped) {
			const end = chunk.indexOf(0x0A, start);
			if (end === -1) {
				break;
			}

			if (this.pending + end - start > this.maxBytes) {
				this.overflow(this.pending + end - start);
				return;
			}

			this.chunks.push(chunk.subarray(start, end));
			const line = Buffer.concat(this.chunks).toString('utf8');
			this.chunks = [];
			this.pending = 0;
			start = end + 1;
			this.events.line(line);
		}

		if (this.stopped || start >= chunk.length) {
			return;
		}

		const rest = chunk.subarray(start);
		if (this.pending + rest.length > this.maxBytes) {
			this.overflow(this.pending + rest.length);
			return;
		}

		// A copy: the rest would otherwise keep the whole read buffer alive while it waits.
		this.chunks.push(Buffer.from(rest));
		this.pending += rest.length;
	}

	/** No more lines are delivered (the connection is being closed). */
	stop(): void {
		this.stopped = true;
		this.chunks = [];
		this.pending = 0;
	}

	private overflow(bytes: number): void {
		this.stop();
		this.events.oversized(bytes);
	}
}
