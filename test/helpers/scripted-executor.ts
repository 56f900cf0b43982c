// A TaskExecutor written for tests (the runner needs nothing of how a task runs but its executor):
// it "runs" a task by calling the hooks and never starts a process. It prints `GOAL (attempt N)`
// and ends: a goal `fail` fails, a goal containing `hang` runs until stopped, any other succeeds.
// `onStarted` lets a test add what the task does meanwhile (spend events, say). It records what
// it was asked (`run t01 attempt 1 on fast`, `stop t01 (cancel)`), which tasks started, and how
// many ran at once at most, in all and per provider.
import {TaskOutput} from '../../src/core/output/task-output.js';
import type {ExecutionHooks, TaskExecutor} from '../../src/core/run/executor.js';
import {buildResult, finalStatus} from '../../src/core/run/results.js';
import type {PlannedTask, StopReason, TaskStatus} from '../../src/core/types.js';

export type ScriptedExecutor = {
	executor: TaskExecutor;
	calls: string[];
	started: string[];
	seen: {mostAtOnce: number};
	mostOn: Record<string, number>;
};

export function scriptedExecutor(options: {onStarted?: (task: PlannedTask, attempt: number, hooks: ExecutionHooks) => void} = {}): ScriptedExecutor {
	const calls: string[] = [];
	const started: string[] = [];
	const seen = {mostAtOnce: 0};
	const mostOn: Record<string, number> = {};
	const runningNow = new Map<string, string>();
	const executor: TaskExecutor = {
		newOutput: () => ({output: new TaskOutput(), decoder: undefined}),
		run(task, attempt, {output}, hooks) {
			calls.push(`run ${task.id} attempt ${attempt} on ${task.decision.route?.name}`);
			started.push(task.id);
			const provider = task.effective.provider ?? '';
			runningNow.set(task.id, provider);
			seen.mostAtOnce = Math.max(seen.mostAtOnce, runningNow.size);
			mostOn[provider] = Math.max(mostOn[provider] ?? 0, [...runningNow.values()].filter(held => held === provider).length);
			const startedAt = Date.now();
			let settle = () => {};
			const done = new Promise<void>(resolve => {
				settle = resolve;
			});
			let ended = false;
			const end = (status: TaskStatus, errorText?: string) => {
				if (ended) return;
				ended = true;
				runningNow.delete(task.id);
				output.end();
				hooks.finished(buildResult(task, {status, exitCode: status === 'succeeded' ? 0 : null, signal: null, startedAt, finishedAt: Date.now(), stdout: output.result(), errorText, logPath: null}));
				settle();
			};

			const goal = task.spec.goal;
			queueMicrotask(() => {
				hooks.emit({type: 'task.started', id: task.id, pid: 0, argv: ['scripted', goal], at: startedAt});
				output.pushStdout(Buffer.from(`${goal} (attempt ${attempt})\n`));
				options.onStarted?.(task, attempt, hooks);
				if (goal === 'fail') end('failed', 'it was told to fail');
				else if (!goal.includes('hang')) end('succeeded');
			});
			return {
				stop(reason: StopReason) {
					calls.push(`stop ${task.id} (${reason})`);
					const at = Date.now();
					hooks.emit({type: 'task.cancelling', id: task.id, cancelling: {reason, termSentAt: at, killDueAt: at, killSent: false}, at});
					queueMicrotask(() => end(finalStatus(reason, null), `stopped (${reason})`));
				},
				skipGrace() {},
				done,
			};
		},
	};
	return {executor, calls, started, seen, mostOn};
}
