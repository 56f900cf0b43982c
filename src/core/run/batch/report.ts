// The report a finished batch writes to results.json and announces as batch.finished: the
// results in plan order, their summary, token and spend totals, and every warning, including any run
// folder write and any event listener that failed along the way.
import {hermesSummary} from '../../hermes/probe.js';
import {summarize, tokenTotals} from '../results.js';
import {spendTotals} from '../spend.js';
import type {RunFolder} from '../../run-folder/folder.js';
import {allWarnings} from '../../plan/routing.js';
import type {BatchReport, HermesCapabilities, RoutePlan, TaskResult} from '../../types.js';

export function batchReport(input: {
	plan: RoutePlan;
	results: TaskResult[];
	folder: RunFolder;
	capabilities: HermesCapabilities;
	interrupted: boolean;
	/** What went wrong on the way without stopping the batch: a record not written, a listener that threw. */
	problems: readonly string[];
}): BatchReport {
	const {plan, results, folder, problems} = input;
	const tokens = tokenTotals(results);
	return {
		summary: summarize(results),
		run_id: folder.runId,
		run_dir: folder.dir,
		results_file: folder.resultsPath,
		mode: plan.mode,
		interrupted: input.interrupted,
		hermes: hermesSummary(input.capabilities),
		warnings: [...allWarnings(plan), ...problems],
		...(tokens ? {tokens} : {}),
		spend: spendTotals(results),
		results,
	};
}
