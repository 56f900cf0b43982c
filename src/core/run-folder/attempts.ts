// A task the operator re-routed (R) after it ended runs again as its next attempt, and each attempt
// keeps its own log: `<id>.log` for the first, `<id>.<N>.log` from the second on (task-run.ts).
// Which attempts a task has is read from those files, so a run whose results are not written yet
// (still going, or killed) tells them as well as a finished one.
import {readdirSync} from 'node:fs';
import path from 'node:path';

export type AttemptLog = {attempt: number; logPath: string};

/** The task's attempts that have a log, oldest first. */
export function attemptLogs(runDir: string, taskId: string): AttemptLog[] {
	let names: string[];
	try {
		names = readdirSync(path.join(runDir, 'logs'));
	} catch {
		return [];
	}

	const attempts: AttemptLog[] = [];
	for (const name of names) {
		const attempt = name === `${taskId}.log` ? 1 : attemptOf(name, taskId);
		if (attempt !== undefined) attempts.push({attempt, logPath: path.join(runDir, 'logs', name)});
	}

	return attempts.sort((a, b) => a.attempt - b.attempt);
}

function attemptOf(name: string, taskId: string): number | undefined {
	if (!name.startsWith(`${taskId}.`) || !name.endsWith('.log')) return undefined;
	const middle = name.slice(taskId.length + 1, -'.log'.length);
	return /^[1-9]\d{0,5}$/.test(middle) && middle !== '1' ? Number(middle) : undefined;
}

/** Where attempt `attempt` of the task logs, whether or not it has started. */
export function attemptLogPath(runDir: string, taskId: string, attempt: number): string {
	return path.join(runDir, 'logs', attempt === 1 ? `${taskId}.log` : `${taskId}.${attempt}.log`);
}

/** `t13.2` → task `t13`, attempt 2 (the form of the log file's name); undefined when there is no `.N`. */
export function splitAttempt(wanted: string): {task: string; attempt: number} | undefined {
	const found = /^(.+)\.([1-9]\d{0,5})$/.exec(wanted);
	return found ? {task: found[1]!, attempt: Number(found[2])} : undefined;
}
