// The rows of the suite's one table, and the figures they are made of. Every row is
// [workload, figure, hermes-delegate, baseline, ratio, target, result]; a missed target is a row
// that says so, never a failure of the suite.
import {median, percentile} from './stats.mjs';

export const fixed = (value, digits = 2) => value.toFixed(digits);
export const ratioText = ratio => `${fixed(ratio)}×`;

/**
 * issue 24's "today's": the in-process dashboard's ratios against mprocs as session 19 recorded
 * them (bench/RESULTS.md, a55994a, another machine), used only when the in-process build is not
 * measured in the same run (--tiny, BENCH_IN_PROCESS=0); keys p95 is its control-mode figure.
 */
export const recordedToday = {
	flood: {wall: 0.18, CPU: 0.12, 'peak RSS': 1.02},
	trickle: {CPU: 0.57, 'peak RSS': 0.96},
	keysP95Ms: 58,
};

/**
 * The median of `results[tool]` by `key` as {value, text}, the text with the parts of the run
 * whose figure is the median (`partsKey`: dashboard + runner host) when there are two.
 */
export function figureOf(results, tool, key, digits, unit, partsKey) {
	const list = results[tool];
	if (list === undefined) return undefined;
	const value = median(list.map(result => result[key]));
	const parts = partsKey && list.find(result => result[key] === value)?.[partsKey];
	const partsText = parts && parts.length === 2 ? ` (dashboard ${fixed(parts[0], digits)} + host ${fixed(parts[1], digits)})` : '';
	return {value, text: `${fixed(value, digits)} ${unit}${partsText}`};
}

export class Table {
	static header = ['workload', 'figure', 'hermes-delegate', 'baseline', 'ratio', 'target', 'result', 'load'];
	rows = [];
	/** The load average while the figures of the workload being reported were taken. */
	load = '';

	/** A row as given, the current load after it. */
	push(row) {
		this.rows.push([...row, this.load]);
	}

	/** One figure compared with a baseline: `target` is the highest ratio that meets it. */
	compared(workload, figure, ours, baselineName, theirs, target) {
		if (theirs === undefined) {
			this.push([workload, figure, ours.text, baselineName, '—', target ? `≤ ${target}×` : '—', 'no baseline']);
			return;
		}

		const ratio = ours.value / theirs.value;
		this.push([workload, figure, ours.text, `${baselineName}: ${theirs.text}`, ratioText(ratio), target === undefined ? '—' : `≤ ${target}×`, target === undefined ? '' : ratio <= target ? 'met' : '**missed**']);
	}

	/** One figure against an absolute target (no baseline named for it in the issue). */
	absolute(workload, figure, text, limitText, met) {
		this.push([workload, figure, text, '(none: absolute target)', '—', limitText, met ? 'met' : '**missed**']);
	}

	/**
	 * Issue 24: the ratio against mprocs within 10 % of today's (the in-process dashboard's). With
	 * the in-process build measured in this run the two ratios share mprocs' median, so theirs is
	 * ours over the in-process figure; without it, our mprocs ratio over the recorded one.
	 */
	againstToday(workload, figure, ours, inProcess, mprocs, recordedRatio, unit, digits = 2) {
		const label = `${figure}, host vs in-process`;
		if (inProcess !== undefined) {
			const ratio = ours.value / inProcess.value;
			const mprocsRatios = mprocs ? ` (mprocs ratios ${ratioText(ours.value / mprocs.value)} vs ${ratioText(inProcess.value / mprocs.value)})` : '';
			this.push([workload, label, `${fixed(ours.value, digits)} ${unit}`, `in-process: ${inProcess.text}${mprocsRatios}`, ratioText(ratio), '≤ 1.1×', ratio <= 1.1 ? 'met' : '**missed**']);
			return;
		}

		if (mprocs === undefined || recordedRatio === undefined) {
			this.push([workload, label, `${fixed(ours.value, digits)} ${unit}`, 'in-process not measured, no mprocs', '—', '≤ 1.1×', 'no baseline']);
			return;
		}

		const ours24 = ours.value / mprocs.value;
		const ratio = ours24 / recordedRatio;
		this.push([workload, label, `mprocs ratio ${ratioText(ours24)}`, `in-process not measured: session 19 recorded ${ratioText(recordedRatio)}`, ratioText(ratio), '≤ 1.1×', ratio <= 1.1 ? 'met (recorded)' : '**missed** (recorded)']);
	}
}

/** p50 / p95 / max of latencies in ms, with the count and the timeouts; p95 Infinity when none. */
export function latencySummary(latencies, timeouts, timeoutMs) {
	if (latencies.length === 0) {
		return {p95: Infinity, text: `no press shown within ${timeoutMs / 1000} s (${timeouts} tried)`};
	}

	const [p50, p95, max] = [percentile(latencies, 50), percentile(latencies, 95), Math.max(...latencies)];
	return {p95, text: `p50 ${fixed(p50, 0)} / p95 ${fixed(p95, 0)} / max ${fixed(max, 0)} ms (${latencies.length} presses${timeouts ? `, ${timeouts} not shown within ${timeoutMs / 1000} s` : ''})`};
}

/** "load 1.2–3.4" over the runs' samples, printed beside their figure. */
export function loadText(values) {
	const loads = values.filter(value => Number.isFinite(value));
	if (loads.length === 0) return '';
	const [low, high] = [Math.min(...loads), Math.max(...loads)];
	return low === high ? `load ${fixed(low)}` : `load ${fixed(low)}–${fixed(high)}`;
}
