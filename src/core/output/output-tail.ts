// The last lines of one task's output, safe and bounded, for the dashboard. The complete
// output lives in the task's log file; this keeps only what a pane can show, so memory stays
// bounded whatever a subagent prints (endless lines, a 10 MB line without a newline, ...).
// Longer than ~300 lines because it is one state machine: the block path and the per-line path
// (carriage returns, cut lines, styles closed at a line's end) share the partial line and its
// flags, and split apart each would have to reach into the other's.
//
// A flood must cost per chunk, not per line: the plain complete lines of a chunk are kept as
// one block of text (see line-blocks.ts) and only counted and measured here, with native
// indexOf. Lines that need work (longer than maxLineLength, or with a carriage return) take
// the per-line path and are kept as one-line blocks.
//
// Memory: every kept line is at most maxLineLength characters, so the text held stays under
// (maxLines + lines of one chunk) × (maxLineLength + 2). A block's text is usually a slice of
// the chunk it came from, which V8 keeps alive whole; a slice is copied instead when the rest
// of its chunk is longer than one line, so a block never holds much more than its own text.
import {StringDecoder} from 'node:string_decoder';
import {LineBlocks} from './line-blocks.js';
import type {LineBlock} from './line-blocks.js';
import {RawLines} from './raw-lines.js';
import {TerminalSanitizer, stripSgr} from './sanitize.js';

export type OutputTailOptions = {
	/** Complete lines kept; older ones are forgotten. Default 2000. */
	maxLines?: number | undefined;
	/** Characters kept per line (SGR included); longer lines end in '…'. Default 2000. */
	maxLineLength?: number | undefined;
	/** Receives each block of complete lines as it is committed (for a merged view of several streams). */
	sink?: ((block: LineBlock) => void) | undefined;
};

const completeSgrAtStart = /^\x1b\[[0-9;:]*m/;
const closeAll = '\x1b[0m';

/** Characters a tail keeps of one line when not told otherwise. */
export const defaultMaxLineLength = 2000;

/**
 * Carriage returns: text after a bare `\r` replaces the line, so a progress bar shows its
 * last state. The replacement happens when the next text arrives, not at the `\r` itself:
 * `"50%\r"` keeps showing `50%` until the following write instead of flashing an empty line.
 */
export class OutputTail {
	private versionValue = 0;
	private readonly maxLineLength: number;
	private readonly complete: LineBlocks;
	private partial = '';
	/** The partial line had more text than maxLineLength; the rest was not kept. */
	private partialCut = false;
	private carriageReturn = false;
	private ended = false;
	private decoder = new StringDecoder('utf8');
	private sanitizer = new TerminalSanitizer();
	private readonly sink: ((block: LineBlock) => void) | undefined;

	constructor(options: OutputTailOptions = {}) {
		this.sink = options.sink;
		this.complete = new LineBlocks(positiveInteger(options.maxLines ?? 2000, 'maxLines'));
		this.maxLineLength = positiveInteger(options.maxLineLength ?? defaultMaxLineLength, 'maxLineLength');
	}

	/** Increments on every change, so a renderer can skip work when nothing moved. */
	get version(): number {
		return this.versionValue;
	}

	/** Every complete line ever seen, including those no longer kept. */
	get totalLines(): number {
		return this.complete.totalLines;
	}

	/** Characters held for complete lines: what the memory bound is about. */
	get keptChars(): number {
		return this.complete.keptChars;
	}

	/** Strings are taken as already decoded; Buffers may split a UTF-8 character anywhere. */
	push(chunk: Buffer | string): void {
		if (this.ended) {
			return;
		}
		const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
		const clean = this.sanitizer.push(text);
		if (clean !== '') {
			this.consume(clean);
			this.versionValue++;
		}
	}

	/**
	 * `count` complete lines went by that nobody will see (newer lines push them out of the tail):
	 * they are counted, not decoded. The caller cut the stream just after a line break, so the
	 * next push starts a fresh line with a fresh decoder and sanitiser. (Attributes an SGR opened
	 * before the cut are not carried over it.)
	 */
	skipLines(count: number): void {
		if (this.ended || count <= 0) {
			return;
		}
		this.complete.skip(count);
		this.decoder = new StringDecoder('utf8');
		this.sanitizer = new TerminalSanitizer();
		this.partial = '';
		this.partialCut = false;
		this.carriageReturn = false;
		this.versionValue++;
	}

	/**
	 * `count` complete lines as raw bytes (a run of `lines`, which starts at a line break of the
	 * stream), kept as they are and decoded the first time somebody reads them: under a flood the
	 * zoom's scrollback is read rarely, a pane's last lines a few times a second. The stretch is
	 * decoded as a fresh stream, as after skipLines, which the caller calls before it.
	 */
	pushRawLines(lines: RawLines, raw: Buffer, count: number): void {
		if (this.ended || count <= 0) {
			return;
		}
		this.add(lines.block(raw, count));
		this.versionValue++;
	}

	/** A stretch of raw lines to hand to pushRawLines, decoded as this tail decodes. */
	rawLines(): RawLines {
		const {maxLineLength} = this;
		return new RawLines((raws, total) => {
			const tail = new OutputTail({maxLines: total, maxLineLength});
			for (const raw of raws) {
				tail.push(raw);
			}

			return tail.lines();
		});
	}

	/** The stream closed: the unterminated last line becomes a complete one. Later pushes are ignored. */
	end(): void {
		if (this.ended) {
			return;
		}
		this.ended = true;
		// A multibyte character cut off by the end of the stream becomes U+FFFD.
		const clean = this.sanitizer.push(this.decoder.end());
		this.sanitizer.flush();
		let changed = false;
		if (clean !== '') {
			this.consume(clean);
			changed = true;
		}
		if (this.partial !== '') {
			this.commit();
			changed = true;
		}
		if (changed) {
			this.versionValue++;
		}
	}

	/** The last `count` lines (all kept when omitted); a non-empty partial line comes last. */
	lines(count?: number): string[] {
		const partial = this.partialDisplay();
		const available = this.complete.length + (partial === '' ? 0 : 1);
		const wanted = count === undefined ? available : Math.max(0, Math.min(Math.floor(count), available));
		const result = this.complete.last(partial === '' ? wanted : wanted - 1);
		if (partial !== '' && wanted > 0) {
			result.push(partial);
		}
		return result;
	}

	/** The line still being written (no newline yet), as it would be displayed; '' when none. */
	partialLine(): string {
		return this.partialDisplay();
	}

	/** The last line with visible text (whitespace and SGR alone do not count) that matches. */
	lastLine(predicate?: (line: string) => boolean): string | undefined {
		const matches = (line: string): boolean =>
			stripSgr(line).trim() !== '' && (predicate === undefined || predicate(line));
		const partial = this.partialDisplay();
		if (partial !== '' && matches(partial)) {
			return partial;
		}
		for (const line of this.complete.newestFirst()) {
			if (matches(line)) {
				return line;
			}
		}
		return undefined;
	}

	/**
	 * Splits `clean` into runs of plain complete lines, committed as blocks, and the lines
	 * between them that need the per-line path. A line is plain when it fits maxLineLength and
	 * has no '\r' other than that of a '\r\n' ending; the first line also takes in the
	 * pending partial line, so it is plain only when that one has no pending '\r' or cut.
	 */
	private consume(clean: string): void {
		const max = this.maxLineLength;
		let runStart = 0;
		let runLines = 0;
		let runCrlf = false;
		let lineStart = 0;
		let cr = clean.indexOf('\r');
		let lf = clean.indexOf('\n');
		while (lf !== -1) {
			if (cr !== -1 && cr < lineStart) {
				cr = clean.indexOf('\r', lineStart);
			}
			const crlf = cr !== -1 && cr === lf - 1;
			let length = lf - lineStart - (crlf ? 1 : 0);
			let plain = cr === -1 || cr >= lf - 1;
			if (lineStart === 0) {
				length += this.partial.length;
				plain &&= !this.partialCut && !this.carriageReturn;
			}
			if (plain && length <= max) {
				runLines++;
				runCrlf ||= crlf;
			} else {
				this.commitRun(clean, runStart, lineStart, runLines, runCrlf);
				this.consumeLines(clean.slice(lineStart, lf + 1));
				runStart = lf + 1;
				runLines = 0;
				runCrlf = false;
			}
			lineStart = lf + 1;
			lf = clean.indexOf('\n', lineStart);
		}
		this.commitRun(clean, runStart, lineStart, runLines, runCrlf);
		if (lineStart < clean.length) {
			this.consumeLines(lineStart === 0 ? clean : clean.slice(lineStart));
		}
	}

	/** Commits the `count` plain lines of clean[start, end), which ends in '\n'. */
	private commitRun(clean: string, start: number, end: number, count: number, crlf: boolean): void {
		if (count === 0) {
			return;
		}
		let text = clean.slice(start, end - 1);
		if (clean.length - text.length > this.maxLineLength) {
			text = copy(text);
		}
		if (this.partial !== '') {
			// Copied: the partial line may be a slice of an earlier chunk, kept alive by the block.
			text = copy(this.partial) + text;
			this.partial = '';
		}
		this.add({text, count, crlf});
	}

	private add(block: LineBlock): void {
		this.complete.add(block);
		this.sink?.(block);
	}

	/** The per-line path: each line break commits the partial line, each '\r' resets it. */
	private consumeLines(clean: string): void {
		let i = 0;
		// Each search result is reused until passed, so a chunk is scanned once per character kind.
		let lf = clean.indexOf('\n');
		let cr = clean.indexOf('\r');
		while (i < clean.length) {
			if (lf !== -1 && lf < i) {
				lf = clean.indexOf('\n', i);
			}
			if (cr !== -1 && cr < i) {
				cr = clean.indexOf('\r', i);
			}
			const stop = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
			if (stop === -1) {
				this.append(clean.slice(i));
				return;
			}
			if (stop > i) {
				this.append(clean.slice(i, stop));
			}
			if (stop === lf) {
				// Also the end of `\r\n`: the pending `\r` has not cleared the line yet.
				this.commit();
			} else {
				this.carriageReturn = true;
			}
			i = stop + 1;
		}
	}

	private append(text: string): void {
		if (this.carriageReturn) {
			this.carriageReturn = false;
			this.partial = '';
			this.partialCut = false;
		}
		if (this.partialCut) {
			return;
		}
		const room = this.maxLineLength - this.partial.length;
		if (text.length <= room) {
			this.partial += text;
		} else {
			this.partial += text.slice(0, room);
			this.partialCut = true;
		}
	}

	private commit(): void {
		this.add({text: copy(this.partialDisplay()), count: 1, crlf: false});
		this.partial = '';
		this.partialCut = false;
		this.carriageReturn = false;
	}

	/** A line break closes every attribute (see sanitize.ts); the line still being written is closed here. */
	private partialDisplay(): string {
		if (this.partialCut) {
			return cutLine(this.partial, this.maxLineLength);
		}

		return this.sanitizer.styled && this.partial !== '' ? `${this.partial}${closeAll}` : this.partial;
	}
}

/**
 * Shortens `text` to `max` characters ending in '…', never ending inside an SGR sequence
 * (the terminal would swallow what follows it) or between the halves of a surrogate pair.
 */
function cutLine(text: string, max: number): string {
	let cut = text.slice(0, max - 1);
	const last = cut.charCodeAt(cut.length - 1);
	if (last >= 0xd800 && last <= 0xdbff) {
		cut = cut.slice(0, -1);
	}
	const esc = cut.lastIndexOf('\x1b');
	if (esc !== -1 && !completeSgrAtStart.test(cut.slice(esc))) {
		cut = cut.slice(0, esc);
	}
	// The rest of the line, with whatever reset it held, is gone: the cut line closes its styles.
	return cut.includes('\x1b') ? `${cut}…${closeAll}` : `${cut}…`;
}

/** A copy that does not keep alive the (possibly huge) string `text` was sliced from. */
function copy(text: string): string {
	// biome-ignore lint/style/useTemplate: a concatenation then a slice is the copying idiom V8 keeps flat; say it as the idiom.
	return (' ' + text).slice(1);
}

function positiveInteger(value: number, name: string): number {
	if (!Number.isInteger(value) || value < 1) {
		throw new RangeError(`OutputTail: ${name} must be a positive integer, got ${value}`);
	}
	return value;
}
