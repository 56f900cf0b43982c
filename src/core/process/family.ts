// An agent's family: every process that is the agent's doing, including those a signal to its
// process group cannot reach. Agents are spawned detached, which is setsid(): each agent leads its
// own session as well as its own group, so its pid is also its group id and its session id.
//   group   — process group == the agent's pid: what kill(-pgid) reaches.
//   session — session id == the agent's pid, in another group: processes moved out of the group
//             with setpgid (a job-control shell such as `bash -m`, Python's process_group=0)
//             cannot leave the session that way.
//   seen    — descendants the watcher saw while they were still the agent's descendants: the
//             only trace of a process that left the session too (setsid), once it is reparented.
// Pids are recycled, so a member must also be the same user's and have started no earlier than
// the agent (group and session), or still have the start time it was seen with (seen).
import {readdirSync} from 'node:fs';
import {freshProcessTable, hasProc, scanProcessesInSlices, isSameProcess, ownUid, processUid, readProcStat, type ProcessId, type ProcessTable, type ProcStat} from './proc-tree.js';
import {walkTrees} from './tree-walk.js';
import {newestPid, walkDue, type WalkPace} from './walk-pace.js';
import {errnoCode} from '../errors.js';

export type Family = {
	/** The agent: pid == process-group id == session id. */
	leader: ProcessId;
	/** Descendants seen while the agent ran: pid → start ticks. Only live ones are kept. */
	seen: Map<number, number>;
	/**
	 * Start ticks up to which the agent's ids were provably still ours (gc: when the run last wrote
	 * for this agent). Undefined: no bound, as for a family whose agent we started ourselves.
	 */
	provenUntil?: number | undefined;
};

export type FamilyMember = ProcStat & {via: 'group' | 'session' | 'seen'};

export function familyOf(leader: ProcessId, seen: Iterable<ProcessId> = [], provenUntil?: number): Family {
	return {leader, seen: new Map([...seen].flatMap(id => (id.startTicks === null ? [] : [[id.pid, id.startTicks] as const]))), provenUntil};
}

/** Live members of the family in `table` (never this process itself; from a partial table, those it holds). */
export function familyMembers(family: Family, table: ProcessTable): FamilyMember[] {
	const {pid: id, startTicks: since} = family.leader;
	// While any process uses the agent's pid as its group or session id, the kernel does not give
	// that pid to a new process; if a process with a different start time has it, the ids are no
	// longer the agent's. Without a start time (not recorded) only the group is trusted, as before.
	const holder = table.byPid.get(id);
	const idsAreOurs = since === null || holder === undefined || holder.startTicks === since;
	const members: FamilyMember[] = [];
	for (const stat of table.byPid.values()) {
		if (stat.pid === process.pid) continue;
		const inGroup = stat.pgrp === id;
		const ofAgent = since === null ? inGroup : stat.session === id && stat.startTicks !== null && stat.startTicks >= since;
		let via: FamilyMember['via'] | undefined = idsAreOurs && ofAgent ? (inGroup ? 'group' : 'session') : undefined;
		if (via === undefined && family.seen.get(stat.pid) === stat.startTicks) via = 'seen';
		if (via !== undefined && (ownUid === undefined || processUid(stat.pid) === ownUid)) members.push({...stat, via});
	}

	return holder === undefined && family.provenUntil !== undefined ? provenMembers(members, family, family.provenUntil) : members;
}

/**
 * With the agent gone its ids prove nothing by themselves: once no process held them, the kernel
 * could give the pid to a later process that setsid()s and leaves children behind, with the same
 * group and session id and started after the agent. But while any process holds the ids they are
 * never reused, so one member started while they were provably ours (by provenUntil) proves every
 * live holder ours; with none, only members recorded with their own start time count.
 */
function provenMembers(members: FamilyMember[], family: Family, provenUntil: number): FamilyMember[] {
	const id = family.leader.pid;
	const holdsIds = (member: FamilyMember) => member.pgrp === id || member.session === id;
	const provenOurs = (member: FamilyMember) => family.seen.get(member.pid) === member.startTicks || (member.startTicks !== null && member.startTicks <= provenUntil);
	const anchored = members.some(member => holdsIds(member) && provenOurs(member));
	return anchored ? members : members.filter(member => family.seen.get(member.pid) === member.startTicks).map(member => ({...member, via: 'seen' as const}));
}

function kill(target: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(target, signal);
		return true;
	} catch {
		return false; // ESRCH: gone meanwhile; EPERM: not ours after all.
	}
}

/** Whether a process group still has a member; EPERM: it exists but is not ours to signal. */
export function groupExists(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return errnoCode(error) !== 'ESRCH';
	}
}

/**
 * Signals the agent's group (when a member is still in it: the kernel then reaches even a process
 * forked a moment ago) and each member outside the group. True when anything was signalled.
 */
export function signalFamily(family: Family, signal: NodeJS.Signals, table: ProcessTable): boolean {
	const groupId = family.leader.pid;
	if (!table.complete) return groupId > 1 && kill(-groupId, signal); // The group at least, as without /proc.
	const members = familyMembers(family, table);
	let signalled = false;
	if (members.some(member => member.pgrp === groupId) && groupId > 1) signalled = kill(-groupId, signal);
	for (const member of members) {
		if (member.pgrp !== groupId) signalled = kill(member.pid, signal) || signalled;
	}

	return signalled;
}

/** Cheap when the agent itself still runs (one file read); a table scan otherwise. */
export function isFamilyAlive(family: Family, table: () => ProcessTable): boolean {
	if (family.leader.startTicks !== null && isSameProcess(family.leader, readProcStat(family.leader.pid))) return true;
	const now = table();
	return now.complete ? familyMembers(family, now).length > 0 : groupExists(family.leader.pid);
}

type Watch = {
	family: Family;
	intervalMs: number;
	onLeftSession: ((stat: ProcStat) => void) | undefined;
	reported: Set<number>;
};

export type FamilyWatch = {family: Family; stop(): void};

export type WatchOptions = {
	/** How often the process tree is scanned for new descendants; 0: never (group and session only). */
	intervalMs: number;
	/** Called once for each seen descendant found outside the agent's session (it called setsid). */
	onLeftSession?: ((stat: ProcStat) => void) | undefined;
};

// Every family whose agent we started and have not seen end. One timer scans /proc for all of
// them, so a batch of 80 tasks costs one scan per interval, not 80; and a round in which no
// process was created on the machine reads nothing but /proc/loadavg (walk-pace.ts).
const watches = new Set<Watch>();
let timer: NodeJS.Timeout | undefined;
let timerMs = 0;

export function watchFamily(leader: ProcessId, options: WatchOptions): FamilyWatch {
	const watch: Watch = {family: familyOf(leader), intervalMs: options.intervalMs, onLeftSession: options.onLeftSession, reported: new Set()};
	watches.add(watch);
	pace.mustWalk = true; // A new tree: walked at the next round whatever the kernel says.
	retime();
	return {
		family: watch.family,
		stop() {
			watches.delete(watch);
			retime();
		},
	};
}

function retime(): void {
	const intervals = [...watches].map(watch => watch.intervalMs).filter(ms => ms > 0);
	const wanted = hasProc && intervals.length > 0 ? Math.min(...intervals) : 0;
	if (wanted === timerMs) return;
	clearInterval(timer);
	timer = undefined;
	timerMs = wanted;
	if (wanted > 0) {
		timer = setInterval(scanWatched, wanted);
		timer.unref(); // Watching never keeps hermes-delegate alive.
	}
}

let scanning = false;

const pace: WalkPace = {newestPid: undefined, skipped: 0, mustWalk: true};

function scanWatched(): void {
	if (scanning) return; // A slow scan is still going: the next tick starts the next one.
	const newest = newestPid(); // Before the walk: a fork during it is walked next round.
	if (!walkDue(pace, newest)) {
		pace.skipped++;
		return;
	}

	Object.assign(pace, {newestPid: newest, skipped: 0, mustWalk: false});
	scanning = true;
	const watching = [...watches].filter(watch => watch.intervalMs > 0);
	void watchedTable(watching).then(table => {
		for (const watch of watching) {
			if (watches.has(watch) && rememberDescendants(watch, table)) pace.mustWalk = true;
		}
	}).finally(() => {
		scanning = false;
	});
}

/** The kernel keeps no children lists: every watch reads the whole of /proc from then on. */
let walkUnsupported = false;
/** Rounds left that read the whole of /proc because a walk cost more than that (tried again after). */
let wholeScansLeft = 0;
const wholeScansAfterOverBudget = 10;

/**
 * What rememberDescendants needs: the watched agents and the descendants seen so far, with their
 * own descendants, each read from /proc. Walked from them (tree-walk.ts) while that takes fewer
 * reads than the machine has processes, else every process is read; a walk's table holds only
 * those trees, and is used for nothing else.
 */
async function watchedTable(watching: Watch[]): Promise<ProcessTable> {
	if (walkUnsupported || wholeScansLeft > 0) {
		wholeScansLeft = Math.max(0, wholeScansLeft - 1);
		return scanProcessesInSlices();
	}

	const roots = watching.flatMap(watch => [watch.family.leader.pid, ...watch.family.seen.keys()]);
	const walked = await walkTrees(roots, processCount());
	if (walked === 'unsupported') walkUnsupported = true;
	if (walked === 'over-budget') wholeScansLeft = wholeScansAfterOverBudget;
	return typeof walked === 'string' ? scanProcessesInSlices() : walked;
}

/** The machine's process count, listed again at most this often: it moves slowly, and a listing costs. */
const processCountMaxAgeMs = 10_000;
let counted: {at: number; count: number} | undefined;

/** How many processes the machine has (a listing of /proc): what reading every one costs. */
function processCount(): number {
	const now = Date.now();
	if (counted && now - counted.at < processCountMaxAgeMs) return counted.count;
	let count = 0;
	try {
		count = readdirSync('/proc').filter(name => name.charCodeAt(0) >= 0x30 && name.charCodeAt(0) <= 0x39).length;
	} catch {
		// Then any walk is over budget, and the whole scan says what it can.
	}

	counted = {at: now, count};
	return count;
}

/** True when the table held a descendant not seen before, or could not tell (a partial table). */
function rememberDescendants(watch: Watch, table: ProcessTable): boolean {
	if (!table.complete) return true; // Absent from a partial table is not dead: try again next time.
	const {family} = watch;
	for (const [pid, startTicks] of family.seen) {
		if (table.byPid.get(pid)?.startTicks !== startTicks) family.seen.delete(pid); // Dead for good.
	}

	// The descendants of the agent and of every process seen before, which may have been
	// reparented away from the agent by now but is still the agent's doing, and so are its children.
	const queue = [...family.seen.keys()];
	let found = false;
	if (isSameProcess(family.leader, table.byPid.get(family.leader.pid))) queue.push(family.leader.pid);
	for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
		for (const child of table.children(next)) {
			if (child.startTicks === null || family.seen.has(child.pid) || child.pid === process.pid) continue;
			family.seen.set(child.pid, child.startTicks);
			queue.push(child.pid);
			found = true;
		}
	}

	for (const pid of family.seen.keys()) {
		const stat = table.byPid.get(pid);
		if (stat && stat.session !== family.leader.pid && !watch.reported.has(pid)) {
			watch.reported.add(pid);
			try {
				watch.onLeftSession?.(stat);
			} catch {
				// Recording it failed (a full disk): the watch itself goes on, the cascade still knows it.
			}
		}
	}

	return found;
}

/** Synchronous, for `process.on('exit')`: SIGKILL to every watched family. Returns their agents' pids. */
export function killWatchedFamiliesNow(): number[] {
	if (watches.size === 0) return [];
	const table = freshProcessTable();
	const killed = [...watches].filter(watch => signalFamily(watch.family, 'SIGKILL', table)).map(watch => watch.family.leader.pid);
	watches.clear();
	retime();
	return killed;
}
