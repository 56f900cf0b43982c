// Orphans: processes of a run whose hermes-delegate is gone (killed with SIGKILL, or the machine's
// OOM killer) that still run. Found from what each run folder recorded as it went: owner.json
// (who ran it), processes.jsonl (each agent with its kernel start time, each descendant seen
// leaving its session). A process counts only while it is provably the one recorded: same user,
// same start time (or, for group and session members, started after their agent): pids recycle.
import {existsSync, lstatSync, readdirSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import {InputError} from '../errors.js';
import {runsDir} from '../hermes/home.js';
import {familyMembers, familyOf, type Family, type FamilyMember} from '../process/family.js';
import {startKillCascade} from '../process/group.js';
import {hasProc, processName, scanProcesses, startTicksAt} from '../process/proc-tree.js';
import {isOwnerAlive, readRunOwner, type RunOwner} from './owner.js';
import {readRegularText} from '../regular-file.js';
import {distrustOf, homeDistrust} from './trust.js';

export type Orphan = FamilyMember & {task: string; agentPid: number; name: string};

export type OrphanFamily = {task: string; family: Family; members: Orphan[]};

export type OrphanRun = {runId: string; dir: string; owner: RunOwner; families: OrphanFamily[]};

const runIdPattern = /^\d{8}-\d{6}-[\da-f]{6}$/;
/** Written once nothing of a run whose owner is gone runs any more. */
const sweptFile = 'swept.json';

const recordSchema = z.object({
	event: z.enum(['started', 'ended', 'escaped']),
	task: z.string(),
	pid: z.number().int().positive(),
	pgid: z.number().int().positive(),
	start_ticks: z.number().int().nonnegative().nullable(),
	at: z.string().optional(),
});

type ProcessLine = z.infer<typeof recordSchema>;

/** Names of run folders, newest first (run ids sort by time); names only: half the cost of types. */
function runNames(hermesHome: string): string[] {
	try {
		return readdirSync(runsDir(hermesHome)).filter(name => runIdPattern.test(name)).sort().reverse();
	} catch {
		return []; // No runs yet, or a home we may not read: nothing of ours to find there.
	}
}

function isRealFolder(dir: string): boolean {
	try {
		return lstatSync(dir).isDirectory(); // Not a symlink to somewhere else.
	} catch {
		return false;
	}
}

function readRecords(dir: string): ProcessLine[] {
	let text: string;
	try {
		text = readRegularText(path.join(dir, 'processes.jsonl'));
	} catch {
		return [];
	}

	// A line cut short by the SIGKILL, or not ours at all, is skipped, not fatal.
	return text.split('\n').flatMap(line => {
		try {
			const parsed = recordSchema.safeParse(JSON.parse(line));
			return parsed.success ? [parsed.data] : [];
		} catch {
			return [];
		}
	});
}

/**
 * The last moment the run wrote for this agent (its records, its logs): the agent's family was then
 * alive and its owner had not reaped the agent, so the agent's ids were still ours (see
 * provenMembers in process/family.ts). As start ticks; undefined when it cannot be told.
 */
function lastWrittenFor(dir: string, task: string, records: ProcessLine[]): number | undefined {
	const times = records.filter(record => record.task === task && record.at !== undefined).map(record => Date.parse(record.at!));
	let logs: string[] = [];
	try {
		logs = readdirSync(path.join(dir, 'logs')).filter(name => name.startsWith(`${task}.`));
	} catch {}

	for (const name of logs) {
		try {
			times.push(statSync(path.join(dir, 'logs', name)).mtimeMs);
		} catch {}
	}

	const latest = Math.max(...times.filter(Number.isFinite));
	const ticks = Number.isFinite(latest) ? startTicksAt(latest) : undefined;
	// One tick (10 ms) for the rounding of /proc/uptime: a line logged right after a process started.
	return ticks === undefined ? undefined : ticks + 1;
}

/** Agents started and never recorded as ended, each with the descendants seen leaving its session. */
function unfinishedFamilies(dir: string, records: ProcessLine[]): Array<{task: string; family: Family}> {
	// By task and pid: a long run may give a later task a recycled pid.
	const key = (record: ProcessLine) => `${record.task} ${record.pgid}`;
	const ended = new Set(records.filter(record => record.event === 'ended').map(key));
	// Without a start time an agent cannot be told from a process that got its pid later: left out.
	return records
		.filter(record => record.event === 'started' && !ended.has(key(record)) && record.start_ticks !== null)
		.map(record => ({
			task: record.task,
			family: familyOf(
				{pid: record.pgid, startTicks: record.start_ticks},
				records.filter(seen => seen.event === 'escaped' && key(seen) === key(record)).map(seen => ({pid: seen.pid, startTicks: seen.start_ticks})),
				// Nothing provable when the time cannot be told: 0 then proves no member by start time.
				lastWrittenFor(dir, record.task, records) ?? 0,
			),
		}));
}

export type FindOptions = {
	/** Look at the newest N runs of each home only (the start-up check); all of them by default. */
	newest?: number | undefined;
	/** A home or run folder left alone because someone else owns it or may write to it (trust.ts). */
	distrusted?(dir: string, why: string): void;
};

/**
 * Runs in `hermesHomes` whose owner is gone and that still have live processes. Cheap when there
 * is nothing to find: a run with results.json finished (its cascade ended everything), and /proc
 * is scanned only when some run's owner is gone with agents not recorded as ended.
 */
export function findOrphans(hermesHomes: readonly string[], options: FindOptions = {}): OrphanRun[] {
	if (!hasProc) return [];
	const candidates: Array<{dir: string; owner: RunOwner; families: Array<{task: string; family: Family}>}> = [];
	for (const home of new Set(hermesHomes.map(home => path.resolve(home)))) {
		const names = runNames(home);
		if (names.length === 0) continue;
		// Process records in a folder someone else can write name whatever they like: never acted on.
		const distrustedHome = homeDistrust(home);
		if (distrustedHome !== undefined) {
			options.distrusted?.(distrustedHome.dir, distrustedHome.why);
			continue;
		}

		for (const name of names.slice(0, options.newest ?? Number.POSITIVE_INFINITY)) {
			const dir = path.join(runsDir(home), name);
			if (!isRealFolder(dir) || existsSync(path.join(dir, 'results.json')) || existsSync(path.join(dir, sweptFile))) continue;
			const why = distrustOf(dir);
			if (why !== undefined) {
				options.distrusted?.(dir, why);
				continue;
			}

			const owner = readRunOwner(dir);
			if (owner === undefined || isOwnerAlive(owner)) continue;
			const families = unfinishedFamilies(dir, readRecords(dir));
			if (families.length > 0) candidates.push({dir, owner, families});
		}
	}

	if (candidates.length === 0) return [];
	const table = scanProcesses();
	// Absent from a partial table proves nothing: no run is marked swept, no orphan is missed quietly.
	if (!table.complete) throw new InputError('could not read the whole process table in /proc', {}, 'raise the open-files limit (ulimit -n) or close what holds it, and run gc again');
	const runs = candidates.map(({dir, owner, families}) => ({
		runId: path.basename(dir),
		dir,
		owner,
		families: families
			.map(({task, family}) => ({task, family, members: familyMembers(family, table).map(member => ({...member, task, agentPid: family.leader.pid, name: processName(member.pid)}))}))
			.filter(found => found.members.length > 0),
	}));
	for (const run of runs) {
		if (run.families.length === 0) markSwept(run.dir);
	}

	return runs.filter(run => run.families.length > 0);
}

/**
 * Nothing of this run runs any more, and with its owner gone nothing can join it: later checks
 * skip it, as they skip a run with results.json, instead of scanning /proc for it at every start.
 */
export function markSwept(dir: string): void {
	try {
		writeFileSync(path.join(dir, sweptFile), `${JSON.stringify({swept_at: new Date().toISOString()})}\n`, {mode: 0o600});
	} catch {
		// A read-only run folder is checked again next time: slower, not wrong.
	}
}

export function orphanCount(runs: readonly OrphanRun[]): number {
	return runs.reduce((sum, run) => sum + run.families.reduce((count, found) => count + found.members.length, 0), 0);
}

/** Ends every orphan family with the kill cascade, all at once. Resolves when they are gone. */
export async function endOrphans(runs: readonly OrphanRun[], options: {graceMs: number}): Promise<{forced: number}> {
	const outcomes = await Promise.all(runs.flatMap(run => run.families.map(async found => startKillCascade(found.family, {graceMs: options.graceMs}).done)));
	for (const run of runs) markSwept(run.dir);
	return {forced: outcomes.filter(outcome => outcome.forced).length};
}

/** The start-up check of every command: one line on stderr, or nothing. */
export function orphanWarning(hermesHomes: readonly string[], options: FindOptions = {newest: 20}): string | undefined {
	const runs = findOrphans(hermesHomes, options);
	const count = orphanCount(runs);
	if (count === 0) return undefined;
	const runIds = runs.map(run => run.runId).join(', ');
	return `${count} process${count === 1 ? '' : 'es'} of ${runs.length === 1 ? 'a run' : `${runs.length} runs`} whose hermes-delegate was killed ${count === 1 ? 'is' : 'are'} still running (${runIds}): list them with \`hermes-delegate gc --dry-run\`, end them with \`hermes-delegate gc\``;
}
