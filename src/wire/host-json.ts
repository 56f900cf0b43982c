// host.json in the run folder: what the runner host tells `ls` without a connection (a connection
// would count as a client itself): its socket, how many clients are attached, the tasks by status,
// whether the batch has finished. Rewritten whole (atomically) when one of those changes; events
// that change none of them (output, telemetry) write nothing. `ls` trusts it only while owner.json
// says the host lives: a host killed with SIGKILL leaves a stale one behind.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import type {TaskStatus} from '../core/types.js';

const statusFile = 'host.json';

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
		const parsed = hostStatusSchema.safeParse(JSON.parse(readFileSync(hostStatusPath(runDir), 'utf8')));
		return parsed.success ? parsed.data : undefined;
	} catch {
		return undefined;
	}
}

/** Counts of each status, in a fixed order so that `ls` reads the same from run to run. */
export function countByStatus(statuses: Iterable<TaskStatus | string>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
	return counts;
}
