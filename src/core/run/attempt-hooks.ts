// What one attempt's executor tells the batch (executor.ts ExecutionHooks), entered in the
// runner's books: its events (a cancelling one marks the task), the stuck monitor and the budgets,
// processes.jsonl, its result with its spend, fail-fast; and a late result — the real end of an
// attempt already declared `lost`, from a worker host that came back — which replaces `lost` and
// has results.json written again if the batch had finished meanwhile.
import type {ProcessRecord} from '../run-folder/folder.js';
import type {BatchEvent, TaskResult, TaskStatus} from '../types.js';
import type {BatchMonitor} from './batch/monitor.js';
import type {TaskEntry} from './batch/tasks.js';
import type {BatchBudgets} from './budgets.js';
import type {ExecutionHooks} from './executor.js';
import type {SpendReader} from './spend.js';

/** The parts of the runner an attempt's news goes to. */
export type AttemptBooks = {
	emit(event: BatchEvent): void;
	record(record: ProcessRecord): void;
	monitor: Pick<BatchMonitor, 'started' | 'tools' | 'ended'>;
	budgets: Pick<BatchBudgets, 'live' | 'finished'>;
	spend: Pick<SpendReader, 'attach'>;
	/** The task's result, announced (task.finished). */
	finish(id: string, result: TaskResult): void;
	failFast(id: string, status: TaskStatus): void;
	/** Whether the batch has finished (its report written): a late result then rewrites it. */
	settled(): boolean;
	/** results.json written again and batch.finished announced again. */
	rewriteReport(): void;
};

/** The hooks for attempt `attempt` of `entry`'s task, which has just been marked running. */
export function attemptHooks(books: AttemptBooks, entry: TaskEntry, attempt: number): ExecutionHooks {
	// The task as this attempt runs it: a re-route later gives the entry a new one, not this attempt.
	const {task} = entry;
	const {id} = task;
	const route = task.decision.route?.name ?? null;
	return {
		emit: event => {
			if (event.type === 'task.cancelling') {
				entry.status = 'cancelling';
			}

			books.emit(event);
			// After the event itself: a budget it reaches is news that follows it.
			if (event.type === 'task.started') books.monitor.started(id, attempt);
			if (event.type === 'task.spend' && event.attempt === attempt) {
				books.monitor.tools(id, event.spend.tool_calls);
				books.budgets.live(id, attempt, route, event.spend);
			}
		},
		record: record => books.record(record),
		finished: result => {
			books.monitor.ended(id);
			// A result from a worker host carries the spend read there, from that host's state.db.
			const withSpend = result.host === undefined ? books.spend.attach(task, result) : result;
			books.finish(id, withSpend);
			books.budgets.finished(id, attempt, route, withSpend.spend);
			books.failFast(id, result.status);
		},
		// Taken only while the task is still that lost attempt (not re-run, not cancelled meanwhile).
		lateResult: result => {
			if (entry.attempt !== attempt || entry.status !== 'lost') return;
			books.finish(id, result);
			if (books.settled()) books.rewriteReport();
		},
	};
}
