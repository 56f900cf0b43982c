// Reading finished and running runs back from $HERMES_HOME/delegate/runs/: which runs exist,
// their tasks (from plan.json), each task's status (results.json when the run is over, else the
// process records) and where its log is. For `hermes-delegate logs`.
import {existsSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {InputError} from '../errors.js';
import {runsDir} from '../hermes/home.js';
import {isOwnerAlive, runIdPattern, type ProcessRecord} from './folder.js';
import {attemptLogs} from './attempts.js';
import type {BatchReport, RoutePlan, TaskStatus} from '../types.js';
import {readRegularText} from '../regular-file.js';
import {distrustOf, homeDistrust} from './trust.js';

export type RunTask = {
	id: string;
	/** The task's name, else its goal: untrusted text, to be made safe before printing. */
	title: string;
	/** A task status, or what the process records tell of a run that is still going or died. */
	status: TaskStatus | 'started' | 'ended' | 'unfinished';
	/** The newest attempt's log (attempt 1 logs to `<id>.log`, later ones to `<id>.<N>.log`). */
	logPath: string;
	/** The newest attempt that has a log (1 when none has). */
	attempt: number;
	ended: boolean;
};

export type RunInfo = {runId: string; dir: string; summary: string | undefined; tasks: RunTask[]};

/** Run ids in `hermesHome`, newest first. */
export function listRuns(hermesHome: string): string[] {
	const dir = runsDir(hermesHome);
	// A home or run someone else can change is not ours to show, attach to or wait for (trust.ts).
	if (!existsSync(dir) || homeDistrust(hermesHome) !== undefined) return [];
	return readdirSync(dir, {withFileTypes: true})
		.filter(entry => entry.isDirectory() && runIdPattern.test(entry.name) && distrustOf(path.join(dir, entry.name)) === undefined)
		.map(entry => entry.name)
		.sort()
		.reverse();
}

export function looksLikeRunId(text: string): boolean {
	return runIdPattern.test(text);
}

/** The run named (by id), or the newest one; an InputError naming the fix when there is none. */
export function findRun(hermesHome: string, runId: string | undefined): {runId: string; dir: string} {
	const runs = listRuns(hermesHome);
	if (runs.length === 0) {
		throw new InputError(`no runs yet in ${runsDir(hermesHome)}`, {}, 'run a batch first (hermes-delegate run or tui), or set HERMES_HOME to the home the batch ran in');
	}

	const chosen = runId ?? runs[0]!;
	if (!runs.includes(chosen)) {
		throw new InputError(`no run ${JSON.stringify(chosen)} in ${runsDir(hermesHome)}`, {}, `give a run id as listed there (the newest is ${runs[0]!}), or leave it out for the newest run`);
	}

	return {runId: chosen, dir: path.join(runsDir(hermesHome), chosen)};
}

function readJson<T>(file: string): T | undefined {
	try {
		return JSON.parse(readRegularText(file)) as T;
	} catch {
		return undefined;
	}
}

export function readProcessRecords(dir: string): ProcessRecord[] {
	try {
		return readRegularText(path.join(dir, 'processes.jsonl')).split('\n').filter(Boolean).flatMap(line => {
			try {
				return [JSON.parse(line) as ProcessRecord];
			} catch {
				return []; // A line cut short by a crash.
			}
		});
	} catch {
		return [];
	}
}

/** The run's tasks and where each stands now. */
export function readRun(run: {runId: string; dir: string}): RunInfo {
	const plan = readJson<RoutePlan>(path.join(run.dir, 'plan.json'));
	if (plan === undefined || !Array.isArray(plan.tasks)) {
		throw new InputError(`run ${run.runId} has no readable plan.json (it is just starting, or ended before it started)`, {file: run.dir}, 'pick another run: leave RUN out for the newest one');
	}

	const report = readJson<BatchReport>(path.join(run.dir, 'results.json'));
	const records = readProcessRecords(run.dir);
	const ownerAlive = isOwnerAlive(run.dir);
	const tasks = plan.tasks.map((task): RunTask => {
		// The newest attempt is the one that counts: results.json names its log, and it may be running.
		const attempts = attemptLogs(run.dir, task.id);
		const {attempt, logPath} = attempts.at(-1) ?? {attempt: 1, logPath: path.join(run.dir, 'logs', `${task.id}.log`)};
		const title = task.spec.name ?? task.spec.goal;
		const result = report?.results.find(entry => entry.id === task.id);
		const last = records.filter(record => record.task === task.id && record.event !== 'escaped').at(-1);
		// A task re-routed after the batch finished (the dashboard re-opens it) runs again after
		// its result was written: its last record, not results.json, says where it is.
		const runningAgain = last?.event === 'started' && ownerAlive;
		if (result && !runningAgain) return {id: task.id, title, status: result.status, logPath, attempt, ended: true};
		const status = last?.event === 'ended' ? 'ended' : last ? 'started' : task.decision.refused ? 'refused' : 'queued';
		const ended = status === 'ended' || status === 'refused' || !ownerAlive;
		return {id: task.id, title, status: ended && (status === 'started' || status === 'queued') ? 'unfinished' : status, logPath, attempt, ended};
	});
	return {runId: run.runId, dir: run.dir, summary: report?.summary, tasks};
}

/** A task by id (`t03`, also `3` or `T03`) or by name; an InputError listing the choices otherwise. */
export function findTask(run: RunInfo, wanted: string): RunTask {
	const byId = run.tasks.find(task => task.id === wanted.toLowerCase() || task.id === `t${wanted.padStart(2, '0')}`);
	const byName = run.tasks.filter(task => task.title === wanted);
	const found = byId ?? (byName.length === 1 ? byName[0] : undefined);
	if (found) return found;
	const ids = run.tasks.map(task => task.id).join(', ');
	throw new InputError(
		byName.length > 1 ? `${byName.length} tasks of run ${run.runId} are named ${JSON.stringify(wanted)}` : `run ${run.runId} has no task ${JSON.stringify(wanted)}`,
		{},
		`name the task by id (${ids}), or run \`hermes-delegate logs ${run.runId}\` to list its tasks`,
	);
}
