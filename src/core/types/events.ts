// Everything the runner announces: `run --jsonl` prints these, and the store is fed by them.
import type {PlannedTask, RoutePlan} from './plan.js';
import type {BatchReport, TaskResult, TaskTelemetry} from './results.js';
import type {RoutingMode} from './routes.js';
import type {Spend} from './spend.js';
import type {CancellingInfo} from './status.js';

/** Everything the runner announces. `run --jsonl` prints these; the store is fed by them. */
export type BatchEvent =
	| {type: 'batch.planned'; runId: string; runDir: string; plan: RoutePlan; at: number}
	/** The routing changed during the run: tasks that had not started took new plans (only those whose plan changed are listed); the batch's warnings and every task's, as they now stand. */
	| {type: 'batch.replanned'; mode: RoutingMode; tasks: Array<{id: string; plan: PlannedTask}>; warnings: string[]; at: number}
	/** The operator sent the task to another route (retryTask): queued again, as attempt `attempt`. */
	| {type: 'task.requeued'; id: string; attempt: number; plan: PlannedTask; at: number}
	/** host: the worker host it runs on (tasks on worker hosts); pid is a pid there. */
	| {type: 'task.started'; id: string; pid: number; argv: string[]; host?: string | undefined; at: number}
	| {type: 'task.cancelling'; id: string; cancelling: CancellingInfo; at: number}
	| {type: 'task.killed'; id: string; at: number}
	| {type: 'task.telemetry'; id: string; telemetry: TaskTelemetry; at: number}
	/**
	 * What the running attempt has spent so far, as its session row in state.db now stands
	 * (docs/spend.md): a whole snapshot, so the newest replaces the ones before. Sent while the attempt runs,
	 * when the row changes; the final figure is the result's `spend` (task.finished).
	 */
	| {type: 'task.spend'; id: string; attempt: number; spend: Spend; at: number}
	/**
	 * What a queued task waits for, each time that changes: a free slot of the batch,
	 * its provider's slots (concurrency_per_provider), ... as a sentence for the pane; null when
	 * it waits for nothing but its turn. Refusals for a reached budget are task.finished (refused).
	 */
	| {type: 'task.waiting'; id: string; waitingFor: string | null; at: number}
	/**
	 * A running attempt had neither output nor tool activity for stuck_after (stuck: true), or
	 * showed some again (stuck: false). Nothing is killed for it unless --stuck-timeout says so.
	 */
	| {type: 'task.stuck'; id: string; attempt: number; stuck: boolean; quietSince: number; at: number}
	/** A budget's standing changed: 80 % reached (warning), or the budget reached (no further task of its scope starts). */
	| {type: 'batch.budget'; budget: BudgetStanding; at: number}
	/** Tasks on worker hosts: the fleet changed (a worker's free slots, one lost or back, the runner host's own NATS connection). A whole snapshot. */
	| {type: 'batch.fleet'; fleet: FleetStanding; at: number}
	| {type: 'task.finished'; id: string; result: TaskResult; at: number}
	/**
	 * Every task has ended and results.json is written. In the dashboard a retry after that re-opens
	 * the batch (batch.reopened), and it is announced again, with the new report, when that ends:
	 * the last batch.finished is the batch's report. `run` ends at the first, so it says it once.
	 */
	| {type: 'batch.finished'; report: BatchReport; at: number}
	/** A retry (R) after batch.finished: the batch runs again; task.requeued follows, and batch.finished again at the end. */
	| {type: 'batch.reopened'; at: number};

/** The worker hosts of a batch that runs on them, as its runner host sees them. */
export type FleetStanding = {
	/** The NATS server's URL (credentials in it are not kept here). */
	server: string;
	/** epoch ms since when the runner host has no connection to NATS (it reconnects by itself); null: connected. */
	offlineSince: number | null;
	/** The live workers: free of all slots. */
	workers: Array<{name: string; slots: number; free: number}>;
	/** Workers lost while this batch ran, until they come back: why, and when. */
	lost: Array<{name: string; why: string; at: number}>;
};

/** One budget (--budget-usd, --budget-tokens, a route's `budget` in delegate.yaml) as known spend stands against it. */
export type BudgetStanding = {
	/** `batch`, or the route's name for a per-route budget. */
	scope: {kind: 'batch'} | {kind: 'route'; route: string};
	unit: 'usd' | 'tokens';
	limit: number;
	/** Known spend of the scope: finished attempts' spend plus running attempts' live spend; unknown counts as nothing. */
	spent: number;
	level: 'warning' | 'reached';
	/** budget_action: `stop` starts no further task of the scope; `cancel` also cancels its running ones with the cascade. */
	action: 'stop' | 'cancel';
};
