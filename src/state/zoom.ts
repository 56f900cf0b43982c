// The zoom view's state as pure functions: one task's scrollback, a scroll position counted
// from the bottom (0 = follow new output), and a search. The lines and the matches come from the
// control's replies (state/zoom-actions.ts); here they only move the view.
import stringWidth from 'string-width';
import {searchPattern, visibleText} from '../core/output/visible-text.js';

export type ZoomState = {
	taskId: string;
	/** Which opening of the zoom this is: a reply asked for by an earlier one (closed since) does not belong here. */
	opening: number;
	scrollback: string[];
	/** The absolute line number of scrollback[0] (0 = the task's first line ever). */
	first: number;
	/** Lines the task printed, including those the bounded buffer no longer keeps. */
	totalLines: number;
	version: number;
	offsetFromBottom: number;
	/** Scrollback lines on screen when the UI last said: what keeps the view full as output arrives. */
	visibleLines: number;
	/** The last query searched for (typed in the overlay's search prompt) and the scrollback index it was found on. */
	search: {query: string; matchLine: number | null};
	/**
	 * Long lines: wrapped onto as many rows as they need (the default: an agent's reply is often
	 * one paragraph-long line), or cut at the screen's edge and scrolled sideways from `column`.
	 * 'match': as far as the current match needs to be seen (ui/text/zoom-rows.ts works it out).
	 */
	long: {wrap: true} | {wrap: false; column: number | 'match'};
};

/** A task's kept lines as the control replied (an OutputRange; declared here so zoom.ts needs no store type). */
type KeptLines = {version: number; totalLines: number; first: number; lines: string[]};

/** The zoom as it opens: empty until the control's reply fills it (at once, in-process). */
export function openZoom(taskId: string, opening: number, visibleLines: number): ZoomState {
	return {
		taskId,
		opening,
		scrollback: [],
		first: 0,
		totalLines: 0,
		version: -1,
		offsetFromBottom: 0,
		visibleLines: Math.max(1, visibleLines),
		search: {query: '', matchLine: null},
		long: {wrap: true},
	};
}

/** `w`: wrap long lines, or cut them (and scroll sideways); a cut view starts at the left edge. */
export function toggledWrap(zoom: ZoomState): ZoomState {
	return {...zoom, long: zoom.long.wrap ? {wrap: false, column: zoom.search.matchLine === null ? 0 : 'match'} : {wrap: true}};
}

/** The columns of the first match of the query in a line, if any. */
export function matchColumns(line: string, query: string): [number, number] | undefined {
	if (query === '') {
		return undefined;
	}

	const text = visibleText(line);
	const found = searchPattern(query).exec(text);
	if (!found) {
		return undefined;
	}

	const start = stringWidth(text.slice(0, found.index));
	return [start, start + Math.max(1, stringWidth(found[0]))];
}

/** The cut view's left column on a `width`-wide screen: as stored, or where the current match shows with some of what precedes it. */
export function shownColumn(zoom: ZoomState, width: number): number {
	if (zoom.long.wrap) {
		return 0;
	}

	if (zoom.long.column !== 'match') {
		return zoom.long.column;
	}

	const line = zoom.search.matchLine === null ? undefined : zoom.scrollback[zoom.search.matchLine];
	const match = line === undefined ? undefined : matchColumns(line, zoom.search.query);
	// A match the first screen shows needs no move; else it starts a third of the way in.
	return match === undefined || match[1] <= width - 1 ? 0 : Math.max(0, match[0] - Math.floor(width / 3));
}

/** ←/→ in a cut view: `delta` columns from the column on screen (`shown`), never left of the first. */
export function sideways(zoom: ZoomState, delta: number, shown: number): ZoomState {
	return zoom.long.wrap ? zoom : {...zoom, long: {wrap: false, column: Math.max(0, shown + delta)}};
}

/**
 * The furthest the view can scroll up: the first line at the top of a full view. Further would
 * show fewer lines than fit (at the limit, one line and a blank screen).
 */
export function maxOffset(lineCount: number, visibleLines: number): number {
	return Math.max(0, lineCount - Math.max(1, visibleLines));
}

/**
 * New output arrived. Following (offset 0) stays at the bottom; a scrolled-up view stays on
 * the same lines, like `less`, instead of drifting as lines are added below it. Lines that
 * fell out of the bounded buffer shift the match index.
 */
export function withNewOutput(zoom: ZoomState, output: KeptLines): ZoomState {
	const scrollback = output.lines;
	const added = output.first + scrollback.length - (zoom.first + zoom.scrollback.length);
	const dropped = output.first - zoom.first;
	const max = maxOffset(scrollback.length, zoom.visibleLines);
	const offsetFromBottom = zoom.offsetFromBottom === 0 ? 0 : Math.max(0, Math.min(max, zoom.offsetFromBottom + added));
	const matchLine = zoom.search.matchLine === null ? null : zoom.search.matchLine - dropped;
	return {
		...zoom,
		scrollback,
		first: output.first,
		totalLines: output.totalLines,
		version: output.version,
		offsetFromBottom,
		search: {...zoom.search, matchLine: matchLine !== null && matchLine >= 0 && matchLine < scrollback.length ? matchLine : null},
	};
}

/** Scrolled by `delta` lines (positive: towards the end), with `visibleLines` on screen. */
export function scrolled(zoom: ZoomState, delta: number | 'top' | 'bottom', visibleLines: number): ZoomState {
	const max = maxOffset(zoom.scrollback.length, visibleLines);
	const offset = delta === 'top' ? max : delta === 'bottom' ? 0 : Math.min(max, Math.max(0, zoom.offsetFromBottom - delta));
	return {...zoom, offsetFromBottom: offset, visibleLines: Math.max(1, visibleLines)};
}

/** The absolute line n/N searches after: the current match, or just past the view's bottom line (which is searched too). */
export function searchStart(zoom: ZoomState, direction: 1 | -1): number {
	const index = zoom.search.matchLine ?? (zoom.scrollback.length - 1 - zoom.offsetFromBottom + (direction === -1 ? 1 : -1));
	return zoom.first + index;
}

/** Whether an absolute line is past the zoom's copy of the output (newer output, not read yet). */
export function isPastScrollback(zoom: ZoomState, line: number): boolean {
	return line - zoom.first >= zoom.scrollback.length;
}

/** The zoom on the match the control found (an absolute line), or a notice saying there is none. */
export function foundAt(zoom: ZoomState, line: number | null, direction: 1 | -1): {zoom: ZoomState} | {notice: string} {
	const match = line === null ? -1 : line - zoom.first;
	const lines = zoom.scrollback;
	if (match < 0 || match >= lines.length) {
		return {notice: `no ${direction === -1 ? 'earlier' : 'later'} match for "${zoom.search.query}"`};
	}

	// The match goes to the bottom line of the view, or as low as a full view allows.
	const offsetFromBottom = Math.min(maxOffset(lines.length, zoom.visibleLines), Math.max(0, lines.length - 1 - match));
	// A cut view moves sideways to the match as well: a match past the edge is no match to the eye.
	const long = zoom.long.wrap ? zoom.long : {wrap: false as const, column: 'match' as const};
	return {zoom: {...zoom, search: {...zoom.search, matchLine: match}, offsetFromBottom, long}};
}
