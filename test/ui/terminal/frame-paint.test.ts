// The frame painter: whatever frames follow each other, the terminal shows exactly the last one,
// and a frame like the last one costs only its changed cells.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {paintFrame, type Screen} from '../../../src/ui/terminal/frame-paint.js';
import {expectedCells, VirtualTerminal} from '../../helpers/virtual-terminal.js';

const rows = 8;
const columns = 24;

const styles = ['', '\u001B[31m', '\u001B[1m\u001B[96m', '\u001B[90m', '\u001B[7m', '\u001B[38;5;208m', '\u001B[4m\u001B[48;2;1;2;3m'];
const closes = ['', '\u001B[39m', '\u001B[22m\u001B[39m', '\u001B[39m', '\u001B[27m', '\u001B[39m', '\u001B[24m\u001B[49m'];

/** A line as Ink writes one: styled pieces, each closed, sometimes wider than the screen. */
const line = fc.array(fc.tuple(fc.nat(styles.length - 1), fc.stringMatching(/^[ a-c│─·…]{0,9}$/)), {maxLength: 5})
	.map(pieces => pieces.map(([style, text]) => (style === 0 || text === '' ? text : `${styles[style]}${text}${closes[style]}`)).join('').trimEnd());

/** Frames of up to one row more than the screen (a frame laid out before a resize). */
const frame = fc.array(line, {maxLength: rows + 1});

describe('paintFrame', () => {
	it('leaves every frame of a sequence exactly on the screen, from a known screen or from none', () => {
		fc.assert(fc.property(fc.array(fc.tuple(frame, fc.boolean()), {minLength: 1, maxLength: 6}), frames => {
			const terminal = new VirtualTerminal(rows, columns);
			// Something else on the screen before the first frame.
			terminal.write('\u001B[3;3Hstale\u001B[8;1Hstale too');
			let screen: Screen | undefined;
			for (const [lines, forget] of frames) {
				const paint = paintFrame(forget ? undefined : screen, lines, rows, columns);
				terminal.write(paint.bytes);
				screen = paint.screen;
				expect(terminal.cells).toEqual(expectedCells(lines.slice(0, rows), rows, columns));
			}
		}), {numRuns: 300});
	});

	it('writes nothing for the same frame, and only the changed cells for a clock that ticks', () => {
		const lines = ['\u001B[1mheader\u001B[22m · 12s', '│ t01 running 12s │', '│ line one        │'];
		const first = paintFrame(undefined, lines, rows, columns);
		expect(paintFrame(first.screen, lines, rows, columns).bytes).toBe('');
		const ticked = paintFrame(first.screen, lines.map(text => text.replaceAll('12s', '13s')), rows, columns);
		// Row 1 col 11 and row 2 col 16 (1-based), one digit each, then the cursor parked below the frame.
		expect(ticked.bytes).toBe('\u001B[?7l\u001B[1;11H3\u001B[2;16H3\u001B[4;1H\u001B[?7h');
	});

	it('rewrites a row it cannot take apart (wide characters) whole, on an erased row', () => {
		const first = paintFrame(undefined, ['plain', 'emoji 👍 here'], rows, columns);
		const next = paintFrame(first.screen, ['plain', 'emoji 👍 there'], rows, columns);
		expect(next.bytes).toContain('\u001B[2;1H\u001B[2Kemoji 👍 there');
		expect(next.bytes).not.toContain('plain');
	});

	it('erases the rows a shorter frame leaves, once', () => {
		const first = paintFrame(undefined, ['a', 'b', 'c', 'd'], rows, columns);
		const shorter = paintFrame(first.screen, ['a'], rows, columns);
		expect(shorter.bytes).toBe('\u001B[?7l\u001B[2;1H\u001B[J\u001B[?7h');
		const terminal = new VirtualTerminal(rows, columns);
		terminal.write(first.bytes + shorter.bytes);
		expect(terminal.text().filter(text => text !== '')).toEqual(['a']);
	});
});
