// One hermes-delegate saves a given config.yaml at a time: a lock file beside it, made with an
// exclusive create, naming its owner by pid and kernel start time so that a lock left by a killed
// writer (kill -9, a crash) is recognised as stale, and a recycled pid is not mistaken for its
// owner. Without it two saves between a re-read and a rename lose one of them.
// (Our own, not proper-lockfile: saving is synchronous, shared with the dashboard, and
// proper-lockfile's lockSync cannot wait for a lock; an mtime-based staleness would also break
// the lock of a writer that is merely slow.)
import {closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync} from 'node:fs';
import path from 'node:path';
import {errnoCode, InputError} from '../errors.js';
import {isSameProcess, readProcStat} from '../process/proc-tree.js';

type LockOwner = {pid: number; startTicks: number | null};

export type LockOptions = {
	/** How long to wait for another writer before giving up (a safety net: saves take milliseconds). */
	waitMs?: number;
};

export function lockPathFor(target: string): string {
	return path.join(path.dirname(target), `.${path.basename(target)}.hermes-delegate.lock`);
}

/** Runs `work` holding the lock of the file `target` (a real path, not a symlink). */
export function withConfigLock<T>(target: string, work: () => T, options: LockOptions = {}): T {
	const lockPath = lockPathFor(target);
	const me: LockOwner = {pid: process.pid, startTicks: readProcStat(process.pid)?.startTicks ?? null};
	const deadline = Date.now() + (options.waitMs ?? 20_000);
	let pause = 2;
	for (;;) {
		const holder = tryLock(lockPath, me);
		if (holder === undefined) {
			break;
		}

		if (!isAlive(holder) && breakStaleLock(lockPath, holder)) {
			continue;
		}

		if (Date.now() > deadline) {
			throw new InputError(`another hermes-delegate (pid ${holder.pid}) is still saving this file`, {file: target}, `try again; if no hermes-delegate is running, remove ${lockPath}`);
		}

		sleep(pause);
		pause = Math.min(pause * 2, 50);
	}

	try {
		return work();
	} finally {
		release(lockPath, me);
	}
}

/** Undefined when the lock is now ours; else who holds it (as far as the file says). */
function tryLock(lockPath: string, me: LockOwner): LockOwner | undefined {
	// Written whole under another name, then linked in: the lock never exists half-written.
	const draft = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
	const fd = openSync(draft, 'wx', 0o600);
	try {
		writeSync(fd, JSON.stringify(me));
	} finally {
		closeSync(fd);
	}

	try {
		linkSync(draft, lockPath);
		return undefined;
	} catch (error) {
		if (errnoCode(error) !== 'EEXIST') {
			throw error;
		}

		return readOwner(lockPath) ?? {pid: 0, startTicks: null};
	} finally {
		unlinkSync(draft);
	}
}

function readOwner(file: string): LockOwner | undefined {
	try {
		const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
		return typeof owner.pid === 'number' ? {pid: owner.pid, startTicks: typeof owner.startTicks === 'number' ? owner.startTicks : null} : undefined;
	} catch {
		// Gone meanwhile (released), or not ours to read: try again.
		return undefined;
	}
}

function isAlive(owner: LockOwner): boolean {
	if (owner.pid === 0) {
		return true; // Released between our attempt and our read: simply try again.
	}

	const stat = readProcStat(owner.pid);
	if (owner.startTicks !== null && stat !== undefined) {
		return isSameProcess(owner, stat);
	}

	try {
		process.kill(owner.pid, 0);
		return true;
	} catch (error) {
		return errnoCode(error) === 'EPERM';
	}
}

/**
 * Removes a dead writer's lock, unless another writer broke it and took it first: the lock is
 * moved aside (atomic) and checked to be the dead one's before it is deleted; a live writer's
 * lock taken by mistake is put back.
 */
function breakStaleLock(lockPath: string, stale: LockOwner): boolean {
	const aside = `${lockPath}.stale.${process.pid}`;
	try {
		renameSync(lockPath, aside);
	} catch {
		return true; // Someone else moved it first: try to take the lock again.
	}

	const moved = readOwner(aside);
	if (moved && (moved.pid !== stale.pid || moved.startTicks !== stale.startTicks)) {
		try {
			linkSync(aside, lockPath);
		} catch {
			// A third writer took the lock meanwhile, so two writers overlap this once; each still
			// re-reads before its rename and after it, so neither edit is reported saved while lost.
		}
	}

	unlinkSync(aside);
	return true;
}

function release(lockPath: string, me: LockOwner): void {
	const owner = readOwner(lockPath);
	if (owner && owner.pid === me.pid && owner.startTicks === me.startTicks) {
		unlinkSync(lockPath);
	}
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A synchronous pause: saving is synchronous (the dashboard's saves too). */
function sleep(ms: number): void {
	Atomics.wait(sleeper, 0, 0, ms);
}
