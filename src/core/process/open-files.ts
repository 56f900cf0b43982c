// File descriptors are a budget: each running task holds its stdout and stderr pipes and its log
// (and the log's ring file past the log limit), and a spawn needs six for a moment. Under a low
// `ulimit -n`, a batch that asks for more than fits must run fewer tasks at once, not crash.
// Node cannot change its own limits; util-linux's `prlimit` can, for our own pid, up to the
// hard limit, which any process may do. Without /proc (not Linux) none of this applies.
import {spawnSync} from 'node:child_process';
import {closeSync, openSync, readdirSync, readFileSync} from 'node:fs';
import {InputError} from '../errors.js';
import {SpawnError, spawnInGroup, type GroupProcess, type SpawnOptions} from './group.js';

/** Held by one running task: stdout, stderr, log, the log's ring file. */
export const descriptorsPerTask = 4;
/** Spare for what comes and goes: a spawn's socket pairs and pipe, plan and results writes, /proc reads. */
const reserve = 32;
/** A spawn's peak: two socket pairs (stdout, stderr) and the pipe that reports exec errors. */
const descriptorsPerSpawn = 6;

export type OpenFilesLimit = {soft: number; hard: number};

/** The open-files limit from /proc/self/limits; Infinity for "unlimited"; undefined without /proc. */
export function readOpenFilesLimit(limitsText?: string): OpenFilesLimit | undefined {
	let text = limitsText;
	try {
		text ??= readFileSync('/proc/self/limits', 'utf8');
	} catch {
		return undefined;
	}

	const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text);
	if (!match) {
		return undefined;
	}

	const value = (field: string) => (field === 'unlimited' ? Number.POSITIVE_INFINITY : Number(field));
	return {soft: value(match[1]!), hard: value(match[2]!)};
}

function descriptorsInUse(): number {
	try {
		return readdirSync('/proc/self/fd').length;
	} catch {
		return 0;
	}
}

/** Raises our soft limit to `wanted` (at most the hard limit) with `prlimit`; true if it worked. */
function raiseSoftLimit(wanted: number): boolean {
	const result = spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${wanted}:`], {stdio: 'ignore', timeout: 5000});
	return result.status === 0;
}

export type ConcurrencyFit = {concurrency: number; warning?: string};

/**
 * The concurrency the open-files limit can hold: `requested` when it fits (after raising the soft
 * limit toward the hard one if needed), else fewer with a warning that says why and how to get
 * more; an InputError (exit 2, nothing started) when not even one task fits.
 */
export function fitConcurrencyToOpenFiles(requested: number, needed: number, options: {limit?: OpenFilesLimit | undefined; inUse?: number; raise?: (wanted: number) => boolean} = {}): ConcurrencyFit {
	let limit = 'limit' in options ? options.limit : readOpenFilesLimit();
	const inUse = options.inUse ?? descriptorsInUse();
	const wanted = Math.min(requested, needed);
	if (!limit) {
		return {concurrency: requested};
	}

	const required = inUse + reserve + (wanted * descriptorsPerTask);
	if (required > limit.soft && limit.hard > limit.soft && (options.raise ?? raiseSoftLimit)(Math.min(limit.hard, required))) {
		limit = 'limit' in options ? {...limit, soft: Math.min(limit.hard, required)} : readOpenFilesLimit() ?? limit;
	}

	const fits = Math.floor((limit.soft - inUse - reserve) / descriptorsPerTask);
	if (fits >= wanted) {
		return {concurrency: requested};
	}

	const raise = `raise it with \`ulimit -n ${required}\`${limit.hard < required ? ` (above the hard limit of ${limit.hard}: that takes root, or /etc/security/limits.conf)` : ''}`;
	if (fits < 1) {
		throw new InputError(`the open-files limit (ulimit -n) is ${limit.soft}, too low to run even one task: ${inUse} descriptors are in use and each task needs about ${descriptorsPerTask}`, {}, raise);
	}

	return {
		concurrency: fits,
		warning: `running ${fits} tasks at once instead of ${requested}: the open-files limit (ulimit -n) is ${limit.soft} and each running task needs about ${descriptorsPerTask} descriptors; ${raise} to run ${wanted} at once`,
	};
}

/** Descriptors this process may still open under its soft limit; undefined without /proc or without a limit. */
export function descriptorsFree(): {free: number; limit: number} | undefined {
	const limit = readOpenFilesLimit();
	if (!limit || limit.soft === Number.POSITIVE_INFINITY) {
		return undefined;
	}

	return {free: limit.soft - descriptorsInUse(), limit: limit.soft};
}

/** What a batch of `concurrency` tasks needs kept back to run: each running task's and one spawn's descriptors. */
export function descriptorsForTasks(concurrency: number): number {
	return (concurrency * descriptorsPerTask) + descriptorsPerSpawn;
}

/** True when `count` more descriptors can be opened right now. */
function descriptorsAvailable(count: number): boolean {
	const opened: number[] = [];
	try {
		for (let index = 0; index < count; index++) {
			opened.push(openSync('/dev/null', 'r'));
		}

		return true;
	} catch {
		return false;
	} finally {
		for (const fd of opened) {
			closeSync(fd);
		}
	}
}

/**
 * spawnInGroup, but a spawn that would fail for lack of descriptors fails first, with a message
 * that says what to do about it (spawnInGroup would report the kernel's bare EMFILE). (Checked in
 * the same tick as the spawn; only a file opened by another thread in between can still take the
 * last descriptor, and then spawnInGroup's SpawnError still fails only this task.)
 */
export async function spawnIfDescriptors(file: string, args: readonly string[], options: SpawnOptions = {}): Promise<GroupProcess> {
	if (!descriptorsAvailable(descriptorsPerSpawn)) {
		throw new SpawnError(file, 'EMFILE', `cannot start ${file}: too many open files (EMFILE): hermes-delegate is out of file descriptors; raise \`ulimit -n\` or lower --concurrency`);
	}

	return spawnInGroup(file, args, options);
}
