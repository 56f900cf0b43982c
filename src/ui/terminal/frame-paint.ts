// What to send a terminal so that it shows a new frame, given the frame it shows now: only the
// cells that changed, each run reached with an absolute cursor move. A frame is the list of its
// lines from the top-left corner; every row below it is blank. Without a known screen (the
// first frame, after a resize or anything else written to the terminal) every row is written
// and the rest of the screen erased, so nothing stale can survive a frame drawn from nothing.
import {cellsOf, styleSequence, type Cells} from './cells.js';

export type Screen = {
	readonly lines: readonly string[];
	/** Each row's cells, once taken apart (undefined: not yet, or not simple). */
	readonly cells: Array<Cells | undefined>;
};

export type Paint = {readonly bytes: string; readonly screen: Screen};

const esc = '\u001B[';
const reset = `${esc}0m`;
/** Autowrap off while painting: a line too wide for the terminal (a frame laid out before a resize) is cut at the edge instead of spilling into the next row or scrolling the screen. */
const wrapOff = `${esc}?7l`;
const wrapOn = `${esc}?7h`;
/** Unchanged cells between two changed runs cheaper to write again than to jump over. */
const jumpCost = 8;
const unknownStyle = '\0';
const blank: Cells = {text: '', styles: new Uint16Array(0)};

/**
 * The bytes that turn `previous` (undefined: unknown) into `lines` on a terminal of `rows` ×
 * `columns`, and the screen they leave. Lines below the last row are not shown. The cursor is
 * left at the start of the row after the frame, where a writer of whole frames would leave it.
 */
export function paintFrame(previous: Screen | undefined, lines: readonly string[], rows: number, columns: number): Paint {
	const shown = lines.length > rows ? lines.slice(0, rows) : lines;
	const cells: Array<Cells | undefined> = [];
	const out: string[] = [];
	const pen = new Pen(out);

	for (let row = 0; row < shown.length; row++) {
		const line = shown[row]!;
		const before = previous?.lines[row];
		if (previous && line === before) {
			cells.push(previous.cells[row]);
			continue;
		}

		const next = cellsOf(line);
		cells.push(next);
		const old = previous && before !== undefined ? previous.cells[row] ?? cellsOf(before) : previous ? blank : undefined;
		if (next && old) {
			paintRow(pen, row, old, next, columns);
			continue;
		}

		// Nothing known of the row, or a row not simple: written on an erased row, whole (a row not
		// simple cannot be cut at the edge: only a frame laid out before a resize is wider).
		pen.use('');
		pen.moveTo(row, 0);
		out.push(`${esc}2K`);
		if (next) {
			paintRow(pen, row, blank, next, columns);
			continue;
		}

		out.push(line);
		pen.lost();
	}

	const belowWasBlank = previous !== undefined && previous.lines.length <= shown.length;
	if (!belowWasBlank && shown.length < rows) {
		pen.use('');
		pen.moveTo(shown.length, 0);
		out.push(`${esc}J`);
	}

	pen.use('');
	if (out.length === 0) return {bytes: '', screen: {lines: shown, cells}};
	pen.moveTo(Math.min(shown.length, rows - 1), 0);
	return {bytes: wrapOff + out.join('') + wrapOn, screen: {lines: shown, cells}};
}

/** The changed runs of one row whose old and new cells are both known. */
function paintRow(pen: Pen, row: number, old: Cells, next: Cells, columns: number): void {
	const end = Math.min(Math.max(old.text.length, next.text.length), columns);
	const differs = (column: number) => old.text.charCodeAt(column) !== next.text.charCodeAt(column) || (old.styles[column] ?? 0) !== (next.styles[column] ?? 0);
	let column = 0;
	while (column < end) {
		if (!differs(column)) {
			column++;
			continue;
		}

		// A run of changes, extended over short unchanged gaps.
		let stop = column + 1;
		for (let look = stop; look < end && look - stop <= jumpCost; look++) {
			if (differs(look)) stop = look + 1;
		}

		pen.moveTo(row, column);
		const written = Math.min(stop, next.text.length);
		for (let at = column; at < written;) {
			// A piece of one style at a time.
			const style = next.styles[at] ?? 0;
			let to = at + 1;
			while (to < written && next.styles[to] === style) to++;
			pen.use(styleSequence(style));
			pen.print(next.text.slice(at, to));
			at = to;
		}

		if (stop > next.text.length) {
			// The rest of the row is blank now: erased in the default style.
			pen.use('');
			pen.erase();
			return;
		}

		column = stop;
	}
}

/** Where the cursor is and which style is in effect, so that neither is sent twice. */
class Pen {
	private style = '';
	private row = -1;
	private column = -1;

	constructor(private readonly out: string[]) {}

	use(style: string): void {
		if (this.style !== style) this.out.push(style === '' ? reset : style);
		this.style = style;
	}

	moveTo(row: number, column: number): void {
		if (this.row !== row || this.column !== column) this.out.push(`${esc}${row + 1};${column + 1}H`);
		this.row = row;
		this.column = column;
	}

	print(text: string): void {
		this.out.push(text);
		this.column += text.length;
	}

	erase(): void {
		this.out.push(`${esc}K`);
	}

	/** After a row written as it came: neither its end nor its style is known. */
	lost(): void {
		this.style = unknownStyle;
		this.row = -1;
	}
}
