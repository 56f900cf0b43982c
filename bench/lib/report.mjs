// The rows of the suite's two tables and the verdict of each figure. A figure is the median of
// its runs (or the whole of one long run); its spread is the range of the figure run by run
// (for a ratio, each alternation round's ratio: the two tools measured side by side). Against a
// target "≤ x": met when every run met it, missed when no run did, and otherwise "within the
// spread": the machine's own run-to-run variation covers the target, so the run cannot tell.
// A missed target is a row that says so, never a failure of the suite.
import {median, percentile} from './stats.mjs';

export const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : String(value));
export const ratioText = ratio => `${fixed(ratio)}×`;

/** 'met', 'missed' or 'within the spread' for a figure and its per-run values against ≤ target. */
export function verdict(figure, runs, target) {
	const values = [figure, ...runs];
	if (values.some(value => Number.isNaN(value))) return 'not measured';
	const [low, high] = [Math.min(...values), Math.max(...values)];
	if (high <= target) return 'met';
	if (low > target) return 'missed';
	return 'within the spread';
}

/** "0.09–0.14" over the per-run values (one value: just it). */
export function spreadText(runs, digits, unit = '') {
	if (runs.length === 0) return '—';
	const [low, high] = [Math.min(...runs), Math.max(...runs)].map(value => fixed(value, digits));
	return low === high ? `${low}${unit}` : `${low}–${high}${unit}`;
}

/**
 * The median of `results[tool]` by `key` as {value, runs, text}: the per-run values, and the text
 * with the parts of the run whose figure is the median (`partsKey`: dashboard + runner host).
 */
export function figureOf(results, tool, key, digits, unit, partsKey) {
	const list = results[tool];
	if (list === undefined) return undefined;
	const runs = list.map(result => result[key]);
	const value = median(runs);
	const parts = partsKey && list.find(result => result[key] === value)?.[partsKey];
	const partsText = parts && parts.length === 2 ? ` (dashboard ${fixed(parts[0], digits)} + host ${fixed(parts[1], digits)})` : '';
	return {value, runs, text: `${fixed(value, digits)} ${unit}${partsText}`};
}

/**
 * A peak RSS figure with the peak Pss beside it in its text: the Cost rows judge RSS (the issue's
 * target), so its value and runs, and the verdict, stay the RSS's; Pss is what the planners read
 * where the dashboard and its host share pages (procs.mjs pssMiB).
 */
export function withPss(rss, pss) {
	if (rss === undefined) return undefined;
	const beside = pss === undefined || !Number.isFinite(pss.value) ? 'Pss not read' : `Pss ${pss.text}`;
	return {...rss, text: `${rss.text}; ${beside}`};
}

export class Table {
	static header = ['#', 'figure', 'target', 'hermes-delegate', 'peer', 'ratio', 'runs (spread)', 'result', 'load'];
	rows = [];
	/** The load average while the figures of the workload being reported were taken. */
	load = '';

	/** Ids of rows set out before they are measured (expect), still waiting for their figure. */
	#waiting = new Set();

	/** A row printed whether or not its workload runs: `result` says why it has no figure. */
	expect(id, figure, targetText, result = 'not run (BENCH_ONLY)') {
		this.rows.push([id, figure, targetText, '', '', '', '', result, '']);
		this.#waiting.add(id);
	}

	/** The rows still waiting among `ids` say that their workload failed, and why. */
	fail(ids, message) {
		for (const row of this.rows) {
			if (ids.includes(row[0]) && this.#waiting.has(row[0])) row.splice(3, 6, message, '', '', '', '**failed**', this.load);
		}
	}

	/** A row as given, the current load after it; in place of the expected row of its id, if any. */
	push(row) {
		const full = [...row, this.load];
		const at = this.#waiting.has(row[0]) ? this.rows.findIndex(existing => existing[0] === row[0]) : -1;
		this.#waiting.delete(row[0]);
		if (at === -1) this.rows.push(full);
		else this.rows[at] = full;
	}

	/**
	 * Ours against a peer measured in the same rounds: the ratio of the medians, each round's ratio
	 * for the spread. `row`: {id, figure, target (the highest ratio that meets it; none: a figure
	 * only), targetText}; `peerName` says why there is no peer when `theirs` is undefined.
	 */
	compared(row, ours, peerName, theirs) {
		const {id, figure, target, targetText = '—'} = row;
		if (theirs === undefined) {
			this.push([id, figure, targetText, ours.text, peerName, '—', spreadText(ours.runs, 2), target === undefined ? '' : 'no peer']);
			return;
		}

		const ratio = ours.value / theirs.value;
		const rounds = ours.runs.map((value, i) => value / theirs.runs[i]).filter(value => !Number.isNaN(value));
		const result = target === undefined ? '' : mark(verdict(ratio, rounds, target));
		this.push([id, figure, targetText, ours.text, `${peerName}: ${theirs.text}`, ratioText(ratio), spreadText(rounds, 2, '×'), result]);
	}

	/**
	 * One figure against an absolute budget (`row.target` in the figure's unit; none: a figure
	 * only): `value` and its per-run values, `text` as printed, `peer` a peer's figure beside it.
	 */
	absolute(row, {value, runs, text, peer = '(none: an absolute budget)', digits = 2}) {
		const {id, figure, target, targetText = '—'} = row;
		const result = target === undefined ? '' : mark(verdict(value, runs, target));
		this.push([id, figure, targetText, text, peer, '—', spreadText(runs, digits), result]);
	}
}

/** Missed in bold, so that it stands out in the Markdown and in a terminal. */
const mark = result => (result === 'missed' ? '**missed**' : result);

/**
 * p50 / p95 / max of latencies in ms pooled over the runs, with each run's own p95 (the spread)
 * and the timeouts; a p95 of Infinity when no press was shown.
 */
export function latencySummary(perRun, timeouts, timeoutMs) {
	const latencies = perRun.flat();
	const runP95s = perRun.map(list => (list.length > 0 ? percentile(list, 95) : Infinity));
	if (latencies.length === 0) {
		return {p95: Infinity, runP95s, text: `no press shown within ${timeoutMs / 1000} s (${timeouts} tried)`};
	}

	const [p50, p95, max] = [percentile(latencies, 50), percentile(latencies, 95), Math.max(...latencies)];
	return {p95, runP95s, text: `p50 ${fixed(p50, 0)} / p95 ${fixed(p95, 0)} / max ${fixed(max, 0)} ms (${latencies.length} presses${timeouts ? `, ${timeouts} not shown within ${timeoutMs / 1000} s` : ''})`};
}

/** "load 1.2–3.4" over the runs' samples, printed beside their figure. */
export function loadText(values) {
	const loads = values.filter(value => Number.isFinite(value));
	if (loads.length === 0) return '';
	const [low, high] = [Math.min(...loads), Math.max(...loads)];
	return low === high ? `load ${fixed(low)}` : `load ${fixed(low)}–${fixed(high)}`;
}
