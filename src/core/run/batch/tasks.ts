// Where each task of a running batch stands: its plan as it is now, its status, its current
// attempt (output buffer and process) and its result. The runner decides what happens next; this
// keeps the books, so status(), output() and the report always agree with each other.
import type {AttemptOutput, TaskExecution} from '../executor.js';
import type {PlannedTask, RoutePlan, TaskResult, TaskStatus} from '../../types.js';

export type TaskEntry = {
	task: PlannedTask;
	status: TaskStatus;
	/** The attempt under way, from the moment it is taken from the queue: absent, the task has not started. */
	run?: TaskExecution;
	/** 1, then one more each time the operator re-routes the finished task (retryTask). */
	attempt: number;
	/** The results of the attempts before this one, oldest first. */
	earlier: TaskResult[];
};

export class BatchTasks {
	private readonly entries = new Map<string, TaskEntry>();
	private readonly outputs = new Map<string, AttemptOutput>();
	private readonly results = new Map<string, TaskResult>();
	/** The plan as it is now: re-plans and re-routes replace it. */
	private current: RoutePlan;

	/** newOutput: a fresh output buffer (and stream-json decoder) for a task's next attempt. */
	constructor(plan: RoutePlan, private readonly newOutput: (id: string) => AttemptOutput) {
		this.current = plan;
		for (const task of plan.tasks) {
			this.entries.set(task.id, {task, status: task.decision.refused ? 'refused' : 'queued', attempt: 1, earlier: []});
			this.outputs.set(task.id, newOutput(task.id));
		}
	}

	get plan(): RoutePlan {
		return this.current;
	}

	set plan(plan: RoutePlan) {
		this.current = plan;
	}

	entry(id: string): TaskEntry | undefined {
		return this.entries.get(id);
	}

	all(): IterableIterator<[string, TaskEntry]> {
		return this.entries.entries();
	}

	output(id: string): AttemptOutput | undefined {
		return this.outputs.get(id);
	}

	/** The task takes a new plan, in its entry and in the batch's plan. */
	setTask(entry: TaskEntry, task: PlannedTask): void {
		entry.task = task;
		this.current = {...this.current, tasks: this.current.tasks.map(planned => (planned.id === task.id ? task : planned))};
	}

	/** Stores the task's result and returns it as it is announced: a later attempt carries the earlier ones. */
	finish(id: string, outcome: TaskResult): TaskResult {
		const entry = this.entries.get(id);
		if (entry) {
			entry.status = outcome.status;
		}

		const result = entry && entry.attempt > 1 ? {...outcome, attempt: entry.attempt, earlier_attempts: [...entry.earlier]} : outcome;
		this.results.set(id, result);
		return result;
	}

	/** A result that replaces the stored one without being announced again (a refusal re-planned into a refusal). */
	replaceResult(id: string, result: TaskResult): void {
		this.results.set(id, result);
	}

	/** A refused task that a new plan lets run goes back into the queue, without a result. */
	unrefuse(entry: TaskEntry): void {
		entry.status = 'queued';
		this.results.delete(entry.task.id);
	}

	/** A finished task is re-routed: its result becomes an earlier attempt, and the next attempt gets fresh output. */
	newAttempt(entry: TaskEntry): void {
		const {id} = entry.task;
		const previous = this.results.get(id);
		if (previous) {
			entry.earlier.push(previous);
		}

		this.results.delete(id);
		Object.assign(entry, {status: 'queued', run: undefined});
		this.outputs.set(id, this.newOutput(id));
	}

	/** Queued, or refused by its plan before it could start (and the batch not yet finished): a new plan may still change it. */
	isUnstarted(id: string, finished: boolean): boolean {
		const entry = this.entries.get(id);
		return entry !== undefined && entry.run === undefined && (entry.status === 'queued' || (entry.status === 'refused' && !finished));
	}

	/** Results in the plan's order; tasks still without one are left out. */
	orderedResults(): TaskResult[] {
		return this.current.tasks.map(task => this.results.get(task.id)).filter((result): result is TaskResult => result !== undefined);
	}
}
