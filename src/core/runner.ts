// Runs a planned batch: one `hermes` process group per task, at most `concurrency` at once.
// The runner owns every process it starts for its whole life (the kill cascade, cleanup of
// leftover grandchildren) and announces everything as BatchEvents; `run` prints them and the
// dashboard's store is fed by them. Nothing here knows about terminals or React.
import pLimit from 'p-limit';
import {hermesSummary} from './hermes-probe.js';
import {buildResult, refusedResult, summarize, tokenTotals} from './results.js';
import {BatchEvents, type BatchListener} from './batch-events.js';
import type {RunFolder} from './run-folder.js';
import {writePlanOrRemoveFolder, writeResults} from './run-folder-writes.js';
import {RunRecords} from './run-records.js';
import {newAttemptOutput, TaskRun, type AttemptOutput} from './task-run.js';
import type {TaskOutput} from './task-output.js';
import type {BatchEvent, BatchReport, DelegateSettings, DelegationConfig, HermesCapabilities, PlannedTask, RoutePlan, StopReason, TaskResult, TaskStatus} from './types.js';
import {allWarnings} from './routing.js';
import {planRetry, replanBatch} from './replan.js';

export type RunnerOptions = {
	hermesBin: string;
	/** What the installed Hermes can do (hermes-probe.ts): decides the output mode and the flags. */
	capabilities: HermesCapabilities;
	folder: RunFolder;
	concurrency: number;
	graceMs: number;
	/** Batch timeout per task; a task's own `timeout` wins. */
	timeoutMs?: number | undefined;
	failFast?: boolean | undefined;
	env?: NodeJS.ProcessEnv | undefined;
	/** Lines of output kept in memory per task for the dashboard. */
	tailLines?: number | undefined;
	/** false when nobody watches (headless run): output goes to the logs and the result only. */
	display?: boolean | undefined;
	/** Most bytes one task's log keeps (its first and last part); 0 or absent: no limit. */
	logLimitBytes?: number | undefined;
	/** How often each task's process tree is scanned for descendants that leave its session (setsid); 0: never. */
	descendantScanMs?: number | undefined;
	/**
	 * What the batch was planned with, so it can be re-planned while it runs (applyRouting):
	 * delegate.yaml's tables, and the warnings that came from outside the plan (the config's, the
	 * open-files limit's), which a new plan keeps.
	 */
	routing?: {settings: Pick<DelegateSettings, 'characteristics' | 'characteristicWords'>; outsideWarnings: readonly string[]} | undefined;
};

type Live = {
	task: PlannedTask;
	status: TaskStatus;
	/** The attempt's process, from the moment it is taken from the queue: absent, the task has not started. */
	run?: TaskRun;
	/** 1, then one more each time the operator re-routes the finished task (retryTask). */
	attempt: number;
	/** The results of the attempts before this one, oldest first. */
	earlier: TaskResult[];
};

export type {BatchListener} from './batch-events.js';

export class BatchRunner {
	private readonly events = new BatchEvents();
	private readonly live = new Map<string, Live>();
	private readonly outputs = new Map<string, AttemptOutput>();
	private readonly results = new Map<string, TaskResult>();
	private shuttingDown = false;
	private interrupted = false;
	private readonly records: RunRecords;
	/** The plan as it is now: applyRouting replaces it. */
	private currentPlan: RoutePlan;
	private readonly limit: ReturnType<typeof pLimit>;
	/** Tasks handed to the concurrency limit and not yet done; start() waits until none are left. */
	private readonly pending: Array<Promise<void>> = [];
	/** start() has seen every task end: nothing can be started or re-planned any more. */
	private settled = false;

	constructor(plan: RoutePlan, private readonly options: RunnerOptions) {
		this.currentPlan = plan;
		this.records = new RunRecords(options.folder);
		this.limit = pLimit(Math.max(1, options.concurrency));
		for (const task of plan.tasks) {
			this.live.set(task.id, {task, status: task.decision.refused ? 'refused' : 'queued', attempt: 1, earlier: []});
			this.makeOutput(task.id);
		}
	}

	/** A fresh output buffer (and stream-json decoder) for a task's next attempt. */
	private makeOutput(id: string): void {
		this.outputs.set(id, newAttemptOutput(this.options.capabilities, this.options, telemetry => this.emit({type: 'task.telemetry', id, telemetry, at: Date.now()})));
	}

	get plan(): RoutePlan {
		return this.currentPlan;
	}

	get runId(): string {
		return this.options.folder.runId;
	}

	subscribe(listener: BatchListener): () => void {
		return this.events.subscribe(listener);
	}

	output(id: string): TaskOutput | undefined {
		return this.outputs.get(id)?.output;
	}

	status(id: string): TaskStatus | undefined {
		return this.live.get(id)?.status;
	}

	async start(): Promise<BatchReport> {
		const {folder} = this.options;
		await writePlanOrRemoveFolder(folder, this.plan);
		this.events.open({type: 'batch.planned', runId: folder.runId, runDir: folder.dir, plan: this.plan, at: Date.now()});

		for (const task of this.plan.tasks) {
			if (task.decision.refused) {
				this.finish(task.id, refusedResult(task, this.options.capabilities.version));
			}
		}

		for (const task of this.plan.tasks.filter(task => !task.decision.refused)) {
			this.schedule(task.id);
		}

		// A re-plan may hand a refused task a route it can run on while others still run.
		while (this.pending.length > 0) {
			await Promise.all(this.pending.splice(0));
		}

		this.settled = true;
		await this.records.written();

		const report: BatchReport = {
			summary: summarize(this.orderedResults()),
			run_id: folder.runId,
			run_dir: folder.dir,
			results_file: folder.resultsPath,
			mode: this.plan.mode,
			interrupted: this.interrupted,
			hermes: hermesSummary(this.options.capabilities),
			warnings: [...allWarnings(this.plan), ...(this.records.problem ? [this.records.problem] : [])],
			...withTokens(this.orderedResults()),
			results: this.orderedResults(),
		};
		await writeResults(folder, report);
		this.emit({type: 'batch.finished', report, at: Date.now()});
		return report;
	}

	/** Cancel one task: a queued one never starts; a running one gets the kill cascade. */
	cancel(id: string, options: {skipGrace?: boolean; reason?: StopReason} = {}): boolean {
		const entry = this.live.get(id);
		if (!entry) {
			return false;
		}

		const reason = options.reason ?? 'cancel';
		if (entry.status === 'queued') {
			this.finishUnstarted(entry, 'cancelled', `cancelled before it started (${reason})`);
			return true;
		}

		if (entry.status === 'cancelling' && options.skipGrace) {
			entry.run?.skipGrace();
			return true;
		}

		if (entry.status !== 'running') {
			return false;
		}

		entry.run?.stop(reason, options.skipGrace ?? false);
		return true;
	}

	/**
	 * The routing message (the dashboard sends it after a route or mode change; it could come over
	 * a socket as well): re-plans the whole batch on this delegation config with the settings and
	 * Hermes it was first planned with. Tasks that have not started take their new plan; running
	 * and finished tasks keep the route they ran on. Announces `batch.replanned` with the tasks
	 * whose plan changed, rewrites plan.json, and returns their ids.
	 */
	applyRouting(delegation: DelegationConfig): string[] {
		const {routing} = this.options;
		if (!routing) {
			throw new Error('this runner was made without its routing settings: it cannot re-plan');
		}

		if (this.settled || this.shuttingDown) {
			return [];
		}

		const next = replanBatch({
			current: this.currentPlan,
			delegation,
			settings: routing.settings,
			capabilities: this.options.capabilities,
			outsideWarnings: routing.outsideWarnings,
			status: id => this.live.get(id)?.status ?? 'queued',
			unstarted: id => this.isUnstarted(id),
		});
		this.currentPlan = next.plan;
		this.emit({type: 'batch.replanned', mode: next.plan.mode, tasks: next.changed.map(task => ({id: task.id, plan: task})), warnings: allWarnings(next.plan), at: Date.now()});
		const changed = this.replan(next.changed);
		this.records.rewritePlan(this.currentPlan);
		return changed;
	}

	/**
	 * The re-route message: a queued, failed, cancelled or timed-out task goes (back) into the queue
	 * on the route `routeName` of the delegation's active mode. A finished one starts a new attempt:
	 * the earlier attempt's result stays in the task's result (`earlier_attempts`) and its log stays
	 * where it was (attempt 2 logs to `<id>.2.log`). Only while the batch runs.
	 */
	retryTask(id: string, delegation: DelegationConfig, routeName: string): {ok: true; attempt: number} | {ok: false; reason: string} {
		const entry = this.live.get(id);
		const {routing} = this.options;
		const refusal = !entry || !routing ? `no task ${id} to re-route`
			: this.settled ? 'the batch has finished; run the task again in a new batch'
				: this.shuttingDown ? 'the batch is stopping' : undefined;
		if (refusal !== undefined || !entry || !routing) {
			return {ok: false, reason: refusal ?? `no task ${id}`};
		}

		const retry = planRetry({plan: this.currentPlan, task: entry.task, status: entry.status, attempt: entry.attempt, delegation, routeName, settings: routing.settings, capabilities: this.options.capabilities});
		if (!retry.ok) {
			return retry;
		}

		const {task, attempt} = retry;
		const finished = entry.status !== 'queued';
		if (finished) {
			const previous = this.results.get(id);
			if (previous) {
				entry.earlier.push(previous);
			}

			this.results.delete(id);
			Object.assign(entry, {status: 'queued', run: undefined});
			this.makeOutput(id);
		}

		entry.task = task;
		entry.attempt = attempt;
		this.currentPlan = {...this.currentPlan, tasks: this.currentPlan.tasks.map(planned => (planned.id === id ? task : planned))};
		this.emit({type: 'task.requeued', id, attempt, plan: task, at: Date.now()});
		if (finished) {
			this.schedule(id);
		}

		this.records.rewritePlan(this.currentPlan);
		return {ok: true, attempt};
	}

	/**
	 * New plans for tasks of this batch: a task that has not started (queued, or refused) takes its
	 * new plan, and runs or is refused by it; running and finished tasks keep the route they ran
	 * on. Returns the ids that changed.
	 */
	replan(tasks: readonly PlannedTask[]): string[] {
		const changed: string[] = [];
		for (const task of tasks) {
			const entry = this.live.get(task.id);
			if (!entry || !this.isUnstarted(task.id)) {
				continue;
			}

			const wasRefused = entry.status === 'refused';
			entry.task = task;
			changed.push(task.id);
			this.currentPlan = {...this.currentPlan, tasks: this.currentPlan.tasks.map(planned => (planned.id === task.id ? task : planned))};
			if (task.decision.refused) {
				if (wasRefused) {
					this.results.set(task.id, refusedResult(task, this.options.capabilities.version)); // already announced as refused
				} else {
					this.finish(task.id, refusedResult(task, this.options.capabilities.version));
				}
			} else if (wasRefused) {
				entry.status = 'queued';
				this.results.delete(task.id);
				this.schedule(task.id);
			}
		}

		return changed;
	}

	/** Queued, or refused by its plan before it could start: a new plan may still change it. */
	private isUnstarted(id: string): boolean {
		const entry = this.live.get(id);
		return entry !== undefined && entry.run === undefined && (entry.status === 'queued' || (entry.status === 'refused' && !this.settled));
	}

	private schedule(id: string): void {
		this.pending.push(this.limit(async () => this.runTask(id)));
	}

	/** SIGINT/SIGTERM/SIGHUP or quitting the dashboard: nothing new starts, everything running is cascaded. */
	shutdown(options: {skipGrace?: boolean} = {}): void {
		this.interrupted = true;
		this.stopAll('shutdown', options.skipGrace ?? false);
	}

	private stopAll(reason: StopReason, skipGrace: boolean, except?: string): void {
		this.shuttingDown = true;
		for (const [id, entry] of this.live) {
			if (id !== except && (entry.status === 'queued' || entry.status === 'running' || (skipGrace && entry.status === 'cancelling'))) {
				this.cancel(id, {reason, skipGrace});
			}
		}
	}

	private async runTask(id: string): Promise<void> {
		const entry = this.live.get(id)!;
		if (entry.status !== 'queued') {
			return; // cancelled while it waited for a slot
		}

		if (this.shuttingDown) {
			this.finishUnstarted(entry, 'cancelled', 'cancelled before it started');
			return;
		}

		// The task as it is now, not as it was queued: replan() may have changed the route meanwhile.
		const run = new TaskRun(entry.task, entry.attempt, this.outputs.get(id)!, this.options, {
			emit: event => this.emit(event),
			record: record => this.records.record(record),
			cancelling: () => {
				entry.status = 'cancelling';
			},
			finished: result => {
				this.finish(id, result);
				this.maybeFailFast(id, result.status);
			},
		});
		entry.run = run;
		entry.status = 'running';
		await run.start();
	}

	private maybeFailFast(id: string, status: TaskStatus): void {
		if (this.options.failFast && (status === 'failed' || status === 'timed_out') && !this.shuttingDown) {
			this.stopAll('fail-fast', false, id);
		}
	}

	private finishUnstarted(entry: Live, status: TaskStatus, errorText: string): void {
		this.finish(entry.task.id, buildResult(entry.task, {status, exitCode: null, signal: null, startedAt: null, finishedAt: null, stdout: {text: '', truncated: false}, errorText, logPath: null}));
	}

	private finish(id: string, outcome: TaskResult): void {
		const entry = this.live.get(id);
		if (entry) {
			entry.status = outcome.status;
		}

		const result = entry && entry.attempt > 1 ? {...outcome, attempt: entry.attempt, earlier_attempts: [...entry.earlier]} : outcome;
		this.results.set(id, result);
		this.emit({type: 'task.finished', id, result, at: Date.now()});
	}

	private orderedResults(): TaskResult[] {
		return this.plan.tasks.map(task => this.results.get(task.id)).filter((result): result is TaskResult => result !== undefined);
	}

	private emit(event: BatchEvent): void {
		this.events.emit(event);
	}
}

function withTokens(results: readonly TaskResult[]): Pick<BatchReport, 'tokens'> {
	const tokens = tokenTotals(results);
	return tokens ? {tokens} : {};
}
