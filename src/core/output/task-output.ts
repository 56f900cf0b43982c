// What is kept in memory of one task's output: display tails (sanitised, bounded lines) for
// the dashboard, and the last bytes of raw stdout for the result. The complete output goes
// to the task's log file, never here, so memory stays flat however much a task prints.
import {LineBlocks} from './line-blocks.js';
import type {LineBlock} from './line-blocks.js';
import {defaultMaxLineLength, OutputTail} from './output-tail.js';
import {sanitizeLine, stripSgr} from './sanitize.js';

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

/**
 * What a pane shows: stdout and stderr lines in the order they were completed, so an agent's
 * warnings appear where they happened. Each stream assembles its own lines (a partial stdout
 * line is never spliced with stderr text); the unfinished lines of both come last.
 * The streams hand over blocks of lines completed together, shared with their own tails, so
 * merging costs one step per chunk, not per line.
 */
export class MergedLines {
	private readonly complete: LineBlocks;

	constructor(maxLines: number, private readonly partials: () => string[]) {
		this.complete = new LineBlocks(maxLines);
	}

	add(block: LineBlock): void {
		this.complete.add(block);
	}

	skip(count: number): void {
		this.complete.skip(count);
	}

	get totalLines(): number {
		return this.complete.totalLines;
	}

	lines(count?: number): string[] {
		const partials = this.partials().filter(line => line !== '');
		const wanted = Math.min(count ?? Number.POSITIVE_INFINITY, this.complete.length + partials.length);
		const fromComplete = Math.max(0, wanted - partials.length);
		// Only the wanted lines are split out: panes ask for a few dozen lines many times a second.
		const complete = this.complete.last(fromComplete);
		// These lines leave the core for the screen, where Ink caches every string it draws:
		// a line that is a slice of a 64 KiB output block would keep that whole block alive. So
		// they leave as copies, and a line the last read handed out leaves as the same copy:
		// between two reads of a pane most of its lines are the same (under 32 trickling agents,
		// copying them afresh was ~9 % of what the dashboard allocated).
		const first = this.complete.totalLines - complete.length;
		const copies = complete.map((line, i) => this.handedOut.copyOf(first + i, line));
		// A pane's reads are remembered; the zoom's (up to maxLines) reuse them without replacing
		// them, so that a pane read after the zoom still finds its lines, and a task once zoomed
		// does not keep a second copy of its scrollback for the rest of the run.
		if (copies.length <= rememberedLines) {
			this.handedOut = new HandedOut(first, copies, copies.length);
		}

		copies.push(...partials.slice(partials.length - (wanted - fromComplete)).map(detached));
		return copies;
	}

	private handedOut = new HandedOut(0, [], 0);
}

/** Reads of at most this many lines (a pane's) are remembered for the next read to reuse. */
const rememberedLines = 256;

/** Copies of complete lines a read handed out, by their number among all the lines ever completed. */
class HandedOut {
	/** `copies` may go on with the read's partial lines: only the first `count` are complete lines. */
	constructor(private readonly first: number, private readonly copies: readonly string[], private readonly count: number) {}

	/** The copy handed out for line `index` if it holds `line`'s text (content compared: never a wrong line), else a new copy. */
	copyOf(index: number, line: string): string {
		const at = index - this.first;
		const copy = at >= 0 && at < this.count ? this.copies[at] : undefined;
		return copy === line ? copy : detached(line);
	}
}

/** Turns an agent's raw stdout into what its pane shows (stream-json → reply text and tool lines). */
export type StdoutDecoder = {
	push(chunk: Buffer): Buffer;
	end(): Buffer;
};

/**
 * Output waiting for display is decoded when somebody looks (the dashboard polls a few times a
 * second), not as it arrives. A flood prints thousands of lines between two looks, of which a
 * tail keeps only the last `maxLines`: the older ones are counted with native byte searches and
 * never decoded, sanitised or split (under 16 floods that decoding and its garbage were about a
 * third of the dashboard's CPU). Below this many bytes waiting, everything is simply decoded.
 */
const skipAbove = 128 * 1024;
/** Output waiting is trimmed to its newest lines as it arrives past this, so a flood between two looks is not held in memory. */
const trimAbove = 512 * 1024;
/** Newest lines of a flood decoded at once (more than a pane or a zoomed screen shows); older kept ones are decoded when read. */
const eagerLines = 256;

export type Pending = {stderr: boolean; chunk: Buffer};

export class TaskOutput {
	private readonly stdoutTail: OutputTail;
	private readonly stderrTail: OutputTail;
	private readonly merged: MergedLines;
	private readonly resultBytes = new ByteTail(resultLimitBytes);
	private readonly errorBytes = new ByteTail(4 * 1024);
	private readonly maxLines: number;
	/** Display output not yet decoded, in arrival order (stdout and stderr interleaved). */
	private pending: Pending[] = [];
	private pendingStdoutBytes = 0;
	/** The waiting stdout begins just after a cut (trimPending): a line break with fresh decoding state. */
	private pendingStartsFresh = false;
	private changes = 0;

	/** false (headless `run`): nobody watches, so output is not decoded for display at all. */
	private readonly keepDisplay: boolean;

	private readonly decoder: StdoutDecoder | undefined;
	/** What of stderr the pane shows (the log keeps every byte): the agent's protocol lines are not news. */
	private readonly stderrFilter: ((chunk: Buffer) => Buffer) | undefined;

	/** Newest lines of a flood decoded at once. */
	private readonly eagerLines: number;

	constructor(options: {maxLines?: number | undefined; display?: boolean | undefined; decoder?: StdoutDecoder | undefined; stderrFilter?: ((chunk: Buffer) => Buffer) | undefined; eagerLines?: number | undefined} = {}) {
		this.keepDisplay = options.display ?? true;
		this.decoder = options.decoder;
		this.stderrFilter = options.stderrFilter;
		this.maxLines = options.maxLines ?? 2000;
		this.eagerLines = options.eagerLines ?? eagerLines;
		this.merged = new MergedLines(this.maxLines, () => [this.stdoutTail.partialLine(), this.stderrTail.partialLine()]);
		const sink = (block: LineBlock) => this.merged.add(block);
		this.stdoutTail = new OutputTail({maxLines: this.maxLines, sink});
		this.stderrTail = new OutputTail({maxLines: 200, sink});
	}

	/** The stdout tail, up to date. */
	get stdout(): OutputTail {
		this.decodePending();
		return this.stdoutTail;
	}

	/** The stderr tail, up to date. */
	get stderr(): OutputTail {
		this.decodePending();
		return this.stderrTail;
	}

	/** stdout and stderr interleaved by arrival: what the dashboard shows. */
	get display(): MergedLines {
		this.decodePending();
		return this.merged;
	}

	pushStdout(chunk: Buffer): void {
		// A decoder reads every byte, watched or not: the answer and the telemetry come from it.
		const shown = this.decoder ? this.decoder.push(chunk) : chunk;
		if (this.keepDisplay && shown.length > 0) {
			this.pending.push({stderr: false, chunk: shown});
			this.pendingStdoutBytes += shown.length;
			this.changes++;
			if (this.pendingStdoutBytes > trimAbove) {
				this.trimPending();
			}
		}

		this.resultBytes.push(chunk);
	}

	pushStderr(chunk: Buffer): void {
		if (this.keepDisplay) {
			const shown = this.stderrFilter ? this.stderrFilter(chunk) : chunk;
			if (shown.length > 0) {
				this.pending.push({stderr: true, chunk: shown});
				this.changes++;
			}
		}

		this.errorBytes.push(chunk);
	}

	end(): void {
		const rest = this.decoder?.end();
		if (rest && rest.length > 0 && this.keepDisplay) {
			this.pending.push({stderr: false, chunk: rest});
			this.pendingStdoutBytes += rest.length;
			this.changes++;
		}

		this.decodePending();
		const before = this.stdoutTail.version + this.stderrTail.version;
		this.stdoutTail.end();
		this.stderrTail.end();
		// The unterminated last lines became complete ones.
		if (this.stdoutTail.version + this.stderrTail.version !== before) {
			this.changes++;
		}
	}

	/** Changes whenever anything visible changed; the store polls it at a capped rate. */
	get version(): number {
		return this.changes;
	}

	/**
	 * Drops the waiting stdout older than its newest `maxLines` line breaks, as decodePending
	 * would, keeping the rest waiting: stderr before the cut is decoded now to keep the order.
	 */
	private trimPending(): void {
		const cut = stdoutCut(this.pending, this.maxLines);
		if (cut === undefined) {
			return;
		}

		const pending = this.pending;
		for (const {stderr, chunk} of pending.slice(0, cut.index)) {
			if (stderr) {
				this.stderrTail.push(chunk);
			}
		}

		this.stdoutTail.skipLines(cut.lines);
		this.merged.skip(cut.lines);
		const rest = pending[cut.index]!.chunk.subarray(cut.offset);
		this.pending = rest.length > 0 ? [{stderr: false, chunk: rest}, ...pending.slice(cut.index + 1)] : pending.slice(cut.index + 1);
		this.pendingStartsFresh = true;
		this.pendingStdoutBytes = this.pending.reduce((sum, item) => sum + (item.stderr ? 0 : item.chunk.length), 0);
	}

	/**
	 * Decodes what is waiting, in arrival order. stdout older than its newest `maxLines` line
	 * breaks is skipped (counted only, by trimPending); stderr is always decoded: it is little,
	 * and its last line is the task's error line.
	 */
	private decodePending(): void {
		if (this.pending.length === 0) {
			return;
		}

		if (this.pendingStdoutBytes > skipAbove) {
			this.trimPending();
		}

		const pending = this.pending;
		// After a cut the stream starts afresh at a line break: from there all but the newest lines
		// may stay raw until read (a pane reads its last few dozen; the zoom, rarely, all).
		const rawCut = this.pendingStartsFresh ? stdoutCut(pending, this.eagerLines) : undefined;
		const raw = rawCut !== undefined && rawRegionFits(pending, rawCut, this.maxLines * (defaultMaxLineLength + 2)) ? rawCut : undefined;
		const rawLines = raw === undefined ? undefined : this.stdoutTail.rawLines();
		let run: Buffer[] = [];
		const endRun = () => {
			const bytes = Buffer.concat(run);
			const complete = bytes.lastIndexOf(0x0A) + 1;
			run = complete < bytes.length ? [bytes.subarray(complete)] : [];
			const lines = countLineBreaks(bytes, complete);
			if (lines > 0) {
				this.stdoutTail.pushRawLines(rawLines!, bytes.subarray(0, complete), lines);
			}
		};

		this.pending = [];
		this.pendingStdoutBytes = 0;
		this.pendingStartsFresh = false;
		for (const [index, {stderr, chunk}] of pending.entries()) {
			if (stderr) {
				if (run.length > 0) {
					endRun();
				}

				this.stderrTail.push(chunk);
				continue;
			}

			let from = 0;
			if (raw !== undefined && index <= raw.index) {
				run.push(index === raw.index ? chunk.subarray(0, raw.offset) : chunk);
				if (index < raw.index) {
					continue;
				}

				endRun();
				from = raw.offset;
			}

			if (from < chunk.length) {
				this.stdoutTail.push(chunk.subarray(from));
			}
		}
	}

	/** The task's stdout, trailing newline removed: what `result` holds. */
	result(): {text: string; truncated: boolean} {
		const {text, truncated} = this.resultBytes.text();
		return {text: text.replace(/\r?\n$/, ''), truncated};
	}

	/** The stderr tail, as plain text (no escapes), for `error` in results. */
	errorText(): string {
		return stripSgr(sanitizeLine(this.errorBytes.text().text)).replace(/\r/g, '').trim();
	}

	/** The stderr line that matters: the last one that says something. */
	errorLine(): string | undefined {
		return this.keepDisplay ? this.stderr.lastLine() : this.errorText().split('\n').findLast(line => line.trim() !== '');
	}
}

/**
 * Whether the waiting stdout up to `to` may stay raw until read: it has no
 * escape sequence (an SGR or an unterminated string there changes how the lines after it are
 * decoded, and raw lines are decoded apart from them) and is no larger than the tail may hold
 * decoded (lines kept raw are not yet cut to maxLineLength).
 */
function rawRegionFits(pending: readonly Pending[], to: {index: number; offset: number}, maxBytes: number): boolean {
	let bytes = 0;
	for (let index = 0; index <= to.index; index++) {
		const {stderr, chunk} = pending[index]!;
		if (stderr) {
			continue;
		}

		const part = index === to.index ? chunk.subarray(0, to.offset) : chunk;
		bytes += part.length;
		if (bytes > maxBytes || hasEscapes(part)) {
			return false;
		}
	}

	return true;
}

/** ESC, or a C1 control (U+0080–U+009F, which starts 8-bit sequences) in UTF-8. */
function hasEscapes(bytes: Buffer): boolean {
	if (bytes.includes(0x1B)) {
		return true;
	}

	for (let at = bytes.indexOf(0xC2); at !== -1; at = bytes.indexOf(0xC2, at + 1)) {
		const next = bytes[at + 1];
		if (next !== undefined && next >= 0x80 && next <= 0x9F) {
			return true;
		}
	}

	return false;
}

/**
 * Where the stdout waiting in `pending` may be cut: just after the line break that has
 * `keep` more after it, so that the newest `keep` lines and the partial line after them are
 * still decoded. `lines`: line breaks before the cut (each completes a line that is skipped).
 * Undefined when the waiting stdout has no more than `keep` line breaks.
 */
export function stdoutCut(pending: readonly Pending[], keep: number): {index: number; offset: number; lines: number} | undefined {
	let seen = 0;
	for (let index = pending.length - 1; index >= 0; index--) {
		const {stderr, chunk} = pending[index]!;
		if (stderr) {
			continue;
		}

		for (let at = chunk.lastIndexOf(0x0A); at !== -1; at = at === 0 ? -1 : chunk.lastIndexOf(0x0A, at - 1)) {
			if (++seen > keep) {
				return {index, offset: at + 1, lines: countLineBreaks(chunk, at + 1) + pending.slice(0, index).reduce((sum, item) => sum + (item.stderr ? 0 : countLineBreaks(item.chunk, item.chunk.length)), 0)};
			}
		}
	}

	return undefined;
}

function countLineBreaks(chunk: Buffer, end: number): number {
	let count = 0;
	for (let at = chunk.indexOf(0x0A); at !== -1 && at < end; at = chunk.indexOf(0x0A, at + 1)) {
		count++;
	}

	return count;
}

/** A copy of `line` that shares no memory with the (possibly huge) string it was cut from. */
export function detached(line: string): string {
	// Concatenation flattens into a new string of the line's own size; the slice then points into it.
	return (` ${line}`).slice(1);
}
