// The zoom view's state as pure functions: one task's scrollback, a scroll position counted
// from the bottom (0 = follow new output), and a search. Kept out of the store so the
// store stays a list of small actions.
import {lineMatches, searchPattern} from '../core/output/visible-text.js';

export type ZoomState = {
	taskId: string;
	scrollback: string[];
	/** Lines the task printed, including those the bounded buffer no longer keeps. */
	totalLines: number;
	version: number;
	offsetFromBottom: number;
	/** Scrollback lines on screen when the UI last said: what keeps the view full as output arrives. */
	visibleLines: number;
	/** The last query searched for (typed in the overlay's search prompt) and the line it was found on. */
	search: {query: string; matchLine: number | null};
};

type OutputSnapshot = {version: number; totalLines: number; lines(): string[]};

export function openZoom(taskId: string, output: OutputSnapshot | undefined, visibleLines: number): ZoomState {
	return {
		taskId,
		scrollback: output?.lines() ?? [],
		totalLines: output?.totalLines ?? 0,
		version: output?.version ?? -1,
		offsetFromBottom: 0,
		visibleLines: Math.max(1, visibleLines),
		search: {query: '', matchLine: null},
	};
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
export function withNewOutput(zoom: ZoomState, output: OutputSnapshot): ZoomState {
	const scrollback = output.lines();
	const added = output.totalLines - zoom.totalLines;
	const dropped = Math.max(0, zoom.scrollback.length + added - scrollback.length);
	const max = maxOffset(scrollback.length, zoom.visibleLines);
	const offsetFromBottom = zoom.offsetFromBottom === 0 ? 0 : Math.min(max, zoom.offsetFromBottom + added);
	const matchLine = zoom.search.matchLine === null ? null : zoom.search.matchLine - dropped;
	return {
		...zoom,
		scrollback,
		totalLines: output.totalLines,
		version: output.version,
		offsetFromBottom,
		search: {...zoom.search, matchLine: matchLine !== null && matchLine >= 0 ? matchLine : null},
	};
}

/** Scrolled by `delta` lines (positive: towards the end), with `visibleLines` on screen. */
export function scrolled(zoom: ZoomState, delta: number | 'top' | 'bottom', visibleLines: number): ZoomState {
	const max = maxOffset(zoom.scrollback.length, visibleLines);
	const offset = delta === 'top' ? max : delta === 'bottom' ? 0 : Math.min(max, Math.max(0, zoom.offsetFromBottom - delta));
	return {...zoom, offsetFromBottom: offset, visibleLines: Math.max(1, visibleLines)};
}

/** The next match from the current one (or from the view), or a notice saying there is none. */
export function searched(zoom: ZoomState, direction: 1 | -1): {zoom: ZoomState} | {notice: string} {
	const lines = zoom.scrollback;
	const from = zoom.search.matchLine ?? (lines.length - 1 - zoom.offsetFromBottom + (direction === -1 ? 1 : -1));
	const match = findLine(lines, zoom.search.query, from, direction);
	if (match === -1) {
		return {notice: `no ${direction === -1 ? 'earlier' : 'later'} match for "${zoom.search.query}"`};
	}

	// The match goes to the bottom line of the view, or as low as a full view allows.
	const offsetFromBottom = Math.min(maxOffset(lines.length, zoom.visibleLines), Math.max(0, lines.length - 1 - match));
	return {zoom: {...zoom, search: {...zoom.search, matchLine: match}, offsetFromBottom}};
}

function findLine(lines: readonly string[], query: string, from: number, direction: 1 | -1): number {
	const pattern = searchPattern(query);
	for (let index = from + direction; index >= 0 && index < lines.length; index += direction) {
		// The text as shown, as the zoom marks it: what is marked is what n/N finds.
		if (lineMatches(lines[index]!, pattern)) {
			return index;
		}
	}

	return -1;
}
