// One line of an Ink frame as terminal cells: the character and the style of each column, so
// that a frame can be compared with the last one cell by cell (frame-paint.ts). Only lines whose
// every character takes exactly one column (as string-width, which Ink lays out with, measures it)
// and whose only escape sequences are SGR are taken apart; anything else (wide or combining
// characters, emoji, hyperlinks) is `undefined`, and such a row is rewritten whole.
import stringWidth from 'string-width';

export type Cells = {
	/** One UTF-16 unit per column. */
	readonly text: string;
	/** Each column's style, as a number for styleSequence() (0: the default style). */
	readonly styles: Uint16Array;
};

/** Styles met so far, numbered in the order met: a screen uses a few dozen. */
const styleIds = new Map<string, number>([['', 0]]);
const sequences = [''];
const maxStyles = 4096;

/** The SGR sequence that sets the style numbered `id` from nothing ('' for the default style). */
export function styleSequence(id: number): string {
	return sequences[id] ?? '';
}

/** The style's number, or undefined once the table is full (the row is then not simple). */
function styleId(sequence: string): number | undefined {
	let id = styleIds.get(sequence);
	if (id === undefined && sequences.length < maxStyles) {
		id = sequences.length;
		styleIds.set(sequence, id);
		sequences.push(sequence);
	}

	return id;
}

/** Widths of the non-ASCII characters met, each measured once. */
const narrow = new Map<number, boolean>();

function isNarrow(code: number): boolean {
	if (code >= 0x20 && code < 0x7F) return true;
	// Controls, and surrogates (astral characters: emoji, flags): never simple.
	if (code < 0xA0 || (code >= 0xD800 && code <= 0xDFFF)) return false;
	let known = narrow.get(code);
	if (known === undefined) {
		known = stringWidth(String.fromCharCode(code)) === 1;
		if (narrow.size < 4096) narrow.set(code, known);
	}

	return known;
}

/** The line's cells, or undefined when it holds anything but one-column characters and SGR. */
export function cellsOf(line: string): Cells | undefined {
	let text = '';
	const styles = new Uint16Array(line.length);
	let columns = 0;
	let current: number | undefined = 0;
	let runStart = 0;
	for (let at = 0; at < line.length;) {
		const code = line.charCodeAt(at);
		if (code === 0x1B) {
			if (line.charCodeAt(at + 1) !== 0x5B) return undefined;
			let end = at + 2;
			while (end < line.length && !isFinalByte(line.charCodeAt(end))) end++;
			if (line[end] !== 'm') return undefined;
			text += line.slice(runStart, at);
			current = afterSgr(current, line.slice(at + 2, end));
			if (current === undefined) return undefined;
			at = end + 1;
			runStart = at;
			continue;
		}

		if (!isNarrow(code)) return undefined;
		styles[columns++] = current;
		at++;
	}

	text += line.slice(runStart);
	return {text, styles: styles.subarray(0, columns)};
}

const isFinalByte = (code: number) => code >= 0x40 && code <= 0x7E;

/** Style and SGR parameters → the style they make: a line repeats the same few, frame after frame. */
const transitions = new Map<string, number | undefined>();

function afterSgr(style: number, parameters: string): number | undefined {
	const key = `${style};${parameters}`;
	if (transitions.has(key)) return transitions.get(key);
	const state = new Style();
	const from = styleSequence(style);
	// A style's sequence is ESC [ 0 ; … m: its parameters set it again from nothing.
	const next = (from === '' || state.apply(from.slice(2, -1))) && state.apply(parameters) ? styleId(state.sequence()) : undefined;
	if (transitions.size >= maxStyles) transitions.clear();
	transitions.set(key, next);
	return next;
}

/** The SGR attributes in effect, by slot (a colour, bold, …), each the parameter text that set it. */
class Style {
	private readonly slots = new Map<string, string>();

	/** Applies one SGR sequence's parameters; false for any parameter it does not know. */
	apply(parameters: string): boolean {
		const parts = parameters === '' ? ['0'] : parameters.split(';');
		for (let index = 0; index < parts.length; index++) {
			const part = parts[index]!;
			if (part.includes(':')) return false;
			const code = part === '' ? 0 : Number(part);
			if (code === 0) this.slots.clear();
			else if (code === 22) {
				this.slots.delete('1');
				this.slots.delete('2');
			} else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.slots.set('fg', part);
			else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.slots.set('bg', part);
			else if (code === 39) this.slots.delete('fg');
			else if (code === 49) this.slots.delete('bg');
			else if (code === 59) this.slots.delete('ul');
			else if (code === 38 || code === 48 || code === 58) {
				const mode = parts[index + 1];
				const length = mode === '5' ? 2 : mode === '2' ? 4 : 0;
				if (length === 0 || index + length >= parts.length) return false;
				this.slots.set(code === 38 ? 'fg' : code === 48 ? 'bg' : 'ul', parts.slice(index, index + length + 1).join(';'));
				index += length;
			} else if (!this.toggle(code)) return false;
		}

		return true;
	}

	/** The sequence that sets this style from the default one ('' for the default). */
	sequence(): string {
		if (this.slots.size === 0) return '';
		const codes = [...this.slots.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
		return `\u001B[0;${codes.join(';')}m`;
	}

	// On/off attributes: bold 1 and dim 2 (both off with 22), italic 3/23, underline 4 or 21/24,
	// blink 5 or 6/25, inverse 7/27, hidden 8/28, strikethrough 9/29, overline 53/55.
	private toggle(code: number): boolean {
		const offs: Record<number, string> = {23: '3', 24: '4', 25: '5', 27: '7', 28: '8', 29: '9', 55: '53'};
		const off = offs[code];
		if (off !== undefined) {
			this.slots.delete(off);
			return true;
		}

		if ([1, 2, 3, 7, 8, 9, 53].includes(code)) this.slots.set(String(code), String(code));
		else if (code === 4 || code === 21) this.slots.set('4', String(code));
		else if (code === 5 || code === 6) this.slots.set('5', String(code));
		else return false;
		return true;
	}
}
