// The process table as Linux shows it in /proc: who is whose parent, in which process group and
// session, started when, owned by whom. The one parser of /proc/<pid>/stat; everything that needs
// to know whether a process is still "ours" reads it through here.
// Past ~300 lines as one reader: the stat parser, the same-process test and the table scans share
// one buffer and one idea of a /proc entry; split, each would carry a copy of how an entry is read.
import {closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, statSync} from 'node:fs';
import path from 'node:path';
import {errnoCode} from '../errors.js';

export type ProcStat = {
	pid: number;
	state: string;
	ppid: number;
	pgrp: number;
	session: number;
	/** Kernel start time (clock ticks since boot): with the pid, it names one process, never a reused pid. */
	startTicks: number | null;
	/** Its threads (tree-walk.ts reads one children list per thread); absent when unreadable. */
	threads?: number;
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
export function readProcStatOrThrow(pid: number | string): ProcStat | undefined {
	let bytes: Buffer;
	try {
		bytes = readStatBytes(`/proc/${pid}/stat`);
	} catch (error) {
		const code = errnoCode(error);
		if (code === 'ENOENT' || code === 'ESRCH') return undefined; // Exited between listing and reading.
		throw error;
	}

	if (bytes.length === 0) return undefined; // Exited between opening and reading.
	return parseStat(bytes);
}

/**
 * The whole stat file: the kernel writes it in one piece, so one read of a large buffer holds it.
 * The bytes are statBuffer's, valid until the next read.
 */
function readStatBytes(file: string): Buffer {
	const fd = openSync(file, 'r');
	try {
		const length = readSync(fd, statBuffer, 0, statBuffer.length, null);
		// Never seen: a line longer than the buffer. Read again, whole, rather than parse half of it.
		return length < statBuffer.length ? statBuffer.subarray(0, length) : readFileSync(file);
	} finally {
		closeSync(fd);
	}
}

const space = 0x20;
const closingParen = 0x29;

/**
 * "pid (comm) state ppid pgrp session ... starttime ...", read from the bytes: comm may itself
 * contain spaces and ')', so the fields are counted from the last ')'. Field N of proc(5) is the
 * (N − 2)th after it. No string is made of the line or its fields: a scan reads every process
 * on the machine once a second, and splitting each line into its 52 fields was most of a scan's
 * time outside the kernel, and garbage (bench/RESULTS.md, 2026-12-03, 7ee40b5). Exported for its tests.
 */
export function parseStat(bytes: Buffer): ProcStat | undefined {
	// The line ends with a line break.
	const length = bytes.at(-1) === 0x0A ? bytes.length - 1 : bytes.length;
	const close = bytes.lastIndexOf(closingParen, length - 1);
	const stateAt = close + 2;
	if (close === -1 || stateAt >= length || bytes[close + 1] !== space) return undefined;
	// One pass over the bytes after the state: fields 4 (ppid), 5 (pgrp), 6 (session), 20
	// (num_threads) and 22 (starttime) are read as decimals, the others only counted (a byte loop: a native
	// indexOf per field costs more in crossing to C++ than it saves).
	const wanted = [Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN];
	let stateEnd = length;
	let field = 3;
	let fieldStart = stateAt;
	for (let index = stateAt; index <= length && field <= 22; index++) {
		if (index < length && bytes[index] !== space) continue;
		if (field === 3) stateEnd = index;
		const slot = field >= 4 && field <= 6 ? field - 4 : field === 22 ? 3 : field === 20 ? 4 : -1;
		if (slot !== -1) wanted[slot] = decimalAt(bytes, fieldStart, index);
		field++;
		fieldStart = index + 1;
	}

	const state = bytes.toString('latin1', stateAt, stateEnd);
	const [ppid, pgrp, session, startTicks, threads] = wanted as [number, number, number, number, number];
	if (state === '' || !Number.isInteger(pgrp) || !Number.isInteger(session)) return undefined;
	const stat: ProcStat = {pid: leadingDecimal(bytes), state, ppid, pgrp, session, startTicks: Number.isInteger(startTicks) ? startTicks : null};
	if (threads > 0) stat.threads = threads;
	return stat;
}

/** The whole of bytes[from, to) as a decimal integer (a leading '-' allowed); NaN for anything else. */
function decimalAt(bytes: Buffer, from: number, to: number): number {
	const negative = bytes[from] === 0x2D;
	let index = negative ? from + 1 : from;
	if (index >= to) return Number.NaN;
	let value = 0;
	for (; index < to; index++) {
		const digit = bytes[index]! - 0x30;
		if (digit < 0 || digit > 9) return Number.NaN;
		value = (value * 10) + digit;
	}

	return negative ? -value : value;
}

/** The digits the line starts with (the pid), as parseInt reads them; NaN without any. */
function leadingDecimal(bytes: Buffer): number {
	let end = 0;
	while (end < bytes.length && bytes[end]! >= 0x30 && bytes[end]! <= 0x39) end++;
	return end === 0 ? Number.NaN : decimalAt(bytes, 0, end);
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

/** The command name the kernel keeps (at most 15 characters; untrusted), or, where a program renamed its main thread (Node 24: `MainThread`), its program file's. */
export function processName(pid: number): string {
	try {
		const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trimEnd();
		return comm === 'MainThread' ? path.basename(readlinkSync(`/proc/${pid}/exe`)).slice(0, 15) : comm;
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
	/** The machine's forks since boot just before the scan began (forksSinceBoot); absent when unread. */
	readonly forks?: number | undefined;
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

/** A table of these processes (children() from their parent ids). */
export function tableOf(byPid: Map<number, ProcStat>, complete: boolean, at: number): ProcessTable {
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
	if (!cached || Date.now() - cached.at > maxAgeMs) return freshProcessTable();
	return cached;
}

/** A fresh scan that also refreshes the shared one. */
export function freshProcessTable(): ProcessTable {
	// Counted before the scan: a process made visible while it runs is one more fork (noForkSince).
	const forks = forksSinceBoot();
	cached = {...scanProcesses(), forks};
	return cached;
}

/** The shared table: the last one read by freshProcessTable or recentProcessTable, if any. */
export function lastProcessTable(): ProcessTable | undefined {
	return cached;
}

/**
 * The kernel's count of forks since boot (/proc/stat's `processes`: every process and thread
 * ever created on the machine, counted as it becomes visible in /proc); undefined when unread.
 */
export function forksSinceBoot(): number | undefined {
	try {
		const match = /^processes (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'));
		return match ? Number(match[1]) : undefined;
	} catch {
		return undefined;
	}
}

/** The count when this module loaded: one that has not grown since (a sandbox's /proc/stat that does not count, say) proves nothing. */
const forksAtLoad = forksSinceBoot();

/**
 * True when no process or thread has been created on the machine since just before `table` was
 * read: then every process alive now was visible when the scan began, and was read by it
 * (unless it exited before its turn, and so is not alive now either). False too when the
 * count has not moved since this module loaded: the agents spawned since would have moved it.
 */
export function noForkSince(table: ProcessTable): boolean {
	const now = forksSinceBoot();
	return now !== undefined && now === table.forks && forksAtLoad !== undefined && now > forksAtLoad;
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
