// Runs a planned batch: every attempt of every task through one executor, at most `concurrency`
// at once. The executor owns how an attempt runs (by default a local `hermes` process group, with
// its kill cascade and the cleanup of leftover grandchildren); the runner announces everything
// as BatchEvents; `run` prints them and the dashboard's store is fed by them. Nothing here knows
// about terminals or React.
// This file is the batch's lifecycle: the queue (batch/queue.ts, which asks admission.ts whether a
// task may start: concurrency, per-provider slots, budgets.ts), re-planning and re-routing, cancel, shutdown,
// fail-fast and the report. How one attempt is run is its executor's (executor.ts; the local one
// is task-run.ts); what an attempt tells the batch is entered by attempt-hooks.ts, what a cancel
// does to one task is task-stops.ts; when the batch has finished (and how the dashboard's re-opens
// it) is batch/rounds.ts.
// Past ~300 lines as the one class that composes those parts; each of them lives in its own file.
import {BatchEvents, type BatchListener} from './batch/events.js';
import {batchReport} from './batch/report.js';
import {BatchRounds} from './batch/rounds.js';
import {applyRoutingTo, retryTaskIn, type ReroutableBatch, type RoutingSettings} from './batch/reroute.js';
import {BatchTasks, type TaskEntry} from './batch/tasks.js';
import {buildResult, refusedResult} from './results.js';
import {writePlanOrRemoveFolder, writeResults} from '../run-folder/writes.js';
import {RunRecords} from '../run-folder/records.js';
import {SpendReader} from './spend.js';
import {BatchQueue} from './batch/queue.js';
import {BatchBudgets, inScope, type BudgetLimit} from './budgets.js';
import {BatchMonitor, type MonitorClock} from './batch/monitor.js';
import {defaultStuckAfterMs} from './stuck.js';
import type {TaskOutput} from '../output/task-output.js';
import type {TaskExecutor} from './executor.js';
import {TaskStops} from './task-stops.js';
import {attemptHooks, type AttemptBooks} from './attempt-hooks.js';
import {localExecutor, type TaskRunSettings} from './task-run.js';
import type {BatchEvent, BatchReport, DelegationConfig, RetryTarget, RoutePlan, StopReason, TaskResult, TaskStatus} from '../types.js';

export type RunnerOptions = TaskRunSettings & {
	concurrency: number;
	/** delegate.yaml's concurrency_per_provider: provider → most attempts on it at once. */
	concurrencyPerProvider?: Readonly<Record<string, number>> | undefined;
	/**
	 * A Hermes home's max_concurrent_sessions (hermes/session-cap.ts): profile (`default`: the root) →
	 * most at once, if capped. Asked whenever a task of that home may start, so a task re-routed into
	 * another profile's home is held to that home's cap too.
	 */
	sessionCaps?: ((profile: string) => number | undefined) | undefined;
	/** --budget-usd/--budget-tokens and delegate.yaml's per-route budgets. */
	budgets?: readonly BudgetLimit[] | undefined;
	/** delegate.yaml's stuck_after (default 5 min): quiet this long is task.stuck. */
	stuckAfterMs?: number | undefined;
	/** --stuck-timeout: quiet this long is a stop (timed_out). */
	stuckTimeoutMs?: number | undefined;
	/** The stuck monitor's clock and timer; tests step their own. */
	monitorClock?: MonitorClock | undefined;
	/** How each attempt is run; by default as a local process group, with the settings above. */
	executor?: TaskExecutor | undefined;
	failFast?: boolean | undefined;
	routing?: RoutingSettings | undefined;
	/**
	 * The dashboard's: the batch stays steerable after every task has ended, and a retry (R) then
	 * re-opens it (batch.reopened) for another round that ends with results.json rewritten and
	 * batch.finished again. `run` leaves it off: it exits when the batch has finished.
	 */
	retryAfterFinish?: boolean | undefined;
};

export type {BatchListener} from './batch/events.js';

export class BatchRunner {
	private readonly events = new BatchEvents();
	private readonly tasks: BatchTasks;
	private shuttingDown = false;
	private interrupted = false;
	private readonly records: RunRecords;
	/** Where tasks wait for their start: the one place that decides it. */
	private readonly queue: BatchQueue;
	private readonly budgets: BatchBudgets;
	private readonly monitor: BatchMonitor;
	/** Whether the batch runs or has finished; what start() and whenSettled() wait for. */
	private readonly rounds: BatchRounds;
	/** What re-planning and re-routing (batch/reroute.ts) may read and drive. */
	private readonly reroutable: ReroutableBatch;
	private readonly executor: TaskExecutor;
	/** Each attempt's spend from state.db, read as it ends. */
	private readonly spend: SpendReader;
	private readonly stops = new TaskStops((entry, reason) => {
		this.finishUnstarted(entry, 'cancelled', `cancelled before it started (${reason})`);
		this.queue.pumpSoon(); // it leaves the queue, and the round stops waiting for it
	});
	/** Where each attempt's news is entered (attempt-hooks.ts). */
	private readonly books: AttemptBooks;

	constructor(plan: RoutePlan, private readonly options: RunnerOptions) {
		const executor = options.executor ?? localExecutor(options);
		this.executor = executor;
		this.tasks = new BatchTasks(plan, id => executor.newOutput(telemetry => {
			this.emit({type: 'task.telemetry', id, telemetry, at: Date.now()});
			this.monitor.tools(id, telemetry.tool_calls);
		}));
		this.monitor = new BatchMonitor({
			stuckAfterMs: options.stuckAfterMs ?? defaultStuckAfterMs, stuckTimeoutMs: options.stuckTimeoutMs, clock: options.monitorClock,
			lastOutputAt: id => this.tasks.output(id)?.output.lastOutputAt ?? null,
			emit: event => this.emit(event),
			stop: id => this.cancel(id, {reason: 'stuck'}),
		});
		this.records = new RunRecords(options.folder);
		// The first listener: an event is in the run's record before any client of a host hears it.
		this.events.subscribe(event => this.records.event(event));
		this.spend = new SpendReader(options.env ?? process.env, options.capabilities.flags.source);
		this.budgets = new BatchBudgets(options.budgets ?? [], {
			announce: budget => {
				this.emit({type: 'batch.budget', budget, at: Date.now()});
				this.queue.pumpSoon(); // a reached budget refuses the queued tasks of its scope
			},
			reached: budget => this.cancelScope(budget),
		});
		this.queue = new BatchQueue({concurrency: Math.max(1, options.concurrency), perProvider: options.concurrencyPerProvider ?? {}, perHome: options.sessionCaps, refusal: task => this.budgets.refusal(task)}, {
			waitingTask: id => {
				const entry = this.tasks.entry(id);
				return entry?.status === 'queued' ? entry.task : undefined;
			},
			start: async id => this.runTask(id),
			refuse: (id, reason) => this.finishUnstarted(this.tasks.entry(id)!, 'refused', reason),
			waiting: (id, waitingFor) => this.emit({type: 'task.waiting', id, waitingFor, at: Date.now()}),
		});
		this.rounds = new BatchRounds({writeUp: async () => this.writeUp(), announce: report => this.announce(report)});
		this.books = {
			emit: event => this.emit(event),
			record: record => this.records.record(record),
			monitor: this.monitor,
			budgets: this.budgets,
			spend: this.spend,
			finish: (id, result) => this.finish(id, result),
			failFast: (id, status) => this.maybeFailFast(id, status),
			settled: () => this.rounds.settled,
			// A failure to write is in the report it would have been.
			rewriteReport: () => void this.writeUp().then(report => this.announce(report)).catch(() => undefined),
		};
		this.reroutable = {
			tasks: this.tasks,
			get capabilities() {
				return options.capabilities;
			},
			get routing() {
				return options.routing;
			},
			settled: () => this.rounds.settled,
			finishedOnce: () => this.rounds.finishedOnce,
			reopenable: () => (options.retryAfterFinish ?? false) && !this.interrupted,
			reopen: () => this.reopen(),
			stopping: () => this.shuttingDown,
			emit: event => this.emit(event),
			finish: (id, result) => this.finish(id, result),
			schedule: id => this.schedule(id),
			rewritePlan: () => this.records.rewritePlan(this.tasks.plan),
		};
	}

	get plan(): RoutePlan {
		return this.tasks.plan;
	}

	get runId(): string {
		return this.options.folder.runId;
	}

	subscribe(listener: BatchListener): () => void {
		return this.events.subscribe(listener);
	}

	output(id: string): TaskOutput | undefined {
		return this.tasks.output(id)?.output;
	}

	status(id: string): TaskStatus | undefined {
		return this.tasks.entry(id)?.status;
	}

	/** Runs the batch; resolves with its report once every task has ended and results.json is written. Once per runner. */
	async start(): Promise<BatchReport> {
		const {folder} = this.options;
		this.rounds.begin();
		await writePlanOrRemoveFolder(folder, this.plan);
		this.events.open({type: 'batch.planned', runId: folder.runId, runDir: folder.dir, plan: this.plan, at: Date.now()});
		this.executor.announce?.(event => this.emit(event));

		for (const task of this.plan.tasks) {
			if (task.decision.refused) {
				this.finish(task.id, refusedResult(task, this.options.capabilities.version));
			}
		}

		for (const task of this.plan.tasks.filter(task => !task.decision.refused)) {
			this.schedule(task.id);
		}

		// A re-plan may hand a refused task a route it can run on while others still run: the round waits for it too.
		return this.rounds.wait();
	}

	/**
	 * The report of the batch as it last finished, once no task is queued or running: with
	 * retryAfterFinish, a retry after start() resolved runs another round, and this waits for it.
	 */
	async whenSettled(): Promise<BatchReport> {
		return this.rounds.whenSettled();
	}

	/** Cancel one task: a queued one never starts; a running one gets the kill cascade (task-stops.ts). */
	cancel(id: string, options: {skipGrace?: boolean; reason?: StopReason} = {}): boolean {
		const entry = this.tasks.entry(id);
		return entry !== undefined && this.stops.cancel(entry, options.reason ?? 'cancel', options.skipGrace ?? false);
	}

	/**
	 * The routing message (the dashboard sends it after a route or mode change; it could come over
	 * a socket as well): re-plans the whole batch on this delegation config with the settings and
	 * Hermes it was first planned with. Tasks that have not started take their new plan; running
	 * and finished tasks keep the route they ran on. Announces `batch.replanned` with the tasks
	 * whose plan changed, rewrites plan.json, and returns their ids.
	 */
	applyRouting(delegation: DelegationConfig): string[] {
		return applyRoutingTo(this.reroutable, delegation);
	}

	/**
	 * The re-route message: a queued task, or one that ended (succeeded too), goes (back) into the queue
	 * on the route named `target` of the delegation's active mode, or on an explicit model ({model}). A finished one starts a new attempt:
	 * the earlier attempt's result stays in the task's result (`earlier_attempts`) and its log stays
	 * where it was (attempt 2 logs to `<id>.2.log`). While the batch runs, or after it finished
	 * with retryAfterFinish (the dashboard), unless it was stopped (shutdown).
	 */
	retryTask(id: string, delegation: DelegationConfig, target: RetryTarget): {ok: true; attempt: number} | {ok: false; reason: string} {
		return retryTaskIn(this.reroutable, id, delegation, target);
	}

	private schedule(id: string): void {
		this.rounds.add(this.queue.add(id));
	}

	/** A retry after the finish (retryAfterFinish): the batch runs again, announced before the task is re-queued. */
	private reopen(): void {
		this.shuttingDown = false; // a fail-fast stop ended with the round it stopped; a shutdown is never re-opened
		this.rounds.reopen();
		this.emit({type: 'batch.reopened', at: Date.now()});
	}

	private async writeUp(): Promise<BatchReport> {
		await this.records.written();
		const {folder, capabilities} = this.options;
		const problems = [this.records.problem, this.events.problem, ...this.spend.warnings(), this.budgets.unknownNote()].filter((problem): problem is string => problem !== undefined);
		const report = batchReport({plan: this.plan, results: this.tasks.orderedResults(), folder, capabilities, interrupted: this.interrupted, problems});
		await writeResults(folder, report);
		return report;
	}

	/** batch.finished; then what a listener threw meanwhile, now that the results are safe. */
	private announce(report: BatchReport): void {
		this.emit({type: 'batch.finished', report, at: Date.now()});
		this.events.throwFailure(report.results_error ? 'its results are in this report only' : `its results are in ${report.results_file}`);
	}

	/** SIGINT/SIGTERM/SIGHUP or quitting the dashboard: nothing new starts, everything running is cascaded. */
	shutdown(options: {skipGrace?: boolean} = {}): void {
		this.interrupted = true;
		this.stopAll('shutdown', options.skipGrace ?? false);
	}

	private stopAll(reason: StopReason, skipGrace: boolean, except?: string): void {
		this.shuttingDown = true;
		for (const [id, entry] of this.tasks.all()) {
			if (id !== except && (entry.status === 'queued' || entry.status === 'running' || (skipGrace && entry.status === 'cancelling'))) {
				this.cancel(id, {reason, skipGrace});
			}
		}
	}

	/** budget_action cancel: the running attempts of the reached budget's scope get the cascade. */
	private cancelScope(budget: BudgetLimit): void {
		for (const [id, entry] of this.tasks.all()) {
			if (entry.status === 'running' && inScope(budget, entry.task.decision.route?.name ?? null)) {
				this.cancel(id, {reason: 'budget'});
			}
		}
	}

	private async runTask(id: string): Promise<void> {
		const entry = this.tasks.entry(id)!;
		if (entry.status !== 'queued') {
			return; // cancelled while it waited for a slot
		}

		if (this.shuttingDown) {
			this.finishUnstarted(entry, 'cancelled', 'cancelled before it started');
			return;
		}

		// The task as it is now, not as it was queued: a re-plan may have changed the route meanwhile.
		// Running before the executor is called: whatever it reports from then on lands on a running task.
		entry.status = 'running';
		const execution = this.executor.run(entry.task, entry.attempt, this.tasks.output(id)!, attemptHooks(this.books, entry, entry.attempt));
		entry.run = execution;
		await execution.done;
	}

	private maybeFailFast(id: string, status: TaskStatus): void {
		if (this.options.failFast && (status === 'failed' || status === 'timed_out') && !this.shuttingDown) {
			this.stopAll('fail-fast', false, id);
		}
	}

	private finishUnstarted(entry: TaskEntry, status: TaskStatus, errorText: string): void {
		this.finish(entry.task.id, buildResult(entry.task, {status, exitCode: null, signal: null, startedAt: null, finishedAt: null, stdout: {text: '', truncated: false}, errorText, logPath: null}));
	}

	private finish(id: string, outcome: TaskResult): void {
		const result = this.tasks.finish(id, outcome);
		this.emit({type: 'task.finished', id, result, at: Date.now()});
	}

	private emit(event: BatchEvent): void {
		this.events.emit(event);
	}
}
