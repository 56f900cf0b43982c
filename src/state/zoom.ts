// The zoom view's state as pure functions: one task's scrollback, a scroll position counted
// from the bottom (0 = follow new output), and a search. Kept out of the store so the
// store stays a list of small actions.
import type {ZoomState} from './store.js';

type OutputSnapshot = {version: number; totalLines: number; lines(): string[]};

export function openZoom(taskId: string, output: OutputSnapshot | undefined): ZoomState {
	return {
		taskId,
		scrollback: output?.lines() ?? [],
		totalLines: output?.totalLines ?? 0,
		version: output?.version ?? -1,
		offsetFromBottom: 0,
		search: {query: '', editing: false, matchLine: null},
	};
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
	const max = Math.max(0, scrollback.length - 1);
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

export function scrolled(zoom: ZoomState, delta: number | 'top' | 'bottom'): ZoomState {
	const max = Math.max(0, zoom.scrollback.length - 1);
	const offset = delta === 'top' ? max : delta === 'bottom' ? 0 : Math.min(max, Math.max(0, zoom.offsetFromBottom - delta));
	return {...zoom, offsetFromBottom: offset};
}

/** The next match from the current one (or from the view), or a notice saying there is none. */
export function searched(zoom: ZoomState, direction: 1 | -1): {zoom: ZoomState} | {notice: string} {
	const lines = zoom.scrollback;
	const from = zoom.search.matchLine ?? (lines.length - 1 - zoom.offsetFromBottom + (direction === -1 ? 1 : -1));
	const match = findLine(lines, zoom.search.query, from, direction);
	if (match === -1) {
		return {notice: `no ${direction === -1 ? 'earlier' : 'later'} match for "${zoom.search.query}"`};
	}

	return {zoom: {...zoom, search: {...zoom.search, matchLine: match}, offsetFromBottom: Math.max(0, lines.length - 1 - match)}};
}

function findLine(lines: readonly string[], query: string, from: number, direction: 1 | -1): number {
	const needle = query.toLowerCase();
	for (let index = from + direction; index >= 0 && index < lines.length; index += direction) {
		// Lines keep their SGR colours; search the visible text only.
		if (lines[index]!.replace(/\u001B\[[\d;:]*m/g, '').toLowerCase().includes(needle)) {
			return index;
		}
	}

	return -1;
}
