// The writer between Ink and the terminal: Ink's frames (its erase of the last frame, then the
// frame, inside a synchronized-output bracket) reach the terminal as changed cells; anything
// else passes untouched and makes the next frame whole; a resize does too. The writes below have
// the shapes Ink 6 gives them (ink.js's throttled log, log-update.js, ansi-escapes' eraseLines
// and clearTerminal); the tmux test (test/e2e/changed-cells-pty.test.ts) drives Ink itself.
import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {DiffWriter, inkStdout, redrawScreen} from '../../../src/ui/terminal/diff-writer.js';
import {expectedCells, VirtualTerminal} from '../../helpers/virtual-terminal.js';

const begin = '\u001B[?2026h';
const end = '\u001B[?2026l';
const eraseLines = (count: number) => (count === 0 ? '' : `${'\u001B[2K\u001B[1A'.repeat(count - 1)}\u001B[2K\u001B[G`);

class FakeTerminal extends EventEmitter {
	isTTY = true;
	writable = true;
	destroyed = false;
	writableEnded = false;
	writableLength = 0;
	readonly writes: string[] = [];
	constructor(public columns: number, public rows: number) {
		super();
	}

	write(text: string, callback?: () => void): boolean {
		this.writes.push(text);
		callback?.();
		return true;
	}
}

function setUp(columns = 30, rows = 8) {
	const terminal = new FakeTerminal(columns, rows);
	const writer = new DiffWriter(terminal as unknown as NodeJS.WriteStream);
	let previousLines = 0;
	/** One frame as Ink writes it: the bracket, the erase of the last frame's lines, the frame and its newline. */
	const frame = (lines: string[]) => {
		writer.write(begin);
		writer.write(eraseLines(previousLines) + lines.join('\n') + '\n');
		writer.write(end);
		previousLines = lines.length + 1;
	};

	return {terminal, writer, frame};
}

describe('DiffWriter', () => {
	it('sends a frame like the last one as its changed cells, in one bracketed write, and an unchanged one as nothing', () => {
		const {terminal, frame} = setUp();
		frame(['hermes · 1s', '│ t01 running 1s │']);
		frame(['hermes · 2s', '│ t01 running 2s │']);
		expect(terminal.writes.at(-1)).toBe(`${begin}\u001B[?7l\u001B[1;10H2\u001B[2;15H2\u001B[3;1H\u001B[?7h${end}`);
		const count = terminal.writes.length;
		frame(['hermes · 2s', '│ t01 running 2s │']);
		expect(terminal.writes.length).toBe(count);
	});

	it('leaves each frame exactly on the screen through shorter and longer frames', () => {
		const {terminal, frame} = setUp();
		const screen = new VirtualTerminal(8, 30);
		const frames = [['a', 'bbbb', '\u001B[31mcc\u001B[39m'], ['a'], ['xyz', '', 'q', 'r', 's'], ['\u001B[7mzz\u001B[27m', 'b']];
		for (const lines of frames) {
			frame(lines);
			screen.write(terminal.writes.at(-1)!);
			expect(screen.cells).toEqual(expectedCells(lines, 8, 30));
		}
	});

	it('passes writes outside a frame through untouched, and then draws the next frame whole', () => {
		const {terminal, writer, frame} = setUp();
		frame(['one', 'two']);
		writer.write('\u001B[?1000h\u001B[?1006h');
		expect(terminal.writes.at(-1)).toBe('\u001B[?1000h\u001B[?1006h');
		frame(['one', 'two']);
		expect(terminal.writes.at(-1)).toContain('\u001B[1;1H\u001B[2Kone\u001B[2;1H\u001B[2Ktwo\u001B[3;1H\u001B[J');
	});

	it('passes a bracketed write that is not a frame (escapes other than colours) through, and draws the next frame whole', () => {
		const {terminal, writer, frame} = setUp();
		frame(['one']);
		writer.write(begin);
		writer.write('\u001B]52;c;aGk=\u0007');
		writer.write(end);
		expect(terminal.writes.at(-1)).toBe(`${begin}\u001B]52;c;aGk=\u0007${end}`);
		frame(['one']);
		expect(terminal.writes.at(-1)).toContain('\u001B[2Kone');
	});

	it('takes Ink\'s clear of the screen (a frame taller than the terminal) as a frame from the top', () => {
		const {terminal, writer} = setUp(10, 3);
		const screen = new VirtualTerminal(3, 10);
		writer.write(begin);
		writer.write('\u001B[2J\u001B[3J\u001B[Ha\nb\nc\nd');
		writer.write(end);
		screen.write(terminal.writes.at(-1)!);
		expect(screen.text()).toEqual(['a', 'b', 'c']);
	});

	it('draws the frame after a resize whole, and passes the resize on to Ink', () => {
		const {terminal, writer, frame} = setUp();
		let resized = 0;
		writer.on('resize', () => resized++);
		frame(['one', 'two']);
		terminal.columns = 20;
		terminal.emit('resize');
		expect(resized).toBe(1);
		expect(writer.columns).toBe(20);
		frame(['one', 'two']);
		expect(terminal.writes.at(-1)).toContain('\u001B[1;1H\u001B[2Kone');
		writer.dispose();
		expect(terminal.listenerCount('resize')).toBe(0);
	});

	it('redraw (Ctrl-L) paints the last frame whole over what another program wrote, and the next frame goes on from it', () => {
		const {terminal, writer, frame} = setUp();
		const screen = new VirtualTerminal(8, 30);
		const lines = ['hermes · 1s', '\u001B[32m│ t01 running │\u001B[39m', 'footer'];
		frame(lines);
		screen.write(terminal.writes.at(-1)!);
		// A `wall` message, written to the terminal by another program: the writer never sees it.
		screen.write('\u001B[1m\u001B[2;5HBroadcast message\u001B[3;1Hfrom root\u001B[6;1Hbye');
		expect(screen.cells).not.toEqual(expectedCells(lines, 8, 30));
		const count = terminal.writes.length;
		writer.write('\u001B[?1000h');
		redrawScreen(writer as unknown as NodeJS.WritableStream);
		expect(terminal.writes.length).toBe(count + 2);
		expect(terminal.writes.at(-1)).toMatch(/^\u001B\[\?2026h\u001B\[0m[\s\S]*\u001B\[\?2026l$/);
		screen.write(terminal.writes.at(-1)!);
		expect(screen.cells).toEqual(expectedCells(lines, 8, 30));
		// The screen is known again: the same frame costs nothing, a change only its cells.
		frame(lines);
		expect(terminal.writes.length).toBe(count + 2);
		frame(['hermes · 2s', lines[1]!, 'footer']);
		expect(terminal.writes.at(-1)).toBe(`${begin}\u001B[?7l\u001B[1;10H2\u001B[4;1H\u001B[?7h${end}`);
	});

	it('redraw before any frame writes nothing, and a stream that is not the writer is left alone', () => {
		const {terminal, writer} = setUp();
		writer.redraw();
		expect(terminal.writes).toEqual([]);
		const pipe = new FakeTerminal(80, 24);
		redrawScreen(pipe as unknown as NodeJS.WritableStream);
		expect(pipe.writes).toEqual([]);
	});

	it('gives a pipe Ink\'s writes as they are', () => {
		const pipe = new FakeTerminal(80, 24);
		pipe.isTTY = false;
		expect(inkStdout(pipe as unknown as NodeJS.WriteStream).stream).toBe(pipe);
	});
});
