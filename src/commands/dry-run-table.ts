// `run --dry-run` on a terminal: the plan as a table a person reads (16 tasks were 620 lines of
// JSON). Piped, or with --json, the JSON stays: scripts read that.
import {resultRoute} from '../core/run/results.js';
import type {PlannedTask} from '../core/types.js';
import {safeExcerpt} from '../core/output/visible-text.js';

const headings = ['id', 'name', 'route', 'model', 'reason', 'warnings'] as const;

/** Column widths before the reason takes what the terminal has left. */
const nameWidth = 24;
const routeWidth = 16;
const modelWidth = 44;
const minimumReasonWidth = 24;

function modelOf(task: PlannedTask): string {
	const route = resultRoute(task);
	if (route.model) return route.provider ? `${route.model} (${route.provider})` : route.model;
	return route.profile ? `profile ${route.profile}'s own` : 'the parent\'s';
}

function cells(task: PlannedTask): string[] {
	const route = resultRoute(task);
	return [
		task.id,
		task.spec.name ?? task.spec.goal.replace(/\s+/g, ' '),
		task.decision.refused ? 'refused' : route.name ?? route.kind,
		task.decision.refused ? '' : modelOf(task),
		task.decision.reason,
		String(task.warnings.length || ''),
	];
}

/**
 * One line per task under a heading line; every cell made safe and cut to its column. The table
 * fits `columns` (a row that wraps at 80 columns reads as two tasks): the id, route and warning
 * count keep their width, the name, model and reason share the rest.
 */
export function dryRunTable(tasks: readonly PlannedTask[], columns: number): string {
	const rows = tasks.map(cells);
	const natural = (column: number, cap: number) => Math.min(cap, Math.max(headings[column]!.length, ...rows.map(row => [...row[column]!].length)));
	const widths = [natural(0, 8), natural(1, nameWidth), natural(2, routeWidth), natural(3, modelWidth), 0, natural(5, 8)];
	// One column short of the edge: a line that ends exactly there wraps on some terminals.
	const room = Math.max(0, columns - 1 - (widths[0]! + widths[2]! + widths[5]!) - 2 * (headings.length - 1));
	if (widths[1]! + widths[3]! + minimumReasonWidth > room) {
		// Name and model give way first, down to what still tells tasks apart; the reason takes the rest.
		widths[1] = Math.min(widths[1]!, Math.max(8, Math.floor(room * 0.3)));
		widths[3] = Math.min(widths[3]!, Math.max(12, Math.floor(room * 0.4)));
	}

	widths[4] = Math.max(8, room - widths[1]! - widths[3]!);
	const line = (row: readonly string[]) => safeExcerpt(row.map((cell, column) => safeExcerpt(cell, widths[column]!).padEnd(widths[column]!)).join('  ').trimEnd(), Math.max(1, columns - 1));
	return `${[line(headings), ...rows.map(line)].join('\n')}\n`;
}
