// Process groups: whoever spawns an agent owns its whole lifetime, grandchildren included.
// Each agent is spawned detached (setsid), so it leads its own process group and session, and
// every process it forks (tool runners, shells, browsers) stays in that group unless it moves
// out: with setpgid it stays in the session, with setsid it leaves that too (process/family.ts).
// Signals go to the whole family, never only to the leader: that is what stops orphans surviving.
// Past ~300 lines as one lifetime: spawning into a group, signalling it, the kill cascade and the
// groups still to clean up on exit share the same bookkeeping, which split files would pass around.
import {spawn, type ChildProcess, type ChildProcessByStdio} from 'node:child_process';
import {statSync} from 'node:fs';
import type {Readable} from 'node:stream';
import {familyOf, groupExists, isFamilyAlive, killWatchedFamiliesNow, signalFamily, type Family} from './family.js';
import {freshProcessTable, hasProc, readProcStat, recentProcessTable, scanProcesses} from './proc-tree.js';
import {errnoCode, messageOf} from '../errors.js';

export type GroupExit = {exitCode: number | null; signal: NodeJS.Signals | null};

export type GroupProcess = {
	/** Also the process-group id: a detached child leads its own group. */
	pid: number;
	/** Unbuffered: read them ('data' events). An unread pipe blocks the agent, as with any pipe. */
	stdout: NodeJS.ReadableStream;
	stderr: NodeJS.ReadableStream;
	/** The leader exited. Members of its group may still be running. */
	exited: Promise<GroupExit>;
	/** The leader exited and all of its output was delivered through stdout/stderr. */
	closed: Promise<void>;
	/**
	 * Stop reading output and close our ends of the pipes: for when the group is gone but a
	 * process outside it (escaped with setsid) still holds them open, so `closed` never comes.
	 */
	detachOutput(): void;
};

export class SpawnError extends Error {
	readonly code: string;
	readonly file: string;

	constructor(file: string, code: string, message: string) {
		super(message);
		this.name = 'SpawnError';
		this.code = code;
		this.file = file;
	}
}

export type SpawnOptions = {
	cwd?: string | undefined;
	/** Replaces the environment (no merging with ours), so the caller decides all the agent sees. */
	env?: NodeJS.ProcessEnv | undefined;
};

/**
 * Resolves once the process runs (its pid is known); rejects with SpawnError if it cannot start.
 * Plain child_process.spawn, read through its own sockets: a batch spawns hundreds of these, and
 * a wrapper's option handling and relay streams cost more per task than the task itself does.
 */
export async function spawnInGroup(
	file: string,
	args: readonly string[],
	options: SpawnOptions = {},
): Promise<GroupProcess> {
	let child: ChildProcess;
	try {
		// detached: setsid, so the agent leads its own group and session. No exit hook, no forced
		// kill of the leader alone: our cascade stops the whole family.
		child = spawn(file, args, {cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe']});
	} catch (error) {
		throw toSpawnError(file, error, options.cwd);
	}

	// Start-up failures (ENOENT, EACCES, EMFILE) come as an 'error' event on the next tick.
	await new Promise<void>((resolve, reject) => {
		const failed = (error: Error) => {
			reject(toSpawnError(file, error, options.cwd));
		};

		child.once('error', failed);
		child.once('spawn', () => {
			child.off('error', failed);
			resolve();
		});
	});
	// Nothing later may end the batch with an unhandled 'error' (we never signal through child.kill).
	child.on('error', () => {});

	const {stdout, stderr} = child as ChildProcessByStdio<null, Readable, Readable>;
	holdUntilRead(stdout);
	holdUntilRead(stderr);
	const exited = new Promise<GroupExit>((resolve) => {
		child.once('exit', (exitCode, signal) => {
			resolve({exitCode, signal});
		});
	});
	// 'close': the leader exited and both pipes reached their end (or were destroyed).
	const closed = new Promise<void>((resolve) => {
		child.once('close', () => {
			resolve();
		});
	});
	const detachOutput = () => {
		stdout.destroy();
		stderr.destroy();
	};

	return {pid: child.pid!, stdout, stderr, exited, closed, detachOutput};
}

/**
 * The sockets stay paused, holding output, until a caller reads them; but once the child exits,
 * Node resumes every pipe nobody reads (so that it can close), and output not yet subscribed to
 * would be dropped. Resuming is refused until someone listens for 'data'.
 */
function holdUntilRead(stream: Readable): void {
	stream.resume = function (this: Readable) {
		if (this.listenerCount('data') === 0) {
			return this;
		}

		// A reader: from now on the stream is an ordinary one again.
		delete (this as Partial<Pick<Readable, 'resume'>>).resume;
		return this.resume();
	};
}

function toSpawnError(file: string, cause: unknown, cwd: string | undefined): SpawnError {
	const code = errnoCode(cause) ?? 'UNKNOWN';
	// Node reports a missing cwd as ENOENT on the binary, which sends people looking in the wrong place.
	if (code === 'ENOENT' && cwd !== undefined && !isDirectory(cwd)) {
		return new SpawnError(file, code, `cannot start ${file}: working directory ${cwd} does not exist`);
	}

	const reasons: Record<string, string> = {
		ENOENT: 'not found (is it installed and on PATH?)',
		EACCES: 'permission denied (is it executable?)',
		ENOEXEC: 'not an executable format',
	};
	const reason = reasons[code] ?? messageOf(cause);
	return new SpawnError(file, code, `cannot start ${file}: ${reason} [${code}]`);
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

function assertGroupId(pgid: number): void {
	// kill(0) and kill(-1) would signal our own group or every process we may signal.
	if (!Number.isInteger(pgid) || pgid <= 1) {
		throw new RangeError(`not a process-group id of a spawned agent: ${pgid}`);
	}
}

/** Signals every process in the group. False when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
	assertGroupId(pgid);
	try {
		process.kill(-pgid, signal);
		return true;
	} catch (error) {
		if (errnoCode(error) === 'ESRCH') return false;
		throw error;
	}
}

/** Kernel start time (clock ticks since boot): with the pid, it names one process, never a reused pid. */
export function processStartTicks(pid: number): number | null {
	return readProcStat(pid)?.startTicks ?? null;
}

/**
 * Live, non-zombie members of the group. Without /proc members cannot be enumerated, so a
 * group that still exists is reported as its id alone.
 */
export function listGroupMembers(pgid: number): number[] {
	assertGroupId(pgid);
	if (!groupExists(pgid)) return [];
	if (!hasProc) return [pgid];
	return [...scanProcesses().byPid.values()].filter(stat => stat.pgrp === pgid).map(stat => stat.pid);
}

export type CascadeOutcome = {
	/** SIGKILL was needed: something in the group outlived the grace period. */
	forced: boolean;
};

export type Cascade = {
	/** Sends SIGKILL now instead of at the end of the grace period. */
	skipGrace(): void;
	/** Epoch ms when SIGKILL is due; moves to the moment skipGrace() was called. */
	readonly killDueAt: number;
	readonly termSentAt: number;
	/** Resolves when no live process is left in the family. */
	done: Promise<CascadeOutcome>;
};

export type CascadeOptions = {
	graceMs: number;
	pollMs?: number | undefined;
	/** Called once, when SIGKILL goes to the family. */
	onKill?: (() => void) | undefined;
	/**
	 * Called once the cascade exists (its times set, skipGrace usable) and just before SIGTERM is
	 * sent, which first reads the whole of /proc for the family (a few ms, tens under load): the
	 * moment to tell the operator, so that the state change is not held up by the scan. SIGTERM
	 * follows in the same turn even if this throws.
	 */
	onStart?: ((cascade: Cascade) => void) | undefined;
};

/**
 * SIGTERM to the agent's whole family (its group, its session, the descendants seen leaving
 * both), a grace period to exit cleanly, then SIGKILL to whatever is left. A number stands for
 * the agent with that pid: its group, and its session while its start time can be read.
 */
export function startKillCascade(target: number | Family, options: CascadeOptions): Cascade {
	const family = typeof target === 'number' ? familyOf({pid: target, startTicks: processStartTicks(target)}) : target;
	const pgid = family.leader.pid;
	assertGroupId(pgid);
	const pollMs = Math.max(1, options.pollMs ?? 50);
	const termSentAt = Date.now();
	let killDueAt = termSentAt + Math.max(0, options.graceMs);
	let wake: (() => void) | undefined;
	// While waiting, many cascades polling at once share one scan of /proc, and "gone" is confirmed
	// by a fresh one; whether SIGKILL is needed is always decided on a fresh one.
	const aliveNow = () => (hasProc ? isFamilyAlive(family, freshProcessTable) : groupExists(pgid));
	const alive = () => (hasProc ? isFamilyAlive(family, () => recentProcessTable(pollMs * 4)) || aliveNow() : groupExists(pgid));
	const signal = (name: NodeJS.Signals) => (hasProc ? signalFamily(family, name, freshProcessTable()) : signalGroup(pgid, name));

	const nap = async (ms: number) =>
		new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, ms);
			wake = () => {
				clearTimeout(timer);
				resolve();
			};
		});

	const run = async (): Promise<CascadeOutcome> => {
		while (Date.now() < killDueAt) {
			if (!alive()) return {forced: false};
			await nap(Math.min(pollMs, killDueAt - Date.now()));
		}

		if (!aliveNow()) return {forced: false};
		signal('SIGKILL');
		options.onKill?.();
		while (aliveNow()) {
			await nap(pollMs);
			// Again, in case something forked while the first SIGKILL was being delivered.
			signal('SIGKILL');
		}

		return {forced: true};
	};

	let begin!: (outcome: Promise<CascadeOutcome>) => void;
	const cascade: Cascade = {
		skipGrace() {
			killDueAt = Math.min(killDueAt, Date.now());
			wake?.();
		},
		get killDueAt() {
			return killDueAt;
		},
		termSentAt,
		done: new Promise(resolve => {
			begin = resolve;
		}),
	};
	try {
		options.onStart?.(cascade);
	} finally {
		try {
			signal('SIGTERM');
		} catch (error) {
			// Thrown to the caller as before onStart; `done` rejects with it rather than never settling
			// for whoever onStart handed the cascade to (marked handled: the throw is the report).
			begin(Promise.reject(error as Error));
			cascade.done.catch(() => undefined);
			// biome-ignore lint/correctness/noUnsafeFinally: the signal's own error is the one the caller must see, over onStart's.
			throw error;
		}

		begin(run());
	}

	return cascade;
}

// Every group we started and have not yet seen empty. If hermes-delegate itself dies on an
// error nobody expected, the last thing it does is SIGKILL these (see cli.ts), so a subagent
// that ignores SIGTERM never outlives us. A group is forgotten once empty, so a recycled pgid
// of some unrelated process is never signalled.
const unfinishedGroups = new Set<number>();

export function rememberGroup(pgid: number): void {
	unfinishedGroups.add(pgid);
}

export function forgetGroup(pgid: number): void {
	unfinishedGroups.delete(pgid);
}

/** Synchronous, for `process.on('exit')`: SIGKILL to every group and watched family still unfinished. */
export function killUnfinishedGroupsNow(): number[] {
	const killed = new Set([...unfinishedGroups].filter(pgid => signalGroup(pgid, 'SIGKILL')));
	unfinishedGroups.clear();
	for (const pid of killWatchedFamiliesNow()) killed.add(pid);
	return [...killed];
}
