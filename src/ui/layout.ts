// Where everything goes, as pure arithmetic: the frame is planned from the terminal size before
// anything renders, so it can never grow past the terminal (a taller frame makes Ink clear and
// repaint the whole screen on every update, which is where dashboards start to flicker and burn CPU).
import type {LayoutPreference} from '../state/store-types.js';

/** Pane lines that are not output: border top and bottom, title line, route line. */
export const paneChrome = 4;
/** Pane columns that are not text: border and padding, left and right. */
export const paneInset = 4;
/** Fewer output lines than this and a pane no longer shows what its task is doing. */
export const minTailLines = 3;
/**
 * A started task's pane also says its spend and how long it has been quiet: one row at least
 * (TaskPane folds the two where the pane is short), which the three lines of output come after.
 */
export const paneStatusLines = 1;
export const minPaneHeight = paneChrome + paneStatusLines + minTailLines;
/**
 * Narrower panes cut the title and the route to uselessness: at 100 columns three panes of 33
 * leave 29 for text, where a route line shows no model. Two panes of 50 do, or else the list.
 */
export const minPaneWidth = 40;
/**
 * Wide enough for a route line with its model ("research (openrouter, medium) · deepseek/deepseek-v4-pro"
 * and the border): the model is what the operator checks first, so panes this wide win over taller ones.
 */
export const routeLinePaneWidth = 56;
// Ink treats a frame as tall as the terminal as full-screen and clears the screen before every
// following frame; one spare line keeps updates incremental.
const spareRows = 1;
// Past these, more width or more lines add little; used to prefer balanced panes.
const usefulWidth = 100;
const usefulTail = 20;
const minColumns = 20;

export type GridPlan = {
	kind: 'grid';
	/** Panes per row: what focus up/down moves by. */
	columns: number;
	paneWidth: number;
	paneHeight: number;
	/** Pane rows on screen; fewer than totalRows only when the operator forced the grid. */
	visibleRows: number;
	totalRows: number;
};

export type ListPlan = {
	kind: 'list';
	width: number;
	/** One line per task; scrolls with the focus when the tasks do not all fit. */
	listHeight: number;
	/** The focused task's pane below the list; 0 when there is no room for one. */
	paneHeight: number;
};

export type BodyPlan = GridPlan | ListPlan;

export type FrameInput = {
	columns: number;
	rows: number;
	taskCount: number;
	preference: LayoutPreference;
	/** The header's warnings line. */
	warnings: boolean;
	/** The header's workers line (tasks on worker hosts). */
	fleet?: boolean | undefined;
	/** The footer's notice / quitting line. */
	statusLine: boolean;
	/** Lines of the confirm bar; 0 when nothing is being confirmed. */
	confirm: number;
};

export type FramePlan =
	| {tooSmall: true; columns: number}
	| {tooSmall: false; columns: number; header: number; footer: number; confirm: number; bodyHeight: number; body: BodyPlan};

export function headerHeight(warnings: boolean, fleet = false): number {
	return 2 + (warnings ? 1 : 0) + (fleet ? 1 : 0);
}

export function footerHeight(statusLine: boolean): number {
	return statusLine ? 2 : 1;
}

export function planFrame(input: FrameInput): FramePlan {
	const {columns} = input;
	const header = headerHeight(input.warnings, input.fleet);
	const footer = footerHeight(input.statusLine);
	const {confirm} = input;
	const bodyHeight = input.rows - spareRows - header - footer - confirm;
	if (bodyHeight < 1 || columns < minColumns) {
		return {tooSmall: true, columns};
	}

	return {tooSmall: false, columns, header, footer, confirm, bodyHeight, body: planBody(columns, bodyHeight, input.taskCount, input.preference)};
}

/** Grid while every pane can show its output; otherwise the compact list (unless the operator chose). */
export function planBody(width: number, height: number, taskCount: number, preference: LayoutPreference): BodyPlan {
	if (preference === 'list' || taskCount === 0) {
		return planList(width, height, taskCount);
	}

	return fittingGrid(width, height, taskCount) ?? (preference === 'grid' ? pagedGrid(width, height, taskCount) : planList(width, height, taskCount));
}

/**
 * The most useful grid in which every pane is on screen with at least `minTailLines` of output.
 * Among those, grids whose panes show the whole route line come first: lines of output past a
 * few are worth less than seeing which model runs the task.
 */
export function fittingGrid(width: number, height: number, taskCount: number): GridPlan | undefined {
	const grids: GridPlan[] = [];
	const maxColumns = Math.min(taskCount, Math.max(1, Math.floor(width / minPaneWidth)));
	for (let columns = 1; columns <= maxColumns; columns++) {
		const totalRows = Math.ceil(taskCount / columns);
		const paneHeight = Math.floor(height / totalRows);
		if (paneHeight >= minPaneHeight) {
			grids.push({kind: 'grid', columns, paneWidth: Math.floor(width / columns), paneHeight, visibleRows: totalRows, totalRows});
		}
	}

	const wide = grids.filter(grid => grid.paneWidth >= routeLinePaneWidth);
	const score = (grid: GridPlan) => Math.min(grid.paneWidth, usefulWidth) * Math.min(grid.paneHeight - paneChrome, usefulTail);
	// On ties the fewer, wider columns win (the earlier grid).
	return (wide.length > 0 ? wide : grids).reduce<GridPlan | undefined>((best, grid) => (best && score(best) >= score(grid) ? best : grid), undefined);
}

/** A grid the operator asked for that cannot show every pane: as many rows as fit, paged by focus. */
function pagedGrid(width: number, height: number, taskCount: number): GridPlan {
	const columns = Math.max(1, Math.min(taskCount, Math.floor(width / minPaneWidth)));
	const totalRows = Math.ceil(taskCount / columns);
	const visibleRows = Math.max(1, Math.min(totalRows, Math.floor(height / minPaneHeight)));
	return {kind: 'grid', columns, paneWidth: Math.floor(width / columns), paneHeight: Math.floor(height / visibleRows), visibleRows, totalRows};
}

/** One line per task, and the focused task's pane with the rest (at least half, when it fits). */
export function planList(width: number, height: number, taskCount: number): ListPlan {
	if (height < minPaneHeight + 1) {
		return {kind: 'list', width, listHeight: Math.min(taskCount, height), paneHeight: 0};
	}

	const listHeight = Math.min(taskCount, height - Math.max(minPaneHeight, Math.floor(height / 2)));
	return {kind: 'list', width, listHeight, paneHeight: height - listHeight};
}

/** Output lines a pane of this height shows, after its chrome and its status detail lines. */
export function tailLinesFor(paneHeight: number, detailLines: number): number {
	return Math.max(0, paneHeight - paneChrome - detailLines);
}

/** What `moveFocus` needs: how far up/down moves in the task order. */
export function focusColumns(body: BodyPlan | undefined): number {
	return body?.kind === 'grid' ? body.columns : 1;
}

/** First item of the page that holds `index`: paging keeps the window still while focus moves inside it. */
export function pageStart(index: number, pageSize: number): number {
	return pageSize <= 0 ? 0 : Math.floor(Math.max(0, index) / pageSize) * pageSize;
}

/** Panes of a paged grid that are not on screen (the page that holds the focused pane is): what the footer's `+N more` says. */
export function panesOffScreen(plan: GridPlan, total: number, focused: number): number {
	if (plan.visibleRows >= plan.totalRows) {
		return 0;
	}

	const firstRow = pageStart(Math.floor(Math.max(0, focused) / plan.columns), plan.visibleRows);
	const shown = Math.min(total, (firstRow + plan.visibleRows) * plan.columns) - (firstRow * plan.columns);
	return Math.max(0, total - shown);
}

/** `markers`: whether "↑ N more" / "↓ N more" lines are part of the height (not below 3 lines). */
export type ListWindow = {first: number; count: number; above: number; below: number; markers: boolean};

/**
 * Which task rows the list shows around the focused one, in `height` lines: pages that stay put
 * while focus moves inside them, each line beyond the tasks shown saying how many are hidden
 * ("↑ 3 more"), and the last page pulled back so the list stays full rather than showing two
 * tasks and blank lines.
 */
export function listWindow(index: number, total: number, height: number): ListWindow {
	if (total <= height) {
		return {first: 0, count: total, above: 0, below: 0, markers: false};
	}

	// Too short for markers and at least one task between them: plain pages.
	if (height < 3) {
		const first = Math.min(pageStart(index, height), total - height);
		return {first, count: height, above: first, below: total - first - height, markers: false};
	}

	const shownFrom = (first: number) => {
		const room = height - (first > 0 ? 1 : 0);
		return total - first <= room ? total - first : room - 1;
	};

	const focus = Math.min(Math.max(0, index), total - 1);
	let first = 0;
	while (focus >= first + shownFrom(first)) {
		first += shownFrom(first);
	}

	// A short last page: back up until the top marker and the last tasks fill the list.
	first = Math.min(first, total - (height - 1));
	const count = shownFrom(first);
	return {first, count, above: first, below: total - first - count, markers: true};
}

/** The zoom view's lines around its scrollback: title, route, why it got that route, and the search / position line. */
export const zoomChrome = 4;

export function zoomVisibleLines(bodyHeight: number): number {
	return Math.max(1, bodyHeight - zoomChrome);
}
