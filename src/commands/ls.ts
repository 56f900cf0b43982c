// `hermes-delegate ls [--json]`: the recent runs of this HERMES_HOME (and the demo's), newest
// first: which a runner host still serves (and how to attach), which finished, and which lost
// their owner (killed with SIGKILL: then the `gc` command that ends its leftovers, until it has).
import {terminalSafe} from '../core/output/visible-text.js';
import {attachCommandFor, describeTasks, listRecentRuns, runHomes, unrecordedWhere, type RunEntry} from '../client/live-runs.js';
import {jsonText} from '../core/output/visible-text.js';
import type {LsOptions} from './flags.js';
import type {CommandIO} from './io.js';

const gcCommand = 'hermes-delegate gc';
/** Enough to find today's runs; older ones are in the runs folder (and `logs` reads them). */
const defaultLimit = 20;

export function lsCommand(options: LsOptions, io: Pick<CommandIO, 'stdout' | 'env'>, limit = defaultLimit): number {
	const runs = listRecentRuns(runHomes(io.env), {limit});
	if (options.json) {
		io.stdout.write(`${jsonText(runs.map(run => asJson(run)), 2)}\n`);
		return 0;
	}

	if (runs.length === 0) {
		io.stdout.write('no runs yet: start one with `hermes-delegate tui`, `demo` or `run --detach`\n');
		return 0;
	}

	for (const run of runs) {
		io.stdout.write(`${terminalSafe(textLines(run).join('\n'))}\n`);
	}

	return 0;
}

function ownerOf(run: RunEntry): 'alive' | 'died' | 'ended' {
	return run.state === 'owner died' || run.state === 'cleaned' ? 'died' : run.state === 'finished' || run.state === 'unrecorded' ? 'ended' : 'alive';
}

function asJson(run: RunEntry) {
	return {
		run_id: run.runId,
		dir: run.dir,
		started_at: run.startedAt,
		state: run.state,
		batch_finished: run.batchFinished,
		owner: ownerOf(run),
		clients: run.clients,
		owner_pid: run.ownerPid,
		host_pid: run.hostPid,
		tasks: run.tasks,
		attach_command: run.state === 'live' ? attachCommandFor(run.runId) : null,
		gc_command: run.state === 'owner died' ? gcCommand : null,
		origin: run.origin,
	};
}

function textLines(run: RunEntry): string[] {
	const state = run.state === 'live' ? (run.batchFinished ? 'live (finished, kept open by its clients)' : 'live') : run.state;
	const clients = run.clients === null ? '' : ` · ${run.clients} client${run.clients === 1 ? '' : 's'} attached`;
	const origin = run.origin === null ? '' : ` · started by ${run.origin} (MCP)`;
	const head = `${run.runId}  ${state}  started ${run.startedAt ?? '?'}${origin} · ${describeTasks(run.tasks)}${clients}`;
	if (run.state === 'live') return [head, `  attach: ${attachCommandFor(run.runId)}`];
	if (run.state === 'owner died') return [head, `  owner died before the batch finished: \`${gcCommand}\` ends what it left running`];
	if (run.state === 'unrecorded') return [head, `  finished, but results.json could not be written: ${unrecordedWhere}`];
	if (run.state === 'cleaned') return [head, '  owner died before the batch finished; nothing of it runs any more (its logs stay)'];
	if (run.state === 'running') return [head, '  runs in a `hermes-delegate run` without a runner host: cannot be attached'];
	return [head];
}
