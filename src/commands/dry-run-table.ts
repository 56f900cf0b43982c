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

/** One line per task under a heading line; every cell made safe and cut to its column. */
export function dryRunTable(tasks: readonly PlannedTask[], columns: number): string {
	const rows = tasks.map(cells);
	const natural = (column: number, cap: number) => Math.min(cap, Math.max(headings[column]!.length, ...rows.map(row => [...row[column]!].length)));
	const widths = [natural(0, 8), natural(1, nameWidth), natural(2, routeWidth), natural(3, modelWidth), 0, natural(5, 8)];
	const fixed = widths.reduce((sum, width) => sum + width + 2, 0);
	widths[4] = Math.max(minimumReasonWidth, columns - fixed - 1);
	const line = (row: readonly string[]) => row.map((cell, column) => safeExcerpt(cell, widths[column]!).padEnd(widths[column]!)).join('  ').trimEnd();
	return `${[line(headings), ...rows.map(line)].join('\n')}\n`;
}
