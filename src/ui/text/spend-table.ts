// The spend table (docs/spend.md), as text: per route, per model and for the batch, tokens in/out/cache/
// reasoning, API and tool calls, and cost. The `$` overlay draws these lines and `hermes-delegate
// spend` prints them, so both show one table. Unknown is `?` (never 0), a sum that leaves unknown
// attempts out is `≥`, and counts Hermes has no price for say `unpriced`. Pure text, no React.
import {terminalSafe} from '../../core/output/visible-text.js';
import type {SpendSum, SpendTotals} from '../../core/types.js';
import {formatCount, truncate, wrapWords} from './format.js';
import {formatUsd} from './spend.js';
import {lowerBoundNote} from '../../core/spend-basis.js';

type Column = {title: string; width: number; cell: (sum: SpendSum) => string; /** Dropped first when the width is short: higher goes first. */ drop: number};

/** A count no attempt knew is `?`; one that some attempts left out is a lower bound, `≥`. */
function countCell(value: number | null, sum: SpendSum): string {
	if (sum.attempts === 0) return '–';
	if (value === null) return '?';
	return `${sum.unknown_attempts > 0 ? '≥' : ''}${formatCount(value)}`;
}

/** `$0.42`; `≥$0.42` when some attempts are unknown or unpriced; `unpriced` when counts are known but none has a price; `?` when nothing is known. */
function costCell(sum: SpendSum): string {
	if (sum.attempts === 0) return '–';
	if (sum.cost_usd === null) return sum.unpriced_attempts > 0 ? 'unpriced' : '?';
	return `${sum.unknown_attempts + sum.unpriced_attempts > 0 ? '≥' : ''}${formatUsd(sum.cost_usd)}`;
}

/** What the cells leave out: how many attempts are unknown or unpriced. */
function noteCell(sum: SpendSum): string {
	return [sum.unknown_attempts > 0 ? `${sum.unknown_attempts} unknown` : '', sum.unpriced_attempts > 0 ? `${sum.unpriced_attempts} unpriced` : ''].filter(Boolean).join(', ');
}

const columns: readonly Column[] = [
	{title: 'attempts', width: 8, cell: sum => String(sum.attempts), drop: 2},
	{title: 'in', width: 7, cell: sum => countCell(sum.input_tokens, sum), drop: 0},
	{title: 'out', width: 7, cell: sum => countCell(sum.output_tokens, sum), drop: 0},
	{title: 'cache r', width: 7, cell: sum => countCell(sum.cache_read_tokens, sum), drop: 3},
	{title: 'cache w', width: 7, cell: sum => countCell(sum.cache_write_tokens, sum), drop: 5},
	{title: 'reason', width: 7, cell: sum => countCell(sum.reasoning_tokens, sum), drop: 4},
	{title: 'API', width: 5, cell: sum => countCell(sum.api_calls, sum), drop: 1},
	{title: 'tools', width: 5, cell: sum => countCell(sum.tool_calls, sum), drop: 1},
	{title: 'cost', width: 10, cell: costCell, drop: 0},
];

const minNameWidth = 10;

const legend = [
	'? unknown: Hermes has not written it yet (a turn\'s tokens land when it ends), or its state.db could not be read; never counted as 0.',
	'≥ at least: some attempts are unknown. unpriced: Hermes has no price for that provider (a token budget can cap it).',
	'in and out include the cache and reasoning tokens.',
	lowerBoundNote,
];

export type SpendTableLine = {kind: 'head' | 'title' | 'row' | 'total' | 'legend' | 'blank'; text: string};

/** The columns that fit `width` with a name column of at least minNameWidth, dropping the least needed first. */
function fittingColumns(width: number): Column[] {
	let kept = [...columns];
	const needed = (set: readonly Column[]) => minNameWidth + set.reduce((sum, column) => sum + column.width + 1, 0);
	for (const level of [5, 4, 3, 2, 1]) {
		if (needed(kept) <= width) break;
		kept = kept.filter(column => column.drop < level);
	}

	return kept;
}

/**
 * The table's lines for `width` columns (Infinity: every column, names whole, as piped output
 * wants). Names are route and model names from configs and Hermes's rows: made terminal-safe here.
 */
export function spendTableLines(totals: SpendTotals, width: number): SpendTableLine[] {
	if (totals.total.attempts === 0) {
		return [{kind: 'legend', text: 'No task has started yet: nothing spent.'}];
	}

	const shown = fittingColumns(width);
	const names = [...Object.keys(totals.by_route), ...Object.keys(totals.by_model), 'batch'].map(name => [...terminalSafe(name)].length);
	const cellsWidth = shown.reduce((sum, column) => sum + column.width + 1, 0);
	const nameWidth = Math.max(minNameWidth, Math.min(Math.max(...names), (Number.isFinite(width) ? width : Number.POSITIVE_INFINITY) - cellsWidth));
	const line = (name: string, cells: readonly string[], note: string) => {
		const text = `${truncate(terminalSafe(name), nameWidth).padEnd(nameWidth)}${cells.map((cell, index) => ` ${cell.padStart(shown[index]!.width)}`).join('')}`;
		// Only the note gives way to the width: cut into the cells, `≥$0.012` read as `≥$0.01…` (one cent).
		const room = (Number.isFinite(width) ? width : Number.POSITIVE_INFINITY) - [...text].length - 2;
		return note === '' || room < 4 ? text : `${text}  ${Number.isFinite(room) ? truncate(note, room) : note}`;
	};

	const row = (name: string, sum: SpendSum) => line(name, shown.map(column => column.cell(sum)), noteCell(sum));
	const section = (title: string, sums: Record<string, SpendSum>): SpendTableLine[] => [
		{kind: 'title', text: title},
		...Object.entries(sums).sort(([a], [b]) => a.localeCompare(b)).map(([name, sum]) => ({kind: 'row' as const, text: row(name, sum)})),
	];

	return [
		{kind: 'head', text: line('', shown.map(column => column.title), '')},
		...section('by route', totals.by_route),
		...section('by model', totals.by_model),
		{kind: 'total', text: row('batch', totals.total)},
		{kind: 'blank', text: ''},
		...legend.flatMap(text => (Number.isFinite(width) ? wrapWords(text, width) : [text])).map(text => ({kind: 'legend' as const, text})),
	];
}
