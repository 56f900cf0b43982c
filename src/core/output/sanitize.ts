// Subagent output is untrusted: an escape sequence in it could move the cursor over the
// dashboard, retitle the window, write the clipboard (OSC 52) or make the terminal answer
// into stdin (DA, DSR, DECRQSS). Only SGR colour/style survives, rewritten into the forms the
// dashboard understands (sgr.ts); everything else is removed. Styling never crosses a line
// break: attributes still open are closed before it and opened again after it, so a line cut or
// drawn alone (a pane's last rows) cannot colour what is drawn after it.
//
// The sanitizer is a small state machine rather than a regex over each chunk because a
// sequence can be split across reads. Plain text is copied in slices between the characters
// that need attention, so the common case stays a single regex scan per chunk.

import {normaliseSgr, openAfter} from './sgr.js';

/**
 * String sequences (OSC, DCS, APC, PM, SOS) are discarded as they stream, never buffered.
 * Inside this many characters only the proper terminators end one; past it, a line break
 * also ends it, so a stray `ESC ]` can hide at most this much plus one line of output.
 */
export const maxEscapeStringLength = 4096;

/** Longer SGR parameter lists are not real styling; dropping them bounds the only buffer. */
const maxSgrParams = 128;

const textState = 0;
const escState = 1;
/** ESC followed by intermediates (0x20–0x2F), e.g. the charset designation `ESC ( B`. */
const escInterState = 2;
const csiState = 3;
const stringState = 4;
/** ESC seen inside a string: `\` makes it ST, anything else aborts the string. */
const stringEscState = 5;

// Everything outside printable text except \t, \n, \r: C0, ESC, DEL and the C1 range.
const special = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
const completeSgr = new RegExp(`\\x1b\\[[0-9;:]{0,${maxSgrParams}}m`, 'y');
const csiParams = /[\x30-\x3f]*/y;
const privateParam = /[<=>?]/;
// BEL, CAN, SUB, ESC, 8-bit ST. BEL ends every string kind: being generous only ever
// ends a string early, showing harmless text.
const stringEnd = /[\x07\x18\x1a\x1b\x9c]/g;
const overlongStringEnd = /[\x07\x18\x1a\x1b\x9c\n]/g;
const sgr = /\x1b\[[0-9;:]*m/g;
const specialOrNewline = /[\x00-\x08\x0a-\x0c\x0e-\x1f\x7f-\x9f]/g;
const closeAll = '\x1b[0m';

export class TerminalSanitizer {
	private state = textState;
	/** Parameters of a CSI that may still turn out to be SGR (7-bit, no private prefix). */
	private params = '';
	private maybeSgr = false;
	private stringLength = 0;
	/** The SGR sequences in force since the last reset, to close at a line break and reopen after it. */
	private open = '';

	/** Attributes are still open: a line shown now should be closed with a reset. */
	get styled(): boolean {
		return this.open !== '';
	}

	/** Returns the safe part of `chunk`; an incomplete sequence at its end is held back. */
	push(chunk: string): string {
		let out = '';
		let i = 0;
		const n = chunk.length;
		while (i < n) {
			switch (this.state) {
				case textState: {
					const attention = this.open === '' ? special : specialOrNewline;
					attention.lastIndex = i;
					const found = attention.exec(chunk);
					if (!found) {
						return i === 0 ? chunk : out + chunk.slice(i);
					}
					const at = found.index;
					const code = chunk.charCodeAt(at);
					if (code === 0x0a) {
						// Closed before the line's end (before the \r of a \r\n), reopened after it.
						const end = at > i && chunk.charCodeAt(at - 1) === 0x0d ? at - 1 : at;
						out += chunk.slice(i, end) + closeAll + chunk.slice(end, at + 1) + this.open;
						i = at + 1;
						break;
					}
					if (at > i) {
						out += chunk.slice(i, at);
					}
					if (code === 0x1b) {
						completeSgr.lastIndex = at;
						if (completeSgr.test(chunk)) {
							out += this.style(chunk.slice(at + 2, completeSgr.lastIndex - 1));
							i = completeSgr.lastIndex;
						} else {
							this.state = escState;
							i = at + 1;
						}
					} else {
						this.enterC1(code);
						i = at + 1;
					}
					break;
				}
				case escState:
					i = this.afterEsc(chunk, i);
					break;
				case escInterState: {
					const code = chunk.charCodeAt(i);
					if (code >= 0x20 && code <= 0x2f) {
						i++;
					} else {
						this.state = textState;
						// A final byte completes (and drops) the sequence; anything else aborts it
						// and is judged again as text.
						if (code >= 0x30 && code <= 0x7e) {
							i++;
						}
					}
					break;
				}
				case csiState: {
					csiParams.lastIndex = i;
					csiParams.test(chunk);
					const end = csiParams.lastIndex;
					if (end > i) {
						if (this.maybeSgr) {
							const run = chunk.slice(i, end);
							if (this.params.length + run.length > maxSgrParams || privateParam.test(run)) {
								this.notSgr();
							} else {
								this.params += run;
							}
						}
						i = end;
						break;
					}
					const code = chunk.charCodeAt(i);
					if (code >= 0x20 && code <= 0x2f) {
						this.notSgr();
						i++;
					} else if (code >= 0x40 && code <= 0x7e) {
						if (this.maybeSgr && code === 0x6d) {
							out += this.style(this.params);
						}
						this.reset();
						i++;
					} else {
						// Not part of a CSI: the sequence is abandoned, the character judged as text.
						this.reset();
					}
					break;
				}
				case stringState:
					i = this.skipString(chunk, i);
					break;
				case stringEscState:
					if (chunk.charCodeAt(i) === 0x5c) {
						this.reset();
						i++;
					} else {
						// As in xterm: an ESC inside a string aborts it and starts a new sequence.
						this.state = escState;
					}
					break;
			}
		}
		return out;
	}

	/** End of stream: an incomplete sequence is dropped, never emitted. */
	flush(): string {
		this.reset();
		this.open = '';
		return '';
	}

	/** An SGR as kept (normalised, '' when nothing in it is understood), tracking what it leaves open. */
	private style(params: string): string {
		const sequence = normaliseSgr(params);
		if (sequence !== '') {
			this.open = openAfter(this.open, sequence);
		}

		return sequence;
	}

	private reset(): void {
		this.state = textState;
		this.params = '';
		this.maybeSgr = false;
		this.stringLength = 0;
	}

	private notSgr(): void {
		this.maybeSgr = false;
		this.params = '';
	}

	private enterString(): void {
		this.state = stringState;
		this.stringLength = 0;
	}

	/** A C0 or C1 control found in text. Only the C1 introducers have bodies to swallow. */
	private enterC1(code: number): void {
		if (code === 0x9b) {
			// 8-bit CSI is dropped whole, even as SGR: terminals disagree on it.
			this.state = csiState;
			this.maybeSgr = false;
		} else if (code === 0x90 || code === 0x98 || code === 0x9d || code === 0x9e || code === 0x9f) {
			this.enterString();
		}
	}

	private afterEsc(chunk: string, i: number): number {
		const code = chunk.charCodeAt(i);
		switch (code) {
			case 0x5b: // [
				this.state = csiState;
				this.maybeSgr = true;
				this.params = '';
				return i + 1;
			case 0x5d: // ] OSC
			case 0x50: // P DCS
			case 0x58: // X SOS
			case 0x5e: // ^ PM
			case 0x5f: // _ APC
				this.enterString();
				return i + 1;
			case 0x1b:
				return i + 1;
		}
		if (code >= 0x20 && code <= 0x2f) {
			this.state = escInterState;
			return i + 1;
		}
		this.state = textState;
		// ESC 7, ESC c, ESC = ... are complete; a control or non-ASCII aborts and is re-judged.
		return code >= 0x30 && code <= 0x7e ? i + 1 : i;
	}

	private skipString(chunk: string, i: number): number {
		const overlong = this.stringLength >= maxEscapeStringLength;
		const end = overlong ? overlongStringEnd : stringEnd;
		end.lastIndex = i;
		const found = end.exec(chunk);
		const stop = found ? found.index : chunk.length;
		if (!overlong && this.stringLength + (stop - i) >= maxEscapeStringLength) {
			const room = maxEscapeStringLength - this.stringLength;
			this.stringLength = maxEscapeStringLength;
			return i + room;
		}
		if (!overlong) {
			this.stringLength += stop - i;
		}
		if (!found) {
			return stop;
		}
		const code = chunk.charCodeAt(stop);
		if (code === 0x1b) {
			this.state = stringEscState;
			return stop + 1;
		}
		this.reset();
		// The line break that ends an overlong string is output, not part of the string.
		return code === 0x0a ? stop : stop + 1;
	}
}

/** One-shot sanitizing of a complete text; an unfinished trailing sequence is dropped. */
export function sanitizeLine(text: string): string {
	const sanitizer = new TerminalSanitizer();
	return sanitizer.push(text) + sanitizer.flush();
}

/** Removes SGR from already-sanitized text: for NO_COLOR output and width measurement. */
export function stripSgr(text: string): string {
	return text.includes('\x1b') ? text.replace(sgr, '') : text;
}
