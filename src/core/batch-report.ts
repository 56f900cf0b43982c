// The report a finished batch writes to results.json and announces as batch.finished: the
// results in plan order, their summary and token totals, and every warning, including any run
// folder write that failed along the way.
import {hermesSummary} from './hermes-probe.js';
import {summarize, tokenTotals} from './results.js';
import type {RunFolder} from './run-folder.js';
import {allWarnings} from './routing.js';
import type {BatchReport, HermesCapabilities, RoutePlan, TaskResult} from './types.js';

export function batchReport(input: {
	plan: RoutePlan;
	results: TaskResult[];
	folder: RunFolder;
	capabilities: HermesCapabilities;
	interrupted: boolean;
	recordProblem: string | undefined;
}): BatchReport {
	const {plan, results, folder, recordProblem} = input;
	const tokens = tokenTotals(results);
	return {
		summary: summarize(results),
		run_id: folder.runId,
		run_dir: folder.dir,
		results_file: folder.resultsPath,
		mode: plan.mode,
		interrupted: input.interrupted,
		hermes: hermesSummary(input.capabilities),
		warnings: [...allWarnings(plan), ...(recordProblem ? [recordProblem] : [])],
		...(tokens ? {tokens} : {}),
		results,
	};
}
