// The process table as Linux shows it in /proc: who is whose parent, in which process group and
// session, started when, owned by whom. The one parser of /proc/<pid>/stat; everything that needs
// to know whether a process is still "ours" reads it through here.
import {closeSync, openSync, readdirSync, readFileSync, readSync, statSync} from 'node:fs';
import {errnoCode} from '../errors.js';

export type ProcStat = {
	pid: number;
	state: string;
	ppid: number;
	pgrp: number;
	session: number;
	/** Kernel start time (clock ticks since boot): with the pid, it names one process, never a reused pid. */
	startTicks: number | null;
};

/** One process, named so that a recycled pid is never mistaken for it. */
export type ProcessId = {pid: number; startTicks: number | null};

export const hasProc: boolean = (() => {
	try {
		return statSync('/proc/self/stat').isFile();
	} catch {
		return false;
	}
})();

/**
 * The kernel start time (clock ticks since boot, as in /proc/PID/stat) of a moment given as a wall
 * clock time, from /proc/uptime; undefined without it. USER_HZ is 100 on every Linux build.
 */
export function startTicksAt(wallMs: number, nowMs: number = Date.now()): number | undefined {
	try {
		const uptimeSeconds = Number.parseFloat(readFileSync('/proc/uptime', 'latin1'));
		return Number.isFinite(uptimeSeconds) ? Math.floor((uptimeSeconds - (nowMs - wallMs) / 1000) * 100) : undefined;
	} catch {
		return undefined;
	}
}

/** Undefined when the process is gone, or cannot be read (no /proc, no file descriptor left). */
export function readProcStat(pid: number | string): ProcStat | undefined {
	try {
		return readProcStatOrThrow(pid);
	} catch {
		return undefined;
	}
}

/**
 * Where stat lines are read: one is a few hundred bytes. A scan reads every process on the
 * machine, so each read is open, one read, close; readFileSync would add an fstat and a second
 * read to find the end (a /proc file has no size), a fifth of a scan's time (bench/RESULTS.md).
 */
const statBuffer = Buffer.alloc(4096);

/** Undefined when the process is gone; throws when it cannot tell (EMFILE, say). */
function readProcStatOrThrow(pid: number | string): ProcStat | undefined {
	let text: string;
	try {
		text = readStatLine(`/proc/${pid}/stat`);
	} catch (error) {
		const code = errnoCode(error);
		if (code === 'ENOENT' || code === 'ESRCH') return undefined; // Exited between listing and reading.
		throw error;
	}

	if (text === '') return undefined; // Exited between opening and reading.

	// "pid (comm) state ppid pgrp session ...": comm may itself contain spaces and ')'. The slice
	// starts at field 3 (state), so field N of proc(5) is fields[N - 3].
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	const state = fields[0];
	const ppid = Number(fields[1]);
	const pgrp = Number(fields[2]);
	const session = Number(fields[3]);
	const startTicks = Number(fields[19]);
	if (state === undefined || !Number.isInteger(pgrp) || !Number.isInteger(session)) return undefined;
	return {pid: Number.parseInt(text, 10), state, ppid, pgrp, session, startTicks: Number.isInteger(startTicks) ? startTicks : null};
}

/** The whole stat file: the kernel writes it in one piece, so one read of a large buffer holds it. */
function readStatLine(file: string): string {
	const fd = openSync(file, 'r');
	try {
		const length = readSync(fd, statBuffer, 0, statBuffer.length, null);
		// Never seen: a line longer than the buffer. Read again, whole, rather than parse half of it.
		return length < statBuffer.length ? statBuffer.toString('latin1', 0, length) : readFileSync(file, 'latin1');
	} finally {
		closeSync(fd);
	}
}

// Zombies count as dead: PID 1 in a container may never reap a reparented grandchild.
export function isLive(stat: ProcStat): boolean {
	return stat.state !== 'Z' && stat.state !== 'X';
}

/** Whether `id` still runs as the very process that was recorded (same pid, same start time). */
export function isSameProcess(id: ProcessId, stat: ProcStat | undefined): boolean {
	return stat !== undefined && isLive(stat) && id.startTicks !== null && stat.startTicks === id.startTicks;
}

/** The owner of a process (the owner of its /proc folder); undefined when it is gone. */
export function processUid(pid: number): number | undefined {
	try {
		return statSync(`/proc/${pid}`).uid;
	} catch {
		return undefined;
	}
}

export const ownUid: number | undefined = process.getuid?.();

/** The command name the kernel keeps (at most 15 characters); untrusted text. */
export function processName(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/comm`, 'utf8').trimEnd();
	} catch {
		return '?';
	}
}

export type ProcessTable = {
	/** Epoch ms when the table was read. */
	readonly at: number;
	/**
	 * False when /proc could not be read whole (out of file descriptors, say): then absence from
	 * the table proves nothing, and callers fall back to what a process-group signal can tell.
	 */
	readonly complete: boolean;
	readonly byPid: ReadonlyMap<number, ProcStat>;
	/** Live children of `pid`. */
	children(pid: number): ProcStat[];
};

/** Every live process, read now. Empty and incomplete without /proc. */
export function scanProcesses(): ProcessTable {
	const byPid = new Map<number, ProcStat>();
	let complete = hasProc;
	try {
		for (const entry of hasProc ? readdirSync('/proc') : []) {
			readEntry(entry, byPid);
		}
	} catch {
		complete = false;
	}

	return tableOf(byPid, complete, Date.now());
}

function readEntry(entry: string, byPid: Map<number, ProcStat>): void {
	if (!/^\d+$/.test(entry)) return;
	const stat = readProcStatOrThrow(entry);
	if (stat && isLive(stat)) byPid.set(stat.pid, stat);
}

/** Processes read per turn of the event loop by scanProcessesInSlices. */
const sliceEntries = 16;

/**
 * Every live process, read a few at a time with the event loop's other work in between: a
 * machine's /proc takes 2–25 ms to read (the longer under load), which in one piece would hold
 * a key press that long. For the once-a-second watch, where a process that changes meanwhile is
 * simply seen at the next scan; the cascade keeps scanProcesses, one consistent read.
 */
export async function scanProcessesInSlices(): Promise<ProcessTable> {
	const at = Date.now();
	const byPid = new Map<number, ProcStat>();
	let complete = hasProc;
	try {
		const entries = hasProc ? readdirSync('/proc') : [];
		for (let start = 0; start < entries.length; start += sliceEntries) {
			if (start > 0) {
				await new Promise(resolve => {
					setImmediate(resolve);
				});
			}

			for (const entry of entries.slice(start, start + sliceEntries)) {
				readEntry(entry, byPid);
			}
		}
	} catch {
		complete = false;
	}

	return tableOf(byPid, complete, at);
}

function tableOf(byPid: Map<number, ProcStat>, complete: boolean, at: number): ProcessTable {
	let childrenOf: Map<number, ProcStat[]> | undefined;
	return {
		at,
		complete,
		byPid,
		children(pid) {
			if (!childrenOf) {
				childrenOf = new Map();
				for (const stat of byPid.values()) {
					const siblings = childrenOf.get(stat.ppid);
					if (siblings) siblings.push(stat);
					else childrenOf.set(stat.ppid, [stat]);
				}
			}

			return childrenOf.get(pid) ?? [];
		},
	};
}

let cached: ProcessTable | undefined;

/**
 * A table no older than `maxAgeMs`, shared by everyone who asks: many cascades polling at once
 * cost one scan, not one each. Use `scanProcesses()` when a missed new process would matter.
 */
export function recentProcessTable(maxAgeMs: number): ProcessTable {
	if (!cached || Date.now() - cached.at > maxAgeMs) cached = scanProcesses();
	return cached;
}

/** A fresh scan that also refreshes the shared one. */
export function freshProcessTable(): ProcessTable {
	cached = scanProcesses();
	return cached;
}

let nextScan: Promise<ProcessTable> | undefined;

/**
 * A table read after this call. Everyone who asks in the same turn of the event loop shares one
 * scan, taken once the turn's other events are handled: when several agents of a batch of short
 * tasks end together, each would otherwise cost a read of every process on the machine.
 */
export async function processTableFromNow(): Promise<ProcessTable> {
	nextScan ??= new Promise(resolve => {
		setImmediate(() => {
			nextScan = undefined;
			resolve(freshProcessTable());
		});
	});
	return nextScan;
}
