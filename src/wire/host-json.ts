// host.json in the run folder: what the runner host tells `ls` without a connection (a connection
// would count as a client itself): its socket, how many clients are attached, the tasks by status,
// whether the batch has finished. Rewritten whole (atomically) when one of those changes; events
// that change none of them (output, telemetry) write nothing. `ls` trusts it only while owner.json
// says the host lives: a host killed with SIGKILL leaves a stale one behind.
import {readRegularFile} from '../core/regular-file.js';
import path from 'node:path';
import {z} from 'zod';
import type {TaskStatus} from '../core/types.js';

const statusFile = 'host.json';

/** How host.log begins the line that says results.json could not be written (results-keeper.ts): `ls` and `wait` look for it. */
export const resultsNotWrittenLine = 'results.json could not be written';
/** How host.log says a later try wrote it after all. */
export const resultsWrittenLaterLine = 'results.json written on a later try';

export const hostStatusSchema = z.object({
	pid: z.number().int().positive(),
	socket: z.string(),
	clients: z.number().int().nonnegative(),
	tasks: z.record(z.string(), z.number().int().nonnegative()),
	finished: z.boolean(),
	updated_at: z.string(),
	/** Who started the batch when it was not the operator at a terminal (the MCP client's name). */
	origin: z.string().optional(),
});

export type HostStatus = z.infer<typeof hostStatusSchema>;

export function hostStatusPath(runDir: string): string {
	return path.join(runDir, statusFile);
}

/** Undefined when there is none (a run from before the host, or one `run` ran in-process) or it is unreadable. */
export function readHostStatus(runDir: string): HostStatus | undefined {
	try {
		const parsed = hostStatusSchema.safeParse(JSON.parse(readRegularFile(hostStatusPath(runDir), {max: 1024 * 1024}).toString('utf8')));
		return parsed.success ? parsed.data : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Whether host.log's last word on results.json is that it could not be written (results-keeper.ts):
 * the batch finished and its host ended of its own accord, having served the report to a `wait`.
 */
export function hostLogSaysResultsUnwritten(runDir: string): boolean {
	try {
		const tail = readRegularFile(path.join(runDir, 'host.log'), {start: -64 * 1024}).toString('utf8');
		const unwritten = tail.lastIndexOf(resultsNotWrittenLine);
		return unwritten !== -1 && tail.indexOf(resultsWrittenLaterLine, unwritten) === -1;
	} catch {
		return false;
	}
}

/** Counts of each status, in a fixed order so that `ls` reads the same from run to run. */
export function countByStatus(statuses: Iterable<TaskStatus | string>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
	return counts;
}
