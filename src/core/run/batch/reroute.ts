// Changing plans while the batch runs: the routing message re-plans every task that has not
// started, the re-route message sends one task (back) into the queue on a route the operator
// chose. These only keep the books and announce; the batch (runner.ts) runs what they queue.
import type {BatchTasks} from './tasks.js';
import {planRetry, replanBatch} from '../../plan/replan.js';
import {refusedResult} from '../results.js';
import {allWarnings} from '../../plan/routing.js';
import type {BatchEvent, DelegateSettings, DelegationConfig, HermesCapabilities, PlannedTask, RetryTarget, TaskResult} from '../../types.js';

/**
 * What the batch was planned with, so it can be re-planned while it runs (applyRouting):
 * delegate.yaml's tables, and the warnings that came from outside the plan (the config's, the
 * open-files limit's), which a new plan keeps.
 */
export type RoutingSettings = {settings: Pick<DelegateSettings, 'characteristics' | 'characteristicWords'>; outsideWarnings: readonly string[]};

/** The part of a running batch that re-planning reads and drives. */
export type ReroutableBatch = {
	tasks: BatchTasks;
	capabilities: HermesCapabilities;
	routing: RoutingSettings | undefined;
	/** No task is queued or running and the results are written: the batch has finished, for now. */
	settled: () => boolean;
	/** batch.finished was announced at least once: the refusals it reported stand, even if a retry re-opens the batch. */
	finishedOnce: () => boolean;
	/** A retry may re-open the finished batch (the dashboard's, and not after a shutdown). */
	reopenable: () => boolean;
	/** Re-opens the finished batch for a retry: announced before the task is queued. */
	reopen: () => void;
	/** shutdown or fail-fast: nothing new starts. */
	stopping: () => boolean;
	emit: (event: BatchEvent) => void;
	finish: (id: string, result: TaskResult) => void;
	schedule: (id: string) => void;
	rewritePlan: () => void;
};

/** See BatchRunner.applyRouting. */
export function applyRoutingTo(batch: ReroutableBatch, delegation: DelegationConfig): string[] {
	const {routing, tasks} = batch;
	if (!routing) {
		throw new Error('this runner was made without its routing settings: it cannot re-plan');
	}

	if (batch.settled() || batch.stopping()) {
		return [];
	}

	const next = replanBatch({
		current: tasks.plan,
		delegation,
		settings: routing.settings,
		capabilities: batch.capabilities,
		outsideWarnings: routing.outsideWarnings,
		status: id => tasks.entry(id)?.status ?? 'queued',
		unstarted: id => tasks.isUnstarted(id, batch.finishedOnce()),
	});
	tasks.plan = next.plan;
	batch.emit({type: 'batch.replanned', mode: next.plan.mode, tasks: next.changed.map(task => ({id: task.id, plan: task})), warnings: allWarnings(next.plan), at: Date.now()});
	const changed = replanTasks(batch, next.changed);
	batch.rewritePlan();
	return changed;
}

/** See BatchRunner.retryTask. */
export function retryTaskIn(batch: ReroutableBatch, id: string, delegation: DelegationConfig, target: RetryTarget): {ok: true; attempt: number} | {ok: false; reason: string} {
	const {routing, tasks} = batch;
	const entry = tasks.entry(id);
	// A finished batch is re-opened only where someone still watches it (the dashboard); a fail-fast stop ended with it.
	const refusal = !entry || !routing ? `no task ${id} to re-route`
		: batch.settled() ? (batch.reopenable() ? undefined : 'the batch has finished; run the task again in a new batch')
			: batch.stopping() ? 'the batch is stopping' : undefined;
	if (refusal !== undefined || !entry || !routing) {
		return {ok: false, reason: refusal ?? `no task ${id}`};
	}

	const retry = planRetry({plan: tasks.plan, task: entry.task, status: entry.status, attempt: entry.attempt, delegation, target, settings: routing.settings, capabilities: batch.capabilities});
	if (!retry.ok) {
		return retry;
	}

	const {task, attempt} = retry;
	if (batch.settled()) {
		batch.reopen();
	}

	const finished = entry.status !== 'queued';
	if (finished) {
		tasks.newAttempt(entry);
	}

	tasks.setTask(entry, task);
	entry.attempt = attempt;
	batch.emit({type: 'task.requeued', id, attempt, plan: task, at: Date.now()});
	if (finished) {
		batch.schedule(id);
	}

	batch.rewritePlan();
	return {ok: true, attempt};
}

/** New plans for the tasks that have not started; returns the ids that changed. */
function replanTasks(batch: ReroutableBatch, planned: readonly PlannedTask[]): string[] {
	const {tasks, capabilities} = batch;
	const changed: string[] = [];
	for (const task of planned) {
		const entry = tasks.entry(task.id);
		if (!entry || !tasks.isUnstarted(task.id, batch.finishedOnce())) {
			continue;
		}

		const wasRefused = entry.status === 'refused';
		tasks.setTask(entry, task);
		changed.push(task.id);
		if (task.decision.refused) {
			if (wasRefused) {
				tasks.replaceResult(task.id, refusedResult(task, capabilities.version)); // already announced as refused
			} else {
				batch.finish(task.id, refusedResult(task, capabilities.version));
			}
		} else if (wasRefused) {
			tasks.unrefuse(entry);
			batch.schedule(task.id);
		}
	}

	return changed;
}
