// A terminal small enough to read: rows × columns of cells (a character and its style), driven by
// the few sequences the dashboard's frame writer sends (cursor position, erase in line and in
// display, SGR, autowrap, synchronized output). Anything else fails the test that sent it, so a
// writer that starts sending something new is noticed here before a real terminal sees it.
import {cellsOf, styleSequence} from '../../src/ui/terminal/cells.js';

export type Cell = {char: string; style: string};

export class VirtualTerminal {
	readonly cells: Cell[][];
	private row = 0;
	private column = 0;
	/** Every SGR sequence since the last full reset: the style is what cellsOf makes of them. */
	private sgr = '';
	private style = '';
	private autowrap = true;

	constructor(readonly rows: number, readonly columns: number) {
		this.cells = Array.from({length: rows}, () => this.blankRow());
	}

	write(bytes: string): void {
		for (let at = 0; at < bytes.length;) {
			if (bytes[at] !== '\u001B') {
				this.print(bytes[at]!);
				at++;
				continue;
			}

			const match = /^\u001B\[(\??)([\d;]*)([A-Za-z])/.exec(bytes.slice(at, at + 32));
			if (!match) throw new Error(`unknown escape at ${JSON.stringify(bytes.slice(at, at + 12))}`);
			this.control(match[1]!, match[2]!, match[3]!);
			at += match[0].length;
		}
	}

	/** Each row as text, trailing blanks dropped. */
	text(): string[] {
		return this.cells.map(row => row.map(cell => cell.char).join('').trimEnd());
	}

	private blankRow(): Cell[] {
		return Array.from({length: this.columns}, () => ({char: ' ', style: ''}));
	}

	private print(char: string): void {
		if (char === '\n' || char === '\r') throw new Error('the frame writer moves with cursor positions only');
		if (this.column >= this.columns) {
			if (!this.autowrap) this.column = this.columns - 1;
			else throw new Error('a character past the edge with autowrap on');
		}

		this.cells[this.row]![this.column] = {char, style: this.style};
		this.column++;
	}

	private control(privateMode: string, parameters: string, final: string): void {
		const numbers = parameters.split(';').map(part => (part === '' ? undefined : Number(part)));
		if (privateMode === '?') {
			if (parameters === '7') this.autowrap = final === 'h';
			else if (parameters !== '2026') throw new Error(`unknown mode ?${parameters}${final}`);
			return;
		}

		switch (final) {
			case 'H': {
				this.row = Math.min(this.rows, numbers[0] ?? 1) - 1;
				this.column = Math.min(this.columns, numbers[1] ?? 1) - 1;
				return;
			}

			case 'K': {
				const row = this.cells[this.row]!;
				const [from, to] = numbers[0] === 2 ? [0, this.columns] : [this.column, this.columns];
				for (let column = from; column < to; column++) row[column] = {char: ' ', style: this.blankStyle()};
				return;
			}

			case 'J': {
				this.control('', '0', 'K');
				for (let row = this.row + 1; row < this.rows; row++) this.cells[row] = this.blankRow();
				return;
			}

			case 'm': {
				this.sgr = numbers.every(number => number === undefined || number === 0) ? '' : this.sgr + `\u001B[${parameters}m`;
				this.style = styleSequence(cellsOf(`${this.sgr}x`)!.styles[0]!);
				return;
			}

			default: {
				throw new Error(`unknown sequence ${parameters}${final}`);
			}
		}
	}

	/** An erased cell keeps only the background in effect (as terminals do); the writer erases in the default style. */
	private blankStyle(): string {
		if (this.style !== '') throw new Error('erased with a style in effect');
		return '';
	}
}

/** What a frame's lines should leave on a rows × columns screen: each line's cells, cut at the edge, blanks elsewhere. */
export function expectedCells(lines: readonly string[], rows: number, columns: number): Cell[][] {
	return Array.from({length: rows}, (_, row) => {
		const cells = row < lines.length ? cellsOf(lines[row]!) : {text: '', styles: new Uint16Array(0)};
		if (!cells) throw new Error(`not a simple line: ${JSON.stringify(lines[row])}`);
		return Array.from({length: columns}, (_, column) => (column < cells.text.length ? {char: cells.text[column]!, style: styleSequence(cells.styles[column]!)} : {char: ' ', style: ''}));
	});
}
