// Which screen rows the zoom shows: its lines wrapped onto as many rows as each needs, or cut at
// the edge and scrolled sideways (state/zoom.ts `long`). Pure, so the view and its tests agree on
// what is on screen: the line numbers in the status line, and the current match always in view.
import stringWidth from 'string-width';
import {plainLine} from './output-line.js';
import {isNarrowText} from './narrow.js';
import {matchColumns, shownColumn, type ZoomState} from '../../state/zoom.js';

/** One screen row: the visible columns [from, to) of scrollback line `index`. */
export type ZoomRow = {readonly index: number; readonly from: number; readonly to: number};

export type ZoomWindow = {
	rows: ZoomRow[];
	/** The first and one past the last line with a row on screen. */
	start: number;
	end: number;
	/** The cut view's left column (0 when wrapping). */
	column: number;
};

let graphemes: Intl.Segmenter | undefined;

/** Each user-perceived character's columns, in order (one per UTF-16 unit for narrow text). */
function widths(text: string): Array<{text: string; width: number}> {
	if (isNarrowText(text)) {
		return Array.from(text, char => ({text: char, width: 1}));
	}

	graphemes ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'});
	return Array.from(graphemes.segment(text), ({segment}) => ({text: segment, width: stringWidth(segment)}));
}

/** The visible width of a line as the zoom draws it. */
export function lineWidth(line: string): number {
	const plain = plainLine(line);
	return isNarrowText(plain) ? plain.length : stringWidth(plain);
}

const breaksCache = new Map<string, Array<[number, number]>>();
const breaksLimit = 500;

/**
 * Where a line breaks into rows of at most `width` columns: after the last space that fits, as
 * a reader expects of a paragraph, else (a long word, a URL, JSON) at the edge.
 */
export function wrapRanges(line: string, width: number): Array<[number, number]> {
	const key = `${width}\u0000${line}`;
	const cached = breaksCache.get(key);
	if (cached) {
		return cached;
	}

	const ranges: Array<[number, number]> = [];
	let rowStart = 0;
	let column = 0;
	let lastSpaceEnd = -1;
	for (const {text, width: charWidth} of widths(plainLine(line))) {
		if (column + charWidth - rowStart > width && column > rowStart) {
			const cut = lastSpaceEnd > rowStart ? lastSpaceEnd : column;
			ranges.push([rowStart, cut]);
			rowStart = cut;
			lastSpaceEnd = -1;
		}

		column += charWidth;
		if (text === ' ') {
			lastSpaceEnd = column;
		}
	}

	ranges.push([rowStart, Math.max(column, rowStart)]);
	if (breaksCache.size >= breaksLimit) {
		breaksCache.clear();
	}

	breaksCache.set(key, ranges);
	return ranges;
}

export type WindowRequest = {
	zoom: ZoomState;
	/** One past the bottom line (the store's offset from the bottom applied). */
	end: number;
	/** At the furthest scroll up: the view starts at the first line instead of ending at `end`. */
	atTop: boolean;
	rows: number;
	width: number;
};

/** The rows on screen. Wrapped, the current match's row is always among them. */
export function zoomWindow({zoom, end, atTop, rows, width}: WindowRequest): ZoomWindow {
	const lines = zoom.scrollback;
	if (!zoom.long.wrap) {
		const start = Math.max(0, end - rows);
		const column = shownColumn(zoom, width);
		return {rows: lines.slice(start, end).map((_, at) => ({index: start + at, from: column, to: column + width})), start, end, column};
	}

	const rowsOf = (index: number): ZoomRow[] => wrapRanges(lines[index] ?? '', width).map(([from, to]) => ({index, from, to}));
	let all: ZoomRow[] = [];
	if (atTop) {
		for (let index = 0; index < lines.length && all.length < rows; index++) {
			all.push(...rowsOf(index));
		}
	} else {
		for (let index = end - 1; index >= 0 && all.length < rows; index--) {
			all = [...rowsOf(index), ...all];
		}
	}

	let first = atTop ? 0 : Math.max(0, all.length - rows);
	// The match on the bottom line (where a search puts it) or anywhere at the top; elsewhere the
	// operator scrolled away from it, and the view follows the scrolling.
	const match = zoom.search.matchLine;
	if (match !== null && (match === end - 1 || atTop)) {
		const at = matchColumns(lines[match] ?? '', zoom.search.query)?.[0] ?? 0;
		const matchRow = all.findIndex(row => row.index === match && at >= row.from && (at < row.to || row.to === row.from));
		if (matchRow !== -1 && matchRow < first) {
			first = matchRow;
		} else if (matchRow >= first + rows) {
			first = matchRow - rows + 1;
		}
	}

	const shown = all.slice(first, first + rows);
	return {rows: shown, start: shown[0]?.index ?? 0, end: (shown.at(-1)?.index ?? -1) + 1, column: 0};
}
