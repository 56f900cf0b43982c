// The stream Ink draws the dashboard into, in front of the terminal: each frame Ink writes whole
// (erase the last frame's lines, write every line again: ~10 KB at 200×50, a dozen times a
// second) reaches the terminal as the cells that changed (frame-paint.ts).
//
// What it recognises, and only that: a write inside Ink's synchronized-output bracket
// (ESC[?2026h … ESC[?2026l, which Ink puts around every frame on a terminal, and never on a pipe
// or in CI) that is Ink's erase of the last frame (or its clear of the screen) followed by text
// with colours only: "the screen is now this frame, from the top-left corner". The dashboard's
// frame starts there (it enters the alternate screen at home, and plans one row fewer than the
// terminal has). Everything else is passed on as it is, and the screen is then taken as unknown,
// so the next frame is drawn whole; so is a frame after a resize. Writes that do not go through
// this stream (mouse modes, the clipboard) never move the cursor or touch cells that the
// dashboard wrote. The bracket itself is kept: a frame reaches the terminal as one write, and a
// frame with nothing changed as none. What another program writes to the terminal (a `wall`
// message) is not seen here: redraw() (Ctrl-L) paints the last frame again whole.
import {EventEmitter} from 'node:events';
import {paintFrame, type Screen} from './frame-paint.js';

const beginSync = '\u001B[?2026h';
const endSync = '\u001B[?2026l';
/** Ink's erase of the last frame's lines (ansi-escapes' eraseLines), or its clear of the whole screen (clearTerminal). */
const framePrefix = /^(?:(?:\u001B\[2K\u001B\[1A)*\u001B\[2K\u001B\[G|\u001B\[2J\u001B\[3J\u001B\[H)?/;
/** An escape that is not a colour (SGR). */
const notColour = /\u001B(?!\[[\d;]*m)/;

type Callback = (error?: Error | null) => void;

export class DiffWriter extends EventEmitter {
	private screen: Screen | undefined;
	/** The last frame's lines, kept when the screen is taken as unknown: what redraw() paints. */
	private lastFrame: readonly string[] | undefined;
	private bracket: {parts: string[]; callbacks: Callback[]} | undefined;

	constructor(private readonly terminal: NodeJS.WriteStream) {
		super();
		terminal.on('resize', this.resized);
	}

	get columns(): number {
		return this.terminal.columns;
	}

	get rows(): number {
		return this.terminal.rows;
	}

	get isTTY(): boolean {
		return this.terminal.isTTY;
	}

	get writable(): boolean {
		return this.terminal.writable;
	}

	get destroyed(): boolean {
		return this.terminal.destroyed;
	}

	get writableEnded(): boolean {
		return this.terminal.writableEnded;
	}

	get writableLength(): number {
		return this.terminal.writableLength;
	}

	/** Stops following the terminal's resizes (the stream itself stays usable). */
	dispose(): void {
		this.terminal.off('resize', this.resized);
	}

	/** Paints the last frame again, every row, whatever the terminal shows now. */
	redraw(): void {
		// Inside a frame's bracket: that frame is the next write, and it is drawn whole.
		this.screen = undefined;
		if (this.bracket !== undefined || this.lastFrame === undefined) return;
		const paint = paintFrame(undefined, this.lastFrame, this.rows, this.columns);
		this.screen = paint.screen;
		// The style reset first: what wrote over the screen may have left one in effect.
		this.terminal.write(`${beginSync}\u001B[0m${paint.bytes}${endSync}`);
	}

	write(chunk: string | Uint8Array, encodingOrCallback?: BufferEncoding | Callback, maybeCallback?: Callback): boolean {
		const callback = typeof encodingOrCallback === 'function' ? encodingOrCallback : maybeCallback;
		const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		if (text === beginSync && this.bracket === undefined) {
			this.bracket = {parts: [], callbacks: []};
			if (callback) this.bracket.callbacks.push(callback);
			return true;
		}

		if (this.bracket === undefined) return this.passOn(text, callback);
		if (callback) this.bracket.callbacks.push(callback);
		if (text === endSync) return this.endBracket();
		this.bracket.parts.push(this.frameBytes(text) ?? this.unknown(text));
		return true;
	}

	private readonly resized = () => {
		this.screen = undefined;
		this.emit('resize');
	};

	/** A frame's bytes, or undefined when `text` is not a frame. */
	private frameBytes(text: string): string | undefined {
		const prefix = framePrefix.exec(text)![0];
		const frame = text.slice(prefix.length);
		if (notColour.test(frame)) return undefined;
		const lines = frame.split('\n');
		if (frame.endsWith('\n')) lines.pop();
		const paint = paintFrame(this.screen, lines, this.rows, this.columns);
		this.screen = paint.screen;
		this.lastFrame = paint.screen.lines;
		return paint.bytes;
	}

	private unknown(text: string): string {
		this.screen = undefined;
		return text;
	}

	private passOn(text: string, callback: Callback | undefined): boolean {
		if (text !== '') this.screen = undefined;
		return callback ? this.terminal.write(text, callback) : this.terminal.write(text);
	}

	private endBracket(): boolean {
		const {parts, callbacks} = this.bracket!;
		this.bracket = undefined;
		const body = parts.join('');
		const done: Callback = error => {
			for (const callback of callbacks) callback(error);
		};

		if (body === '') {
			if (callbacks.length > 0) this.terminal.write('', done);
			return true;
		}

		return this.terminal.write(beginSync + body + endSync, done);
	}
}

/** Ctrl-L: the stream Ink draws into paints its last frame again whole (a pipe, or a test's stream: nothing to do). */
export function redrawScreen(stream: NodeJS.WritableStream): void {
	if (stream instanceof DiffWriter) stream.redraw();
}

/** The stream to hand Ink for `stdout`: a DiffWriter on a terminal, the stream itself otherwise (a pipe gets what Ink writes, untouched). */
export function inkStdout(stdout: NodeJS.WriteStream): {stream: NodeJS.WriteStream; dispose(): void} {
	if (!stdout.isTTY) return {stream: stdout, dispose: () => undefined};
	const writer = new DiffWriter(stdout);
	return {stream: writer as unknown as NodeJS.WriteStream, dispose: () => writer.dispose()};
}
