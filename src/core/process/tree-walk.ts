// The process trees under a few processes, read from /proc without reading every process on the
// machine: each one's stat line, then its threads' children lists (/proc/<pid>/task/<tid>/children,
// kept by kernels built with CONFIG_PROC_CHILDREN, which every mainstream distribution's is). The
// once-a-second family watch (family.ts) walks the watched agents and the descendants it has seen
// this way while that is cheaper than reading everything: 16 quiet agents are ~50 small reads where
// the whole of /proc is a stat line per process, ~100 on a quiet machine, many more on a busy one;
// that scan was half of an idle runner host's CPU (bench/RESULTS.md, 2026-12-03, 7ee40b5).
import {closeSync, openSync, readdirSync, readSync} from 'node:fs';
import {errnoCode} from '../errors.js';
import {isLive, readProcStatOrThrow, tableOf, type ProcessTable, type ProcStat} from './proc-tree.js';

/**
 * - a table: the roots (those still alive) and every live descendant, linked by parent id;
 * - 'over-budget': it took more than `budget` reads, more than reading every process would;
 * - 'unsupported': the kernel keeps no children lists;
 * - 'failed': a read failed for another reason than the process being gone (EMFILE, say).
 * In all but the first the caller reads the whole of /proc instead.
 */
export type WalkOutcome = ProcessTable | 'over-budget' | 'unsupported' | 'failed';

/** Processes read per turn of the event loop: as scanProcessesInSlices, so a key never waits behind a walk. */
const sliceProcesses = 16;

const gone = (error: unknown) => {
	const code = errnoCode(error);
	return code === 'ENOENT' || code === 'ESRCH';
};

/**
 * The table of `roots` and their descendants, read now. In it, a root or a descendant that is
 * missing is gone (or a zombie); a process that is neither is simply not read: the table is
 * complete for these trees only, which is all the family watch asks of it.
 */
export async function walkTrees(roots: Iterable<number>, budget: number): Promise<WalkOutcome> {
	const at = Date.now();
	const byPid = new Map<number, ProcStat>();
	const queue = [...new Set(roots)];
	const queued = new Set(queue);
	let reads = 0;
	let sinceTurn = 0;
	for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
		if (++sinceTurn > sliceProcesses) {
			sinceTurn = 0;
			await new Promise(resolve => {
				setImmediate(resolve);
			});
		}

		let stat: ProcStat | undefined;
		let threads: string[];
		try {
			stat = readProcStatOrThrow(pid);
			reads++;
			if (stat === undefined || !isLive(stat)) continue;
			// A process of one thread (a shell, `sleep`, most tools) has only its own list: no listing.
			if (stat.threads === 1) {
				threads = [String(pid)];
			} else {
				threads = readdirSync(`/proc/${pid}/task`);
				reads++;
			}
		} catch (error) {
			if (gone(error)) continue; // Exited between two reads: its children are no longer its.
			return 'failed';
		}

		byPid.set(pid, stat);
		// A child belongs to the thread that forked it (a Node agent forks from its worker threads):
		// every thread's list is read.
		for (const thread of threads) {
			let children: string;
			try {
				children = readSmallFile(`/proc/${pid}/task/${thread}/children`);
				reads++;
			} catch (error) {
				if (!gone(error)) return 'failed';
				// Missing while its thread is there: the kernel keeps no children lists.
				if (threadExists(pid, thread)) return 'unsupported';
				continue; // The thread ended meanwhile; its children went to another thread, read too.
			}

			for (const word of children.split(' ')) {
				const child = Number(word);
				if (word !== '' && Number.isInteger(child) && !queued.has(child)) {
					queued.add(child);
					queue.push(child);
				}
			}
		}

		if (reads > budget) return 'over-budget';
	}

	return tableOf(byPid, true, at);
}

function threadExists(pid: number, thread: string): boolean {
	try {
		readdirSync(`/proc/${pid}/task/${thread}`);
		return true;
	} catch {
		return false;
	}
}

const buffer = Buffer.alloc(4096);

/** A /proc file (no size, so read until it ends), as text; one open, reads, one close. */
function readSmallFile(file: string): string {
	const fd = openSync(file, 'r');
	try {
		const parts: string[] = [];
		for (let length = readSync(fd, buffer, 0, buffer.length, null); length > 0; length = readSync(fd, buffer, 0, buffer.length, null)) {
			parts.push(buffer.toString('latin1', 0, length));
		}

		return parts.join('');
	} finally {
		closeSync(fd);
	}
}
