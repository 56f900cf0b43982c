// The benchmark suite's verdicts (bench/lib/report.mjs): a figure is met only when every run met
// its target, missed when none did, and "within the spread" when its runs fall on both sides;
// and the suite's Cost table holds every row of issue 39's, each with its restated target.
import {describe, expect, it} from 'vitest';
import {pssMiB, pssPeaks, statusMiB} from '../../bench/lib/procs.mjs';
import {figureOf, latencySummary, spreadText, Table, verdict, withPss} from '../../bench/lib/report.mjs';
import {costRows, rowsOfWorkload} from '../../bench/lib/targets.mjs';
import {sizes} from '../../bench/lib/sizes.mjs';

describe('verdict', () => {
	it('is met only when the figure and every run are at or under the target', () => {
		expect(verdict(0.08, [0.07, 0.08, 0.1], 0.1)).toBe('met');
		expect(verdict(0.08, [0.07, 0.08, 0.11], 0.1)).toBe('within the spread');
	});

	it('is missed only when the figure and every run are over the target', () => {
		expect(verdict(0.2, [0.15, 0.2, 0.3], 0.1)).toBe('missed');
		expect(verdict(0.2, [0.09, 0.2, 0.3], 0.1)).toBe('within the spread');
	});

	it('counts the figure itself (a ratio of medians may lie outside the rounds\' ratios)', () => {
		expect(verdict(0.12, [0.08, 0.09], 0.1)).toBe('within the spread');
	});

	it('takes a run with no figure (no press shown: Infinity) as over any target', () => {
		expect(verdict(30, [20, Number.POSITIVE_INFINITY], 50)).toBe('within the spread');
		expect(verdict(Number.POSITIVE_INFINITY, [Number.POSITIVE_INFINITY], 50)).toBe('missed');
	});
});

describe('the table', () => {
	const row = {id: '1', figure: 'flood CPU', target: 0.1, targetText: '≤ 0.1× mprocs'};
	const figure = (runs: number[], value = runs[Math.floor(runs.length / 2)]!) => ({value, runs, text: `${value} s`});

	it('judges a ratio by each round\'s ratio, not by each tool\'s own spread', () => {
		const table = new Table();
		table.compared(row, figure([1, 1.1, 1.2]), 'mprocs', figure([10, 11, 12]));
		expect(table.rows[0]).toEqual(['1', 'flood CPU', '≤ 0.1× mprocs', '1.1 s', 'mprocs: 11 s', '0.10×', '0.10×', 'met', '']);
		table.compared(row, figure([1, 1.1, 1.3]), 'mprocs', figure([10, 11, 12]));
		expect(table.rows[1]?.slice(5, 8)).toEqual(['0.10×', '0.10–0.11×', 'within the spread']);
	});

	it('says that a peer is missing instead of judging', () => {
		const table = new Table();
		table.compared(row, figure([1]), 'parallel skipped: GNU parallel not installed', undefined);
		expect(table.rows[0]?.slice(4, 8)).toEqual(['parallel skipped: GNU parallel not installed', '—', '1.00', 'no peer']);
	});

	it('keeps every expected row in its place, and says which were not run or failed', () => {
		const table = new Table();
		table.expect('1', 'a', '≤ 1');
		table.expect('2', 'b', '≤ 2');
		table.expect('3', 'c', '≤ 3');
		table.absolute({id: '2', figure: 'b', target: 2, targetText: '≤ 2'}, {value: 3, runs: [3, 4], text: '3'});
		table.fail(['3'], 'timed out');
		expect(table.rows.map(cells => [cells[0], cells[7]])).toEqual([['1', 'not run (BENCH_ONLY)'], ['2', '**missed**'], ['3', '**failed**']]);
	});

	it('reports each run\'s p95 as the spread of a pooled p95', () => {
		const summary = latencySummary([[10, 20, 30], [40, 50, 60]], 0, 5000);
		expect(summary.p95).toBe(60);
		expect(summary.runP95s).toEqual([30, 60]);
		expect(spreadText(summary.runP95s, 0)).toBe('30–60');
	});
});

describe('peak Pss beside peak RSS', () => {
	const runs = (rss: number[], pss: number[]) => rss.map((value, i) => ({rss: value, rssParts: [value - 10, 10], pss: pss[i], pssParts: [pss[i]! - 5, 5]}));

	it('is printed beside the RSS figure, with its parts, and leaves the RSS row\'s ratio and verdict as they were', () => {
		const row = {id: '4a', figure: 'peak RSS', target: 1, targetText: '≤ 1× mprocs'};
		const ours = {'hermes-delegate': runs([100, 110, 120], [60, 70, 80])};
		const theirs = {mprocs: [{rss: 50, pss: 45}, {rss: 50, pss: 45}, {rss: 50, pss: 45}]};
		const rss = figureOf(ours, 'hermes-delegate', 'rss', 0, 'MiB', 'rssParts');
		const peer = figureOf(theirs, 'mprocs', 'rss', 0, 'MiB');
		const plain = new Table();
		plain.compared(row, rss, 'mprocs', peer);
		const beside = new Table();
		beside.compared(row, withPss(rss, figureOf(ours, 'hermes-delegate', 'pss', 0, 'MiB', 'pssParts')), 'mprocs', withPss(peer, figureOf(theirs, 'mprocs', 'pss', 0, 'MiB')));
		expect(beside.rows[0]?.slice(3, 5)).toEqual(['110 MiB (dashboard 100 + host 10); Pss 70 MiB (dashboard 65 + host 5)', 'mprocs: 50 MiB; Pss 45 MiB']);
		expect(beside.rows[0]?.slice(5)).toEqual(plain.rows[0]?.slice(5));
		expect(beside.rows[0]?.[7]).toBe('**missed**');
	});

	it('says when Pss could not be read instead of printing a number', () => {
		const ours = {'hermes-delegate': runs([100], [Number.NaN])};
		const rss = figureOf(ours, 'hermes-delegate', 'rss', 0, 'MiB', 'rssParts');
		expect(withPss(rss, figureOf(ours, 'hermes-delegate', 'pss', 0, 'MiB', 'pssParts'))?.text).toBe('100 MiB (dashboard 90 + host 10); Pss not read');
	});

	it('reads this process\'s Pss from /proc (at most its peak RSS), and keeps each process\'s peak', () => {
		const pss = pssMiB(process.pid);
		expect(pss).toBeGreaterThan(0);
		expect(pss).toBeLessThanOrEqual(statusMiB(process.pid, 'VmHWM'));
		const peaks = pssPeaks([process.pid, 0x7FFF_FFFF]);
		// The peak can only grow: a block touched after the sampler began is counted by the last sample.
		const held = Buffer.alloc(64 * 1024 * 1024, 1);
		const {sum, parts} = peaks.stop();
		expect(held.length).toBeGreaterThan(0);
		expect(parts[0]).toBeGreaterThanOrEqual(pss! + 32);
		expect(parts[1]).toBeNaN();
		expect(sum).toBeNaN();
	});
});

describe("issue 39's Cost table", () => {
	const rows = costRows(sizes({tiny: false, scale: 1, soakSeconds: undefined, idleSeconds: undefined}));

	it('has every row of the issue, in its order, with the restated targets at the issue\'s sizes', () => {
		expect(Object.values(rows).map(row => [row.id, row.targetText])).toEqual([
			['1', '≤ 0.1× mprocs'],
			['2', '≤ 0.4× mprocs'],
			['3', '≤ 0.5× mprocs'],
			['4a', '≤ 1× mprocs'],
			['4b', '≤ 1× mprocs'],
			['4c', '≤ 120 MiB'],
			['5a', '≤ 50 ms'],
			['5b', '≤ 50 ms'],
			['6', '≤ 36.5 KB/s (25 % of 146)'],
			['7a', '≤ 1× parallel'],
			['7b', '≤ 1.3× parallel'],
			['8a', '≤ 200 ms'],
			['8b', '≤ 0.5 % of a core'],
			['8c', '≤ 10 %'],
		]);
		for (const [key, size] of [['floodCpu', 'flood 16×100000 lines'], ['trickleCpu', 'trickle 32×20 lines/s'], ['slowCpu', 'slow trickle 32×2 lines/s×60s'], ['quickCpu', 'quick 300 × -j 8'], ['attach', '200 tasks'], ['idle', '16 quiet tasks']]) {
			expect(rows[key!]?.figure).toContain(size);
		}
	});

	it('is filled, row for row, by the workloads', () => {
		expect(Object.values(rowsOfWorkload).flat().sort()).toEqual(Object.keys(rows).sort());
	});
});
