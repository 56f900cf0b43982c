// When the family watch (family.ts) walks the watched process trees again. A tree grows only by
// a new process, and the kernel says which pid it handed out last: while that stays, no process
// was created anywhere, and a walk would read the same trees again (on a quiet machine most of a
// quiet batch's walks: bench/RESULTS.md, "the floor of the slow trickle").
import {readFileSync} from 'node:fs';

export type WalkPace = {
	/** The newest pid when the trees were last walked. */
	newestPid: number | undefined;
	/** Rounds skipped since. */
	skipped: number;
	/** Walk at the next round, whatever the newest pid. */
	mustWalk: boolean;
};

/** Rounds in a row a watch may skip: a descendant seen before may leave its session (setsid) without any fork. */
export const maxQuietSkips = 9;

/**
 * Whether this round walks: a pid was handed out since the last walk (or none can be read); or
 * mustWalk (a new watch; the round after a walk that found a new descendant, which may call
 * setsid a moment after its fork); or maxQuietSkips rounds were skipped.
 */
export function walkDue(pace: WalkPace, newestPid: number | undefined): boolean {
	return pace.mustWalk || newestPid === undefined || newestPid !== pace.newestPid || pace.skipped >= maxQuietSkips;
}

/** The pid the kernel handed out last in this pid namespace (/proc/loadavg's last field); undefined when unreadable. */
export function newestPid(): number | undefined {
	try {
		const last = Number(readFileSync('/proc/loadavg', 'latin1').trim().split(' ').at(-1));
		return Number.isInteger(last) && last > 0 ? last : undefined;
	} catch {
		return undefined;
	}
}
