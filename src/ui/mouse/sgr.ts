// Mouse reports in the SGR encoding (xterm's mode 1006, on top of 1000: presses, releases and the
// wheel), as Ink's useInput hands them over: one press per sequence, the ESC dropped, so
// `ESC[<0;12;5M` arrives as `[<0;12;5M`. They are untrusted bytes from the terminal: anything
// that starts like a mouse report and is not a whole, sane one is dropped, never read as keys.

/** Turns mouse reporting on: button presses and the wheel (1000), reported as SGR (1006). */
export const mouseOn = '\u001B[?1000h\u001B[?1006h';
/** Turns it off again; harmless where it was never on. */
export const mouseOff = '\u001B[?1006l\u001B[?1000l';

export type MouseEvent =
	| {kind: 'press'; button: 'left' | 'middle' | 'right'; x: number; y: number}
	| {kind: 'release'; x: number; y: number}
	| {kind: 'wheel'; direction: 'up' | 'down'; x: number; y: number};

// Cells are 1-based; no terminal is a million cells wide, and a longer number is noise.
const sgrReport = /^\[<(\d{1,4});(\d{1,5});(\d{1,5})([Mm])$/;
const buttons = ['left', 'middle', 'right'] as const;

/**
 * What a press from useInput is: a mouse event, `'ignored'` for a mouse report to drop (malformed,
 * a drag, a modifier held, a button we do not use, the legacy X10 encoding's start), or
 * undefined for a key.
 */
export function readMouse(input: string): MouseEvent | 'ignored' | undefined {
	if (!input.startsWith('[<')) {
		// X10's report (ESC [ M and three raw bytes) is what a terminal without SGR sends: its
		// bytes are not keys either (see MouseReader).
		return input === '[M' ? 'ignored' : undefined;
	}

	const match = sgrReport.exec(input);
	if (!match) return 'ignored';
	const code = Number(match[1]);
	const x = Number(match[2]);
	const y = Number(match[3]);
	if (x < 1 || y < 1) return 'ignored';
	// Bits 4, 8 and 16 are Shift, Meta and Ctrl; 32 is motion (a drag); 64 the wheel.
	if ((code & (4 | 8 | 16 | 32)) !== 0) return 'ignored';
	if ((code & 64) !== 0) {
		const wheel = code & 3;
		return wheel === 0 ? {kind: 'wheel', direction: 'up', x, y} : wheel === 1 ? {kind: 'wheel', direction: 'down', x, y} : 'ignored';
	}

	if (match[4] === 'm') return {kind: 'release', x, y};
	const button = buttons[code & 3];
	return button === undefined ? 'ignored' : {kind: 'press', button, x, y};
}

/** Lines one wheel notch scrolls: what most terminals and pagers do. */
export const wheelLines = 3;

/** The scroll a wheel report asks for (negative: up), for views that scroll themselves (help, spend). */
export function wheelDelta(input: string): number | undefined {
	const event = readMouse(input);
	return typeof event === 'object' && event.kind === 'wheel' ? (event.direction === 'up' ? -wheelLines : wheelLines) : undefined;
}

/**
 * Sorts presses into mouse events and keys, and drops the three raw bytes that follow a legacy X10
 * report (`[M` then button, column, row as characters), which would otherwise be typed.
 */
export class MouseReader {
	private skip = 0;

	/** The mouse event, 'ignored', or undefined: a key (with the X10 bytes cut off). */
	take(input: string): MouseEvent | 'ignored' | {key: string} | undefined {
		if (this.skip > 0) {
			const characters = [...input];
			const dropped = Math.min(this.skip, characters.length);
			this.skip -= dropped;
			const rest = characters.slice(dropped).join('');
			return rest === '' ? 'ignored' : {key: rest};
		}

		const event = readMouse(input);
		if (input === '[M') this.skip = 3;
		return event;
	}
}
