// Which task a click lands on, from the same frame plan the screen is drawn from (layout.ts):
// the header's lines, then the body, pane by pane (grid) or line by line (list).
import {listWindow, pageStart, type FramePlan} from '../layout.js';

/** A terminal cell, 1-based as mouse reports count them. */
export type Cell = {x: number; y: number};

/**
 * The index in the shown order of the task under the cell, or undefined (header, footer, a gap,
 * a list's "↑ N more" line, the focused task's pane below the list).
 */
export function taskIndexAt(frame: FramePlan, cell: Cell, shown: number, focused: number): number | undefined {
	if (frame.tooSmall || shown === 0) return undefined;
	const row = cell.y - 1 - frame.header;
	const column = cell.x - 1;
	if (row < 0 || row >= frame.bodyHeight || column < 0 || column >= frame.columns) return undefined;
	const {body} = frame;
	if (body.kind === 'grid') {
		const paneColumn = Math.floor(column / body.paneWidth);
		const paneRow = Math.floor(row / body.paneHeight);
		if (paneColumn >= body.columns || paneRow >= body.visibleRows) return undefined;
		const firstRow = pageStart(Math.floor(Math.max(0, focused) / body.columns), body.visibleRows);
		const index = ((firstRow + paneRow) * body.columns) + paneColumn;
		return index < shown ? index : undefined;
	}

	if (row >= body.listHeight) return undefined;
	const window = listWindow(focused, shown, body.listHeight);
	const line = row - (window.markers && window.above > 0 ? 1 : 0);
	return line >= 0 && line < window.count ? window.first + line : undefined;
}
