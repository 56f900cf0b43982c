// The seam between a batch and the place its tasks run. The runner (runner.ts) decides which
// task runs when, keeps the books and announces; an executor decides how one attempt of one
// task is run and hears nothing of the batch. Today's only executor starts a local process group
// (task-run.ts); one that hands attempts to workers on other machines fits the same shape, since
// everything crosses it as data (events, records, output bytes, one result) and plain calls.
import type {ProcessRecord} from '../run-folder/folder.js';
import type {StreamJsonDecoder} from '../hermes/stream-json/decoder.js';
import type {TaskOutput} from '../output/task-output.js';
import type {BatchEvent, PlannedTask, StopReason, TaskResult, TaskTelemetry} from '../types.js';

/** How one attempt of one planned task is run: the runner decides when; an executor decides how. */
export type TaskExecutor = {
	/**
	 * A fresh buffer for one attempt's output, made when the task is planned or re-routed, before
	 * the attempt starts (the dashboard reads it from then on). The executor makes it because
	 * what the output is (plain text, or stream-json with a decoder) is decided by how it launches
	 * the task. Telemetry the decoder reads goes to `onTelemetry`.
	 */
	newOutput(onTelemetry: (telemetry: TaskTelemetry) => void): AttemptOutput;
	/**
	 * Starts the attempt now. Everything the attempt prints goes into `output` (stdout to
	 * pushStdout, stderr to pushStderr, then end() before finished); what happens goes through
	 * `hooks`, never before run() has returned. run() itself does not throw: an attempt that
	 * cannot start is a result (finished, with a status and an error).
	 */
	run(task: PlannedTask, attempt: number, output: AttemptOutput, hooks: ExecutionHooks): TaskExecution;
	/**
	 * News of the batch as a whole that only the executor has (the worker hosts of a remote one:
	 * batch.fleet), told through `emit` from the batch's start on. The local executor has none.
	 */
	announce?(emit: (event: BatchEvent) => void): void;
};

/** One attempt under way. */
export type TaskExecution = {
	/**
	 * Stop the attempt for `reason`: ask it to end, and force it after the grace period (at once
	 * with skipGrace). Callable at any moment, also before the attempt has really started; the
	 * stop then happens as soon as it can. The attempt still ends through hooks.finished, with the
	 * status the reason asks for (results.ts finalStatus).
	 */
	stop(reason: StopReason, skipGrace: boolean): void;
	/** A stop under way forces the end now; without one, nothing happens. */
	skipGrace(): void;
	/** Resolves once hooks.finished has been called. Never rejects: a failure is a result. */
	done: Promise<void>;
};

/**
 * What an executor tells the batch. Every event it emits carries the task's id, and these are the
 * ones it owes: `task.started` once the attempt runs (never after finished); `task.cancelling` when
 * a stop asked for through TaskExecution.stop, or a timeout, begins (the runner marks the task
 * cancelling from it); `task.killed` when the stop had to be forced. Output and telemetry do not
 * go through here (see TaskExecutor.newOutput and run).
 */
export type ExecutionHooks = {
	emit: (event: BatchEvent) => void;
	/** A line for processes.jsonl, so `gc` can find what a killed batch left behind. */
	record: (record: ProcessRecord) => void;
	/** Called exactly once, with the attempt's result, whether or not it ever started. */
	finished: (result: TaskResult) => void;
	/**
	 * After finished said `lost` (its worker host went silent): the attempt's real result, which its
	 * worker reported when it came back. The runner takes it while the task is still that lost attempt.
	 */
	lateResult?: (result: TaskResult) => void;
};

/** A task's output buffer and, under stream-json, the decoder that feeds it: one per attempt. */
export type AttemptOutput = {output: TaskOutput; decoder: StreamJsonDecoder | undefined};
