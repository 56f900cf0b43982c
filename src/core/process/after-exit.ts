// Whether anything of an agent's family still runs once the agent itself has exited: asked at the
// end of every task (run/task-run.ts); a yes starts the kill cascade.
import {familyMembers, isFamilyAlive, type Family} from './family.js';
import {isLive, lastProcessTable, noForkSince, processTableFromNow, readProcStatOrThrow, type ProcessTable, type ProcStat} from './proc-tree.js';

export type AfterExitReads = {
	/** The last table read (default: the shared one, proc-tree.ts). */
	earlier?: ProcessTable | undefined;
	/** Whether nothing was created since it was read (default: the kernel's fork count, proc-tree.ts). */
	noForkSince?: (table: ProcessTable) => boolean;
	/** A table read after this turn's other events (default: processTableFromNow). */
	scan?: () => Promise<ProcessTable>;
};

/**
 * Answered from the last scan of /proc when it provably still holds every process that can be of
 * the family, else from a scan after this turn's other events, as before. The proof, in this
 * order: every member of the family in the last scan is gone now; and after that check, the
 * kernel's fork count is still the one read just before the scan (noForkSince). Then no process
 * has become visible since the scan began, so any process alive now was read by it; none can have
 * joined the family since (a process group can be joined only from within its session, a session
 * never: setpgid(2), setsid(2)); and none can have been forked by a member after the check, for
 * the members were gone by then. A batch's tasks end a few at a time: without this each few cost
 * a scan of every process on the machine (bench/RESULTS.md, 2026-12-06, "the runner host in the trickle").
 */
export async function familyOutlivesAgent(family: Family, reads: AfterExitReads = {}): Promise<boolean> {
	const earlier = 'earlier' in reads ? reads.earlier : lastProcessTable();
	if (earlier?.complete && familyMembers(family, earlier).every(member => goneSince(member)) && (reads.noForkSince ?? noForkSince)(earlier)) return false;
	const table = await (reads.scan ?? processTableFromNow)();
	return isFamilyAlive(family, () => table);
}

/** The process read earlier has exited (or its pid is another process's); one that cannot be read now has not. */
function goneSince(earlier: ProcStat): boolean {
	try {
		const now = readProcStatOrThrow(earlier.pid);
		return now === undefined || !isLive(now) || (earlier.startTicks !== null && now.startTicks !== earlier.startTicks);
	} catch {
		return false;
	}
}
