// The results a runner host writes itself for a remote attempt, when no result comes from its
// worker: never started, stopped with its result unable to arrive, or its worker lost.
import {buildResult} from '../core/run/results.js';
import type {PlannedTask, TaskResult} from '../core/types.js';

const noOutput = {text: '', truncated: false};

/** Ended here before any worker ran it (or before anything of it was heard). */
export function unstartedResult(task: PlannedTask, status: TaskResult['status'], errorText: string): TaskResult {
	return buildResult(task, {status, exitCode: null, signal: null, startedAt: null, finishedAt: null, stdout: noOutput, errorText, logPath: null});
}

/** Ended on `worker` (or nowhere), with `status`, its own result not to come. */
export function endedResult(task: PlannedTask, status: TaskResult['status'], startedAt: number | undefined, worker: string | undefined, errorText: string): TaskResult {
	return {...buildResult(task, {status, exitCode: null, signal: null, startedAt: startedAt ?? null, finishedAt: Date.now(), stdout: noOutput, errorText, logPath: null}), ...(worker ? {host: worker} : {})};
}

export function lostResult(task: PlannedTask, startedAt: number | undefined, worker: string, why: string): TaskResult {
	return endedResult(task, 'lost', startedAt, worker, `its worker ${worker} was lost: ${why}. What became of the attempt is unknown (it may have run on, with side effects), so it is not run again by itself; R runs it again`);
}
