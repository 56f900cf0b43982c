// The README's picture is drawn from a tmux capture (scripts/screenshot.mjs): the capture's colour
// sequences must land on the right cells, and a wide character must take two.
import {describe, expect, it} from 'vitest';
import {defaults, palette, parseAnsi, toMvg} from '../../scripts/screenshot-render.mjs';

describe('the screenshot renderer', () => {
	it('reads SGR colours, 256-colour and true colour, inverse and reset onto cells', () => {
		const [row] = parseAnsi('\u001B[31ma\u001B[0mb\u001B[38;5;208;48;2;1;2;3mc\u001B[7md', 6, 1) as Array<Array<{char: string; fg: string; bg: string}>>;
		expect(row!.slice(0, 4).map(cell => [cell.char, cell.fg, cell.bg])).toEqual([
			['a', '#cd3131', defaults.bg],
			['b', defaults.fg, defaults.bg],
			['c', palette(208), '#010203'],
			['d', '#010203', palette(208)],
		]);
		expect(row).toHaveLength(6);
	});

	it('gives a wide character two cells and quotes text for the drawing', () => {
		const screen = parseAnsi('界"x', 4, 2) as Array<Array<{char: string}>>;
		expect(screen[0]!.map(cell => cell.char)).toEqual(['界', '', '"', 'x']);
		expect(screen).toHaveLength(2);
		expect(toMvg(screen, 4, 2)).toContain('"\\""');
	});
});
