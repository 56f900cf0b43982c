// Each run gets its own folder under $HERMES_HOME/delegate/runs/<run-id>/: one complete log
// per task, the plan, the live process groups (so a later `gc` can find orphans of a run that
// died), and the results. Written as things happen, so a crash loses nothing already printed.
import {randomBytes} from 'node:crypto';
import {appendFileSync, mkdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import {runsDir} from './hermes-home.js';

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

export function createRunFolder(hermesHome: string, runId = newRunId()): RunFolder {
	const dir = path.join(runsDir(hermesHome), runId);
	mkdirSync(path.join(dir, 'logs'), {recursive: true});
	return {
		runId,
		dir,
		logPath: taskId => path.join(dir, 'logs', `${taskId}.log`),
		resultsPath: path.join(dir, 'results.json'),
		planPath: path.join(dir, 'plan.json'),
		processesPath: path.join(dir, 'processes.jsonl'),
	};
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
	await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

export type ProcessRecord = {
	event: 'started' | 'ended';
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

export function processStartTicks(pid: number): number | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// Field 22 of stat; the slice starts at field 3 (state).
		const ticks = Number(fields[19]);
		return Number.isFinite(ticks) ? ticks : null;
	} catch {
		return null;
	}
}
