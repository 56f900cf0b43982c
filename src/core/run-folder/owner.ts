// Who owns a run folder: the hermes-delegate process that created it, named by pid, kernel start
// time and boot, so that a run still in use can be told from one whose hermes-delegate is gone
// (killed with SIGKILL, say). `gc` looks for orphans only in runs whose owner is gone; pruning old
// runs can use the same test to leave a run alone while its owner runs.
import {readFileSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import path from 'node:path';
import {z} from 'zod';
import {hasProc, isSameProcess, readProcStat} from '../process/proc-tree.js';
import {errnoCode} from '../errors.js';
import {readRegularText} from '../regular-file.js';

export type RunOwner = {
	pid: number;
	/** Kernel start time of the owner: a recycled pid is never taken for it. Null without /proc. */
	start_ticks: number | null;
	/** Start times count from boot: after a reboot they name nothing, and nothing of the run survives. */
	boot_id: string | null;
	host: string | null;
	at: string;
};

// Lenient about what it does not need: a record with only pid and start_ticks (an older or
// simpler writer) still names its owner; without boot and host those checks are skipped.
const ownerSchema = z.object({
	pid: z.number().int().positive(),
	start_ticks: z.number().int().nonnegative().nullable().default(null),
	boot_id: z.string().nullable().default(null),
	host: z.string().nullable().default(null),
	at: z.string().default(''),
	started_at: z.string().optional(),
});

const ownerFile = 'owner.json';

function currentBootId(): string | null {
	try {
		return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
	} catch {
		return null;
	}
}

/** Written when the run folder is made, before any agent starts. */
export function recordRunOwner(folder: {dir: string}): void {
	const owner: RunOwner = {
		pid: process.pid,
		start_ticks: readProcStat('self')?.startTicks ?? null,
		boot_id: currentBootId(),
		host: hostname(),
		at: new Date().toISOString(),
	};
	writeFileSync(path.join(folder.dir, ownerFile), `${JSON.stringify(owner)}\n`, {mode: 0o600});
}

/** Undefined when the run has no readable owner record (made by an older version, or cut short). */
export function readRunOwner(dir: string): RunOwner | undefined {
	try {
		const parsed = ownerSchema.safeParse(JSON.parse(readRegularText(path.join(dir, ownerFile))));
		if (!parsed.success) return undefined;
		const {started_at: startedAt, ...owner} = parsed.data;
		return {...owner, at: owner.at || (startedAt ?? '')};
	} catch {
		return undefined;
	}
}

/**
 * False only when the owner is known to be gone: on another boot, or its pid no longer runs the
 * process that made the run. A run made on another host (a shared HERMES_HOME) may be alive.
 */
export function isOwnerAlive(owner: RunOwner): boolean {
	if (owner.host !== null && owner.host !== hostname()) return true;
	const boot = currentBootId();
	if (owner.boot_id !== null && boot !== null && owner.boot_id !== boot) return false;
	if (owner.start_ticks !== null && hasProc) return isSameProcess({pid: owner.pid, startTicks: owner.start_ticks}, readProcStat(owner.pid));
	return pidExists(owner.pid);
}

function pidExists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return errnoCode(error) === 'EPERM';
	}
}
