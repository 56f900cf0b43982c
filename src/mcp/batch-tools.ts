// batch_status, batch_wait and batches: what an agent polls, blocks on, and finds its work with.
import type {BatchEvent, TaskResult} from '../core/types.js';
import {attachCommandFor, describeTasks, listRecentRuns, runHomes} from '../client/live-runs.js';
import {reportBatchView, type BatchView} from '../client/batch-view.js';
import type {McpContext} from './context.js';
import {defaultWaitSeconds} from './inputs.js';
import {reachBatch, release, type Reached} from './batch-access.js';
import {agentResult, agentStatus} from './results.js';

export async function batchStatus(context: McpContext, args: {batch_id: string; lines?: number | undefined}) {
	const reached = await reachBatch(context, args.batch_id);
	try {
		return agentStatus(reached.run.runId, viewOf(reached, args.lines ?? 3));
	} finally {
		await release(reached);
	}
}

function viewOf(reached: Reached, lines: number): BatchView {
	return reached.kind === 'live' ? reached.batch.view({lines}) : reportBatchView(reached.report);
}

export type WaitProgress = (finished: number, total: number, message: string) => void;

/**
 * Blocks until the batch has finished (until "all") or one more task has (until "any"), at most
 * timeoutS; then the status and every finished task's result. `progress`: each task that finishes.
 */
export async function batchWait(context: McpContext, args: {batch_id: string; until?: 'all' | 'any' | undefined; timeout_s?: number | undefined}, progress?: WaitProgress, signal?: AbortSignal) {
	const reached = await reachBatch(context, args.batch_id);
	try {
		let timedOut = false;
		let live: Map<string, TaskResult> | undefined;
		if (reached.kind === 'live') {
			const seen = context.reported.get(reached.run.runId) ?? new Set<string>();
			const waited = await settled(reached, args.until ?? 'all', seen, (args.timeout_s ?? defaultWaitSeconds) * 1000, progress, signal);
			timedOut = !waited.over;
			live = waited.results;
		}

		const view = viewOf(reached, 3);
		const resultsFile = view.report?.results_file ?? null;
		const results: TaskResult[] = view.report ? view.report.results : [...(live?.values() ?? [])];
		const finished = results.filter(result => result.status !== 'queued' && result.status !== 'running');
		context.reported.set(reached.run.runId, new Set([...(context.reported.get(reached.run.runId) ?? []), ...finished.map(result => result.id)]));
		return {
			...agentStatus(reached.run.runId, view),
			timed_out: timedOut,
			...(timedOut ? {hint: `still running: call batch_wait again, or watch it with \`${attachCommandFor(reached.run.runId)}\``} : {}),
			...(view.report ? {summary: view.report.summary} : {}),
			results: finished.map(result => agentResult(result, resultsFile)),
		};
	} finally {
		await release(reached);
	}
}

/**
 * over: the batch finished (until "all"), or a task this session has not been given yet did (until
 * "any"); false at the timeout. results: the tasks finished so far.
 */
async function settled(reached: Extract<Reached, {kind: 'live'}>, until: 'all' | 'any', seen: ReadonlySet<string>, timeoutMs: number, progress: WaitProgress | undefined, signal: AbortSignal | undefined): Promise<{over: boolean; results: Map<string, TaskResult>}> {
	const {batch, connection} = reached;
	const results = new Map<string, TaskResult>();
	// What had finished before we came: the snapshot's own events.
	for (const {event} of connection.snapshot.events) remember(event, results);
	const total = connection.snapshot.plan.tasks.length;
	// "any": a task finished that this session's batch_wait has not returned yet, even before we came.
	const unseen = () => [...results.keys()].some(id => !seen.has(id));
	if (batch.view({lines: 0}).finished || (until === 'any' && unseen())) return {over: true, results};
	const over = await new Promise<boolean>(resolve => {
		const done = (value: boolean) => {
			clearTimeout(timer);
			stop();
			signal?.removeEventListener('abort', aborted);
			resolve(value);
		};

		const aborted = () => done(false);
		const timer = setTimeout(() => done(false), timeoutMs);
		signal?.addEventListener('abort', aborted);
		const stop = batch.onEvent(event => {
			remember(event, results);
			if (event.type === 'task.finished') {
				progress?.(results.size, total, `${event.id} ${event.result.status}`);
				if (until === 'any' && unseen()) done(true);
			} else if (event.type === 'batch.finished') {
				done(true);
			}
		});
		void connection.closed.then(() => done(true));
	});
	return {over, results};
}

function remember(event: BatchEvent, results: Map<string, TaskResult>): void {
	if (event.type === 'task.finished') results.set(event.id, event.result);
	else if (event.type === 'task.requeued') results.delete(event.id);
}

export function batches(context: McpContext, args: {limit?: number | undefined}) {
	return {
		batches: listRecentRuns(runHomes(context.env), {limit: args.limit ?? 10}).map(run => ({
			batch_id: run.runId,
			state: run.state,
			finished: run.batchFinished,
			started_at: run.startedAt,
			started_by: run.origin,
			tasks: describeTasks(run.tasks),
			...(run.state === 'live' ? {watch: attachCommandFor(run.runId)} : {}),
		})),
	};
}
