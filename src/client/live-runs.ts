// Which runs exist, and which of them a runner host still serves: for `ls`, `attach`, `wait` and
// `cancel`. Read from the run folders only (owner.json, host.json, results.json, plan.json and the
// process records), never through a socket: a look must not count as a client.
import {existsSync} from 'node:fs';
import path from 'node:path';
import {InputError} from '../core/errors.js';
import {resolveHermesHome, runsDir} from '../core/hermes/home.js';
import {demoHomePath} from '../core/input/demo.js';
import {listRuns, readRun} from '../core/run-folder/history.js';
import {isOwnerAlive, readRunOwner} from '../core/run-folder/owner.js';
import {connectToBatch, type BatchConnection} from './connection.js';
import {countByStatus, hostLogSaysResultsUnwritten, readHostStatus} from '../wire/host-json.js';

/**
 * - live: a runner host serves the run (attach, wait, cancel work);
 * - running: its owner runs, but it is no host (`run` without --detach, or a version before hosts);
 * - finished: results.json is written and nothing serves it any more;
 * - unrecorded: the batch finished, but results.json could not be written (a full disk): its host
 *   kept the report for a `wait` and said so in host.log, then ended;
 * - owner died: its owner is gone (SIGKILL) before results were written: `gc` ends its leftovers;
 * - cleaned: such a run swept since (swept.json, by `gc` or by the check every command makes):
 *   nothing of it runs any more.
 */
export type RunState = 'live' | 'running' | 'finished' | 'unrecorded' | 'owner died' | 'cleaned';

export type RunEntry = {
	runId: string;
	dir: string;
	hermesHome: string;
	startedAt: string | null;
	state: RunState;
	/** The batch had finished by the last word of its host (it waits for its last client to go). */
	batchFinished: boolean;
	clients: number | null;
	tasks: Record<string, number>;
	socket: string | null;
	/** Who started it, when not the operator at a terminal (the MCP client's name, from host.json). */
	origin: string | null;
	/** The process that ran the batch (owner.json), alive or not. */
	ownerPid: number | null;
	/** The runner host's, when a host ran it (host.json): what a `kill -9` then `gc` acts on. */
	hostPid: number | null;
};

/** This HERMES_HOME and the demo's (a demo runs under a host of its own too), as `gc` searches them. */
export function runHomes(env: NodeJS.ProcessEnv): string[] {
	return [resolveHermesHome(env), demoHomePath(env)];
}

export function attachCommandFor(runId: string): string {
	return `hermes-delegate attach ${runId}`;
}

/** Every run of these homes, newest first (run ids sort by time), at most `limit`. */
export function listRecentRuns(hermesHomes: readonly string[], options: {limit?: number} = {}): RunEntry[] {
	const names = [...new Set(hermesHomes.map(home => path.resolve(home)))]
		.flatMap(home => listRuns(home).map(runId => ({runId, home})))
		.sort((a, b) => (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0))
		.slice(0, options.limit ?? Number.POSITIVE_INFINITY);
	// Run ids count seconds: two runs started in the same second are told apart by their owner's start.
	return names.map(({runId, home}) => describeRun(runId, home))
		.sort((a, b) => b.runId.slice(0, 15).localeCompare(a.runId.slice(0, 15)) || (b.startedAt ?? '').localeCompare(a.startedAt ?? '') || b.runId.localeCompare(a.runId));
}

export function describeRun(runId: string, hermesHome: string): RunEntry {
	const dir = path.join(runsDir(hermesHome), runId);
	const owner = readRunOwner(dir);
	const ownerAlive = owner !== undefined && isOwnerAlive(owner);
	const host = readHostStatus(dir);
	const hasResults = existsSync(path.join(dir, 'results.json'));
	const socket = host && ownerAlive && host.pid === owner.pid && existsSync(host.socket) ? host.socket : null;
	const state: RunState = socket ? 'live' : ownerAlive ? 'running' : hasResults ? 'finished' : hostLogSaysResultsUnwritten(dir) ? 'unrecorded' : existsSync(path.join(dir, 'swept.json')) ? 'cleaned' : 'owner died';
	return {
		runId,
		dir,
		hermesHome,
		startedAt: owner?.at || null,
		state,
		batchFinished: socket ? host!.finished : hasResults,
		clients: socket ? host!.clients : null,
		tasks: socket ? host!.tasks : tasksOnDisk(runId, dir),
		socket,
		origin: host?.origin ?? null,
		ownerPid: owner?.pid ?? null,
		hostPid: host?.pid ?? null,
	};
}

function tasksOnDisk(runId: string, dir: string): Record<string, number> {
	try {
		return countByStatus(readRun({runId, dir}).tasks.map(task => task.status));
	} catch {
		return {}; // No plan.json: the run ended before it started.
	}
}

/**
 * The run a command names, or (none named) the newest live one; an InputError that names the
 * choices otherwise. `needLive`: the command talks to the host (attach, cancel).
 */
export function chooseRun(hermesHomes: readonly string[], runId: string | undefined, options: {needLive: boolean; command: string}): RunEntry {
	const runs = listRecentRuns(hermesHomes);
	if (runId !== undefined) {
		const found = runs.find(run => run.runId === runId);
		if (!found) {
			const live = runs.filter(run => run.state === 'live').map(run => run.runId);
			throw new InputError(`no run ${JSON.stringify(runId)} in ${hermesHomes.map(home => runsDir(home)).join(' or ')}`, {}, live.length > 0 ? `live runs: ${live.join(', ')} (\`hermes-delegate ls\` lists every run)` : '`hermes-delegate ls` lists the runs; set HERMES_HOME to the home the batch ran in');
		}

		if (options.needLive && found.state !== 'live') throw notLive(found, options.command);
		return found;
	}

	const live = runs.filter(run => run.state === 'live');
	if (live.length === 0) {
		// attach also opens a finished run (read-only): say so to whoever came to look at one.
		const finished = options.command === 'attach to' ? ', and `hermes-delegate attach RUN` opens a finished one read-only' : '';
		throw new InputError('no live run: no runner host serves a batch of this HERMES_HOME', {}, `start one with \`hermes-delegate tui\`, \`demo\` or \`run --detach\`; \`hermes-delegate ls\` lists the recent runs${finished}`);
	}

	return live[0]!;
}

/** Where an unrecorded run's story is told. */
export const unrecordedWhere = 'host.log in its run folder says why; the report went to the client (`wait` or a dashboard) attached then';
/**
 * For commands that read a run's folder (logs, spend): the run named, found in the same homes as
 * `ls` and `attach` look in, or (none named) the newest run of them, live or finished.
 */
export function findAnyRun(hermesHomes: readonly string[], runId: string | undefined, command: string): RunEntry {
	if (runId !== undefined) {
		return chooseRun(hermesHomes, runId, {needLive: false, command});
	}

	const newest = listRecentRuns(hermesHomes, {limit: 1})[0];
	if (!newest) {
		throw new InputError(`no runs yet in ${[...new Set(hermesHomes.map(home => runsDir(home)))].join(' or ')}`, {}, 'run a batch first (hermes-delegate run, tui or demo), or set HERMES_HOME to the home the batch ran in');
	}

	return newest;
}

export function notLive(run: RunEntry, command: string): InputError {
	const why = {
		running: 'it runs in a `hermes-delegate run` of its own, without a runner host (start it with `run --detach` to reach it later)',
		finished: 'it has finished',
		unrecorded: `it has finished, but its results.json could not be written (${unrecordedWhere})`,
		'owner died': 'its runner host died (killed with SIGKILL?) before it finished',
		cleaned: 'its runner host died before it finished; nothing of it runs any more',
		live: '',
	}[run.state];
	const fix = run.state === 'owner died'
		? `\`hermes-delegate gc\` ends what it left running; its logs stay: \`hermes-delegate logs ${run.runId}\``
		: `\`hermes-delegate logs ${run.runId}\` shows its tasks; \`hermes-delegate ls\` lists the live runs`;
	return new InputError(`cannot ${command} run ${run.runId}: ${why}`, {}, fix);
}

const statusOrder = ['running', 'cancelling', 'queued', 'succeeded', 'failed', 'timed_out', 'lost', 'cancelled', 'refused', 'started', 'ended', 'unfinished'];

/** `2 running, 1 queued, 3 succeeded`: the tasks by status, in one order for every run. */
export function describeTasks(tasks: Readonly<Record<string, number>>): string {
	const known = statusOrder.filter(status => (tasks[status] ?? 0) > 0).map(status => `${tasks[status]} ${status.replace('_', ' ')}`);
	const other = Object.entries(tasks).filter(([status, count]) => !statusOrder.includes(status) && count > 0).map(([status, count]) => `${count} ${status}`);
	return [...known, ...other].join(', ') || 'no tasks';
}

/** One line about a run: what a choice between live runs shows. */
export function describeRunLine(run: RunEntry): string {
	const clients = run.clients === null ? '' : ` · ${run.clients} client${run.clients === 1 ? '' : 's'}`;
	return `${run.runId}  started ${run.startedAt ?? '?'} · ${describeTasks(run.tasks)}${clients}${run.batchFinished && run.state === 'live' ? ' · finished' : ''}`;
}

/** A connection to the run's host; an InputError naming the run and what to look at when it cannot be reached. */
export async function connectToRun(run: {runId: string; socket: string | null}, client: string): Promise<BatchConnection> {
	try {
		if (run.socket === null) throw new Error('it has no socket');
		return await connectToBatch(run.socket, {client});
	} catch (error) {
		throw new InputError(`cannot reach the runner host of run ${run.runId}: ${(error as Error).message}`, {}, `\`hermes-delegate ls\` shows whether it still runs; its host.log is in the run folder`);
	}
}
