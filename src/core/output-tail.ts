// The last lines of one task's output, safe and bounded, for the dashboard. The complete
// output lives in the task's log file; this keeps only what a pane can show, so memory stays
// bounded whatever a subagent prints (endless lines, a 10 MB line without a newline, ...).
import {StringDecoder} from 'node:string_decoder';
import {TerminalSanitizer, stripSgr} from './sanitize.js';

export type OutputTailOptions = {
	/** Complete lines kept; older ones are forgotten. Default 2000. */
	maxLines?: number | undefined;
	/** Characters kept per line (SGR included); longer lines end in '…'. Default 2000. */
	maxLineLength?: number | undefined;
	/** Called with each complete line as it is committed (for a merged view of several streams). */
	onLine?: ((line: string) => void) | undefined;
};

const completeSgrAtStart = /^\x1b\[[0-9;:]*m/;

/**
 * Carriage returns: text after a bare `\r` replaces the line, so a progress bar shows its
 * last state. The replacement happens when the next text arrives, not at the `\r` itself:
 * `"50%\r"` keeps showing `50%` until the following write instead of flashing an empty line.
 */
export class OutputTail {
	private versionValue = 0;
	private total = 0;
	private readonly maxLines: number;
	private readonly maxLineLength: number;
	/** Ring of complete lines: grows to maxLines, then overwrites the oldest at `start`. */
	private readonly ring: string[] = [];
	private start = 0;
	private partial = '';
	/** The partial line had more text than maxLineLength; the rest was not kept. */
	private partialCut = false;
	private carriageReturn = false;
	private ended = false;
	private readonly decoder = new StringDecoder('utf8');
	private readonly sanitizer = new TerminalSanitizer();
	private readonly onLine: ((line: string) => void) | undefined;

	constructor(options: OutputTailOptions = {}) {
		this.onLine = options.onLine;
		this.maxLines = positiveInteger(options.maxLines ?? 2000, 'maxLines');
		this.maxLineLength = positiveInteger(options.maxLineLength ?? 2000, 'maxLineLength');
	}

	/** Increments on every change, so a renderer can skip work when nothing moved. */
	get version(): number {
		return this.versionValue;
	}

	/** Every complete line ever seen, including those no longer kept. */
	get totalLines(): number {
		return this.total;
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
		const available = this.ring.length + (partial === '' ? 0 : 1);
		const wanted = count === undefined ? available : Math.max(0, Math.min(Math.floor(count), available));
		const fromRing = Math.min(this.ring.length, partial === '' ? wanted : wanted - 1);
		const result: string[] = [];
		for (let k = this.ring.length - fromRing; k < this.ring.length; k++) {
			result.push(this.at(k));
		}
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
		for (let k = this.ring.length - 1; k >= 0; k--) {
			const line = this.at(k);
			if (matches(line)) {
				return line;
			}
		}
		return undefined;
	}

	/**
	 * Index into `lines()` of the first line at or after `fromIndex` (before it, for direction
	 * -1) whose text without SGR contains `query`, ignoring case; -1 when none. No wrap-around.
	 */
	search(query: string, fromIndex?: number, direction: 1 | -1 = 1): number {
		const needle = query.toLowerCase();
		const all = this.lines();
		if (needle === '' || all.length === 0) {
			return -1;
		}
		let i = fromIndex ?? (direction === 1 ? 0 : all.length - 1);
		i = direction === 1 ? Math.max(0, i) : Math.min(all.length - 1, i);
		for (; i >= 0 && i < all.length; i += direction) {
			if (stripSgr(all[i] ?? '').toLowerCase().includes(needle)) {
				return i;
			}
		}
		return -1;
	}

	private consume(clean: string): void {
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
		// Copy the line: a slice would keep the whole chunk it came from alive in V8.
		const line = (' ' + this.partialDisplay()).slice(1);
		if (this.ring.length < this.maxLines) {
			this.ring.push(line);
		} else {
			this.ring[this.start] = line;
			this.start = (this.start + 1) % this.maxLines;
		}
		this.total++;
		this.onLine?.(line);
		this.partial = '';
		this.partialCut = false;
		this.carriageReturn = false;
	}

	private partialDisplay(): string {
		return this.partialCut ? cutLine(this.partial, this.maxLineLength) : this.partial;
	}

	/** k-th kept line, oldest first. */
	private at(k: number): string {
		return this.ring[(this.start + k) % this.ring.length] ?? '';
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
	return `${cut}…`;
}

function positiveInteger(value: number, name: string): number {
	if (!Number.isInteger(value) || value < 1) {
		throw new RangeError(`OutputTail: ${name} must be a positive integer, got ${value}`);
	}
	return value;
}
