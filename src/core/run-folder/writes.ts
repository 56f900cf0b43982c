// The runner's writes to its run folder, made safe for a full disk and a lack of file
// descriptors: the plan decides whether the run exists at all, the results must reach the
// operator even when the folder cannot take them, and a process record must never take a
// running task down with it.
import {rmSync} from 'node:fs';
import {errnoCode, InputError, messageOf} from '../errors.js';
import {planOnDisk, recordProcess, writeJsonAtomic, type ProcessRecord, type RunFolder} from './folder.js';
import type {BatchReport, RoutePlan} from '../types.js';

function describeError(error: unknown): string {
	const code = errnoCode(error);
	return code === 'ENOSPC' ? 'no space left on device (ENOSPC)' : code === 'EMFILE' ? 'too many open files (EMFILE)' : messageOf(error);
}

/**
 * A run folder either holds a readable plan or does not exist: when the plan cannot be written,
 * the folder is removed and nothing starts (exit 2, naming the file and the fix).
 */
export async function writePlanOrRemoveFolder(folder: RunFolder, plan: RoutePlan): Promise<void> {
	try {
		await writeJsonAtomic(folder.planPath, planOnDisk(plan));
	} catch (error) {
		rmSync(folder.dir, {recursive: true, force: true});
		throw new InputError(`cannot write the run's plan: ${describeError(error)}; nothing was started`, {file: folder.planPath}, 'free space on that file system, or point HERMES_HOME at one with room');
	}
}

/**
 * Writes results.json. When the folder cannot take it, the report says so (results_error and a
 * warning), so the command prints the results where the operator can still get them.
 */
export async function writeResults(folder: RunFolder, report: BatchReport): Promise<void> {
	try {
		await writeJsonAtomic(folder.resultsPath, report);
	} catch (error) {
		report.results_error = `the results could not be written to ${folder.resultsPath}: ${describeError(error)}; they are only in this output`;
		report.warnings.push(report.results_error);
	}
}

/**
 * Appends a process record; returns what went wrong instead of throwing, because the task it
 * records is already running and must be seen through to its end either way.
 */
export function recordProcessSafely(folder: RunFolder, record: ProcessRecord): string | undefined {
	try {
		recordProcess(folder, record);
		return undefined;
	} catch (error) {
		return `process records could not be written to ${folder.processesPath}: ${describeError(error)}; if hermes-delegate is killed, its subagents cannot be found from there`;
	}
}
