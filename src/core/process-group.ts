// Process groups: whoever spawns an agent owns its whole lifetime, grandchildren included.
// Each agent is spawned detached, so it leads its own process group and every process it forks
// (tool runners, shells, browsers) stays in that group unless it deliberately escapes with setsid.
// Signals go to the group, never only to the leader: that is what stops orphans from surviving.
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {PassThrough} from 'node:stream';
import {finished} from 'node:stream/promises';
import {execa} from 'execa';

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

/** Resolves once the process runs (its pid is known); rejects with SpawnError if it cannot start. */
export async function spawnInGroup(
	file: string,
	args: readonly string[],
	options: SpawnOptions = {},
): Promise<GroupProcess> {
	const subprocess = execa(file, args, {
		cwd: options.cwd,
		env: options.env,
		extendEnv: options.env === undefined,
		detached: true,
		// Our cascade stops the group; execa's exit hook and forced kill only reach the leader.
		cleanup: false,
		forceKillAfterDelay: false,
		buffer: false,
		stdin: 'ignore',
		reject: false,
	});
	// Failures arrive through execa's result; an 'error' event nobody listens to would crash us.
	subprocess.on('error', () => {});

	// execa resumes unbuffered streams on the next turn of the event loop, which would drop any
	// output a caller had not subscribed to yet. Our own streams keep it until someone reads.
	const stdout = relay(subprocess.stdout);
	const stderr = relay(subprocess.stderr);

	const exited = new Promise<GroupExit>((resolve) => {
		subprocess.once('exit', (exitCode, signal) => {
			resolve({exitCode, signal});
		});
	});
	const result = subprocess.then(
		(value) => value,
		(error: unknown) => ({failed: true, cause: error, code: undefined}),
	);

	await new Promise<void>((resolve, reject) => {
		subprocess.once('spawn', resolve);
		void result.then((value) => {
			if (subprocess.pid === undefined) {
				reject(toSpawnError(file, value.cause, options.cwd));
			}
		});
	});

	const closed = Promise.all([result, settled(stdout), settled(stderr)]).then(() => undefined);
	const detachOutput = () => {
		for (const [source, target] of [[subprocess.stdout, stdout], [subprocess.stderr, stderr]] as const) {
			source?.destroy();
			if (!target.writableEnded) target.end();
		}
	};

	return {pid: subprocess.pid!, stdout, stderr, exited, closed, detachOutput};
}

function relay(source: NodeJS.ReadableStream | null): PassThrough {
	const target = new PassThrough();
	if (source === null) {
		target.end();
		return target;
	}

	source.pipe(target);
	// pipe() does not end the target when the source is destroyed rather than ended.
	const end = () => {
		if (!target.writableEnded) target.end();
	};

	source.once('close', end);
	source.once('error', end);
	return target;
}

async function settled(stream: PassThrough): Promise<void> {
	try {
		await finished(stream);
	} catch {
		// A destroyed stream has delivered all it ever will.
	}
}

function toSpawnError(file: string, cause: unknown, cwd: string | undefined): SpawnError {
	const code = errorCode(cause) ?? 'UNKNOWN';
	// Node reports a missing cwd as ENOENT on the binary, which sends people looking in the wrong place.
	if (code === 'ENOENT' && cwd !== undefined && !isDirectory(cwd)) {
		return new SpawnError(file, code, `cannot start ${file}: working directory ${cwd} does not exist`);
	}

	const reasons: Record<string, string> = {
		ENOENT: 'not found (is it installed and on PATH?)',
		EACCES: 'permission denied (is it executable?)',
		ENOEXEC: 'not an executable format',
	};
	const reason = reasons[code] ?? (cause instanceof Error ? cause.message : String(cause));
	return new SpawnError(file, code, `cannot start ${file}: ${reason} [${code}]`);
}

function errorCode(error: unknown): string | undefined {
	if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
		return error.code;
	}

	return undefined;
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
		if (errorCode(error) === 'ESRCH') return false;
		throw error;
	}
}

type ProcStat = {state: string; pgrp: number; startTicks: number | null};

/** The one parser of /proc/<pid>/stat; undefined when the process is gone or there is no /proc. */
function readProcStat(pid: string): ProcStat | undefined {
	let text: string;
	try {
		text = readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return undefined; // Exited between listing and reading.
	}

	// "pid (comm) state ppid pgrp ...": comm may itself contain spaces and ')'. The slice starts
	// at field 3 (state), so field N of proc(5) is fields[N - 3].
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	const state = fields[0];
	const pgrp = Number(fields[2]);
	const startTicks = Number(fields[19]);
	if (state === undefined || !Number.isInteger(pgrp)) return undefined;
	return {state, pgrp, startTicks: Number.isInteger(startTicks) ? startTicks : null};
}

/** Kernel start time (clock ticks since boot): with the pid, it names one process, never a reused pid. */
export function processStartTicks(pid: number): number | null {
	return readProcStat(String(pid))?.startTicks ?? null;
}

// Zombies count as dead: PID 1 in a container may never reap a reparented grandchild.
function isLive(stat: ProcStat): boolean {
	return stat.state !== 'Z' && stat.state !== 'X';
}

const hasProc = (() => {
	try {
		return statSync('/proc/self/stat').isFile();
	} catch {
		return false;
	}
})();

function groupExists(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists but is not ours to signal.
		return errorCode(error) !== 'ESRCH';
	}
}

/**
 * Live, non-zombie members of the group. Without /proc members cannot be enumerated, so a
 * group that still exists is reported as its id alone.
 */
export function listGroupMembers(pgid: number): number[] {
	assertGroupId(pgid);
	if (!groupExists(pgid)) return [];
	if (!hasProc) return [pgid];
	const members: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = readProcStat(entry);
		if (stat?.pgrp === pgid && isLive(stat)) members.push(Number(entry));
	}

	return members;
}

export function isGroupAlive(pgid: number): boolean {
	assertGroupId(pgid);
	if (!groupExists(pgid)) return false;
	if (!hasProc) return true;
	// The leader is usually the one still running: spare a scan of every process on the machine.
	const leader = readProcStat(String(pgid));
	if (leader?.pgrp === pgid && isLive(leader)) return true;
	return listGroupMembers(pgid).length > 0;
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
	/** Resolves when no live process is left in the group. */
	done: Promise<CascadeOutcome>;
};

export type CascadeOptions = {
	graceMs: number;
	pollMs?: number | undefined;
	/** Called once, when SIGKILL goes to the group. */
	onKill?: (() => void) | undefined;
};

/** SIGTERM to the whole group, a grace period to exit cleanly, then SIGKILL to whatever is left. */
export function startKillCascade(pgid: number, options: CascadeOptions): Cascade {
	assertGroupId(pgid);
	const pollMs = Math.max(1, options.pollMs ?? 50);
	const termSentAt = Date.now();
	let killDueAt = termSentAt + Math.max(0, options.graceMs);
	let wake: (() => void) | undefined;

	const nap = async (ms: number) =>
		new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, ms);
			wake = () => {
				clearTimeout(timer);
				resolve();
			};
		});

	signalGroup(pgid, 'SIGTERM');

	const run = async (): Promise<CascadeOutcome> => {
		while (Date.now() < killDueAt) {
			if (!isGroupAlive(pgid)) return {forced: false};
			await nap(Math.min(pollMs, killDueAt - Date.now()));
		}

		if (!isGroupAlive(pgid)) return {forced: false};
		signalGroup(pgid, 'SIGKILL');
		options.onKill?.();
		while (isGroupAlive(pgid)) {
			await nap(pollMs);
			// Again, in case something forked while the first SIGKILL was being delivered.
			signalGroup(pgid, 'SIGKILL');
		}

		return {forced: true};
	};

	return {
		skipGrace() {
			killDueAt = Math.min(killDueAt, Date.now());
			wake?.();
		},
		get killDueAt() {
			return killDueAt;
		},
		termSentAt,
		done: run(),
	};
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

/** Synchronous, for `process.on('exit')`: SIGKILL to every group still unfinished. */
export function killUnfinishedGroupsNow(): number[] {
	const killed = [...unfinishedGroups].filter(pgid => signalGroup(pgid, 'SIGKILL'));
	unfinishedGroups.clear();
	return killed;
}
