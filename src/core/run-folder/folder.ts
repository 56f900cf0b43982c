// Each run gets its own folder under $HERMES_HOME/delegate/runs/<run-id>/: one complete log
// per task, the plan, the live process groups (so a later `gc` can find orphans of a run that
// died), and the results. Written as things happen, so a crash loses nothing already printed.
import {randomBytes} from 'node:crypto';
import {appendFileSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync} from 'node:fs';
import path from 'node:path';
import type {RoutePlan} from '../types.js';
import writeFileAtomic from 'write-file-atomic';
import {folderError, makeFolder, runsDir, writableHomeFix} from '../hermes/home.js';
import {prettyJsonBytes} from '../text/pretty-json.js';
import {isOwnerAlive as ownerRuns, readRunOwner, recordRunOwner} from './owner.js';

export type RunFolder = {
	runId: string;
	dir: string;
	logPath(taskId: string): string;
	resultsPath: string;
	planPath: string;
	processesPath: string;
};

export function newRunId(now = new Date()): string {
	const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
	return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export const runIdPattern = /^\d{8}-\d{6}-[\da-f]{6}$/;

/**
 * Deletes all but the newest `keep` run folders in `dir` (run ids sort by time) whose owner is
 * gone, and returns the names removed. A run whose hermes-delegate still runs is never touched,
 * however old: two demos may run at once. Only real folders named like a run id are considered:
 * no symlink is followed, no other entry removed. Best effort: a folder that cannot be removed stays.
 */
export function pruneRunFolders(dir: string, keep: number): string[] {
	try {
		if (!lstatSync(dir).isDirectory()) return [];
	} catch {
		return []; // No runs yet.
	}

	const runs = readdirSync(dir, {withFileTypes: true})
		.filter(entry => entry.isDirectory() && runIdPattern.test(entry.name))
		.map(entry => entry.name)
		.sort()
		.reverse();
	const removed: string[] = [];
	for (const name of runs.slice(Math.max(0, keep))) {
		if (isOwnerAlive(path.join(dir, name))) continue;
		try {
			rmSync(path.join(dir, name), {recursive: true, force: true});
			removed.push(name);
		} catch {
			// Another demo pruning at the same moment, or a file we may not delete: leave it.
		}
	}

	return removed;
}

/** The run's hermes-delegate may still be running (run-folder/owner.ts says how that is told). */
export function isOwnerAlive(runDir: string): boolean {
	const owner = readRunOwner(runDir);
	return owner !== undefined && ownerRuns(owner); // A run from before owners were recorded: nobody claims it.
}

export function createRunFolder(hermesHome: string, runId = newRunId()): RunFolder {
	const dir = path.join(runsDir(hermesHome), runId);
	makeFolder(runsDir(hermesHome), writableHomeFix(hermesHome));
	// Made under a name no pruning looks at and renamed into place with its owner inside, so a
	// demo pruning at the same moment never sees this run without its owner.
	const making = path.join(runsDir(hermesHome), `.${runId}.new`);
	try {
		// Private: logs and results hold whatever the subagents printed.
		mkdirSync(path.join(making, 'logs'), {recursive: true, mode: 0o700});
		recordRunOwner({dir: making});
		renameSync(making, dir);
	} catch (error) {
		rmSync(making, {recursive: true, force: true});
		// Whatever the reason (a full disk, a quota), it is named with the fix.
		throw folderError(dir, error, writableHomeFix(hermesHome));
	}
	return {
		runId,
		dir,
		logPath: taskId => path.join(dir, 'logs', `${taskId}.log`),
		resultsPath: path.join(dir, 'results.json'),
		planPath: path.join(dir, 'plan.json'),
		processesPath: path.join(dir, 'processes.jsonl'),
	};
}

export async function writeJsonAtomic(file: string, value: object): Promise<void> {
	await writeFileAtomic(file, prettyJsonBytes(value));
}

export type ProcessRecord = {
	/** escaped: a descendant seen outside the task's session (setsid), for `gc` after a SIGKILL. */
	event: 'started' | 'ended' | 'escaped';
	task: string;
	pid: number;
	pgid: number;
	/** Kernel start time (clock ticks since boot) so a reused pid is never mistaken for ours. */
	start_ticks: number | null;
	at: string;
};

/** Appended synchronously: the record must be on disk before the process can outlive us. */
export function recordProcess(folder: RunFolder, record: ProcessRecord): void {
	appendFileSync(folder.processesPath, `${JSON.stringify(record)}\n`);
}

/** The plan as written to plan.json: an api_key from config.yaml is never written anywhere. */
export function planOnDisk(plan: RoutePlan): RoutePlan {
	return JSON.parse(JSON.stringify(plan, (key, value: unknown) => (key === 'api_key' && value !== undefined ? '<set in config.yaml; not written here>' : value))) as RoutePlan;
}
