// A task's result as the agent gets it: `run`'s result shape, without what would only fill its
// context (the tool-call list, the answer twice) or could carry a secret (a base_url), the texts
// plain and the answer cut at maxAnswerChars with the file that holds all of it.
import type {TaskResult} from '../core/types.js';
import {resultRouteSummary, type BatchView, type TaskSummary} from '../client/batch-view.js';
import {maxAnswerChars, plainLine, plainText} from './text.js';

export function agentResult(result: TaskResult, resultsFile: string | null) {
	const answer = plainText(result.result, maxAnswerChars);
	return {
		id: result.id,
		name: result.name === null ? null : plainLine(result.name),
		status: result.status,
		success: result.success,
		exit_code: result.exit_code,
		route: resultRouteSummary(result.route),
		model_used: result.model_used,
		attempt: result.attempt ?? 1,
		duration_ms: result.duration_ms,
		tokens: result.tokens,
		cost_usd: result.spend?.cost_usd ?? 'unknown',
		...(result.error ? {error: plainText(result.error, 2000).text} : {}),
		result: answer.text,
		...(answer.cut || result.result_truncated ? {result_cut: true, full_text_in: result.log ?? resultsFile} : {}),
		log: result.log,
	};
}

export function agentTask(task: TaskSummary) {
	return {...task, name: task.name === null ? null : plainLine(task.name), reason: plainLine(task.reason), last_lines: task.last_lines.map(plainLine)};
}

export function agentStatus(batchId: string, view: BatchView) {
	const counts: Record<string, number> = {};
	for (const task of view.tasks) counts[task.status] = (counts[task.status] ?? 0) + 1;
	return {batch_id: batchId, finished: view.finished, counts, tasks: view.tasks.map(agentTask)};
}
