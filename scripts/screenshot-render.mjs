// A tmux capture (`capture-pane -e`: text with SGR colour sequences) → cells → an ImageMagick
// drawing (MVG) of the terminal. Used by scripts/screenshot.mjs; test/scripts/screenshot.test.ts.
import stringWidth from 'string-width';

export const cell = {width: 10, height: 20, font: 'DejaVu-Sans-Mono', pointSize: 16.5, baseline: 15};
export const defaults = {fg: '#d4d4d4', bg: '#1c1c1c'};

// xterm's 16 colours, then its 6×6×6 cube and grey ramp.
const basic = ['#000000', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5',
	'#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff'];
const hex = value => value.toString(16).padStart(2, '0');
export function palette(index) {
	if (index < 16) return basic[index];
	if (index < 232) {
		const level = n => (n === 0 ? 0 : 55 + (n * 40));
		const i = index - 16;
		return `#${hex(level(Math.floor(i / 36)))}${hex(level(Math.floor(i / 6) % 6))}${hex(level(i % 6))}`;
	}

	const grey = 8 + ((index - 232) * 10);
	return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
}

/** Applies one SGR sequence's parameters to a style. */
function applySgr(style, parameters) {
	const codes = parameters === '' ? [0] : parameters.split(/[;:]/).map(Number);
	for (let i = 0; i < codes.length; i++) {
		const code = codes[i];
		if (code === 0) Object.assign(style, {fg: undefined, bg: undefined, bold: false, dim: false, inverse: false});
		else if (code === 1) style.bold = true;
		else if (code === 2) style.dim = true;
		else if (code === 22) Object.assign(style, {bold: false, dim: false});
		else if (code === 7) style.inverse = true;
		else if (code === 27) style.inverse = false;
		else if (code >= 30 && code <= 37) style.fg = basic[code - 30];
		else if (code >= 90 && code <= 97) style.fg = basic[code - 90 + 8];
		else if (code >= 40 && code <= 47) style.bg = basic[code - 40];
		else if (code >= 100 && code <= 107) style.bg = basic[code - 100 + 8];
		else if (code === 39) style.fg = undefined;
		else if (code === 49) style.bg = undefined;
		else if (code === 38 || code === 48) {
			const key = code === 38 ? 'fg' : 'bg';
			if (codes[i + 1] === 5) {
				style[key] = palette(codes[i + 2] ?? 0);
				i += 2;
			} else if (codes[i + 1] === 2) {
				style[key] = `#${hex(codes[i + 2] ?? 0)}${hex(codes[i + 3] ?? 0)}${hex(codes[i + 4] ?? 0)}`;
				i += 4;
			}
		}
	}
}

/** The screen as rows of cells: {char, fg, bg, bold}; a wide character's second cell is char ''. */
export function parseAnsi(text, columns, rows) {
	const screen = [];
	const style = {fg: undefined, bg: undefined, bold: false, dim: false, inverse: false};
	for (const line of text.split('\n').slice(0, rows)) {
		const row = [];
		for (const part of line.split(/(\u001B\[[0-9;:]*m)/)) {
			const sgr = /^\u001B\[([0-9;:]*)m$/.exec(part);
			if (sgr) {
				applySgr(style, sgr[1]);
				continue;
			}

			for (const char of part.replaceAll(/\u001B[^a-zA-Z]*[a-zA-Z]/g, '')) {
				let fg = style.fg ?? defaults.fg;
				let bg = style.bg ?? defaults.bg;
				if (style.inverse) [fg, bg] = [bg, fg];
				const width = Math.max(stringWidth(char), 1);
				row.push({char, fg, bg, bold: style.bold, dim: style.dim});
				if (width === 2) row.push({char: '', fg, bg, bold: style.bold, dim: style.dim});
			}
		}

		while (row.length < columns) row.push({char: ' ', fg: defaults.fg, bg: defaults.bg, bold: false, dim: false});
		screen.push(row.slice(0, columns));
	}

	while (screen.length < rows) screen.push(Array.from({length: columns}, () => ({char: ' ', fg: defaults.fg, bg: defaults.bg, bold: false, dim: false})));
	return screen;
}

const quoted = text => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** An MVG drawing: the background, each run of one background colour, then each character. */
export function toMvg(screen, columns, rows) {
	const margin = 12;
	const lines = [`viewbox 0 0 ${(columns * cell.width) + (2 * margin)} ${(rows * cell.height) + (2 * margin)}`, `fill "${defaults.bg}"`, `rectangle 0,0 ${(columns * cell.width) + (2 * margin)},${(rows * cell.height) + (2 * margin)}`];
	for (const [y, row] of screen.entries()) {
		let start = 0;
		for (let x = 1; x <= row.length; x++) {
			if (x === row.length || row[x].bg !== row[start].bg) {
				if (row[start].bg !== defaults.bg) {
					lines.push(`fill "${row[start].bg}"`, `rectangle ${margin + (start * cell.width)},${margin + (y * cell.height)} ${margin + (x * cell.width) - 1},${margin + ((y + 1) * cell.height) - 1}`);
				}

				start = x;
			}
		}
	}

	lines.push(`font "${cell.font}"`, `font-size ${cell.pointSize}`, 'text-antialias 1');
	let font = cell.font;
	for (const [y, row] of screen.entries()) {
		for (const [x, {char, fg, bold, dim}] of row.entries()) {
			if (char === '' || char === ' ') continue;
			const wanted = bold ? `${cell.font}-Bold` : cell.font;
			if (wanted !== font) {
				lines.push(`font "${wanted}"`);
				font = wanted;
			}

			lines.push(`fill "${fg}"`, `fill-opacity ${dim ? 0.6 : 1}`, `text ${margin + (x * cell.width)},${margin + (y * cell.height) + cell.baseline} ${quoted(char)}`);
		}
	}

	return `${lines.join('\n')}\n`;
}
