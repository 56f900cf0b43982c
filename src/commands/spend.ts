// `hermes-delegate spend [RUN] [--json]`: the `$` table of a run, printed. A live run is read
// through its runner host's socket (the snapshot's events, replayed into the dashboard's own store,
// so the numbers are the `$` table's); a finished one from results.json; a run without a host (a
// plain `run`, or one whose host died) from the session rows in Hermes's state.db. One sum for all:
// core/run/spend-sum.ts.
import {existsSync} from 'node:fs';
import path from 'node:path';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';
import {spendBasis} from '../core/spend-basis.js';
import {readProcessRecords} from '../core/run-folder/history.js';
import {SpendReader, spendTotals} from '../core/run/spend.js';
import {sumSpend, type AttemptSpend} from '../core/run/spend-sum.js';
import {resultRoute, routeKey} from '../core/run/results.js';
import type {BatchReport, RoutePlan, SpendTotals} from '../core/types.js';
import {InputError} from '../core/errors.js';
import {storeFromSnapshot} from '../client/attach-store.js';
import {connectToBatch} from '../client/connection.js';
import {describeRun, findAnyRun, runHomes} from '../client/live-runs.js';
import {wrapWords} from '../ui/text/format.js';
import {spendTableLines} from '../ui/text/spend-table.js';
import type {SpendOptions} from './flags.js';
import {guardOutput, type CommandIO} from './io.js';
import {readRegularText} from '../core/regular-file.js';

/** Where the numbers came from: the live host, the finished run's results, or Hermes's rows read now. */
export type SpendSource = 'runner host' | 'results.json' | 'state.db';

export type RunSpend = {runId: string; from: SpendSource; spend: SpendTotals; warnings: string[]};

export async function spendCommand(runArg: string | undefined, options: SpendOptions, io: Pick<CommandIO, 'stdout' | 'stderr' | 'env'>): Promise<number> {
	// In the homes `ls` lists (the demo's too); none named: the newest run, as `logs` picks it.
	const run = findAnyRun(runHomes(io.env), runArg, 'read the spend of');
	const read = await runSpend(run.runId, run.hermesHome, io.env);
	const stdout = guardOutput(io.stdout);
	if (options.json) {
		stdout.write(`${jsonText({run_id: read.runId, from: read.from, spend: read.spend, spend_is: spendBasis, warnings: read.warnings}, 2)}\n`);
		return 0;
	}

	// On a terminal the table fits its width; piped, every column and whole names.
	const width = io.stdout.isTTY ? io.stdout.columns || 80 : Number.POSITIVE_INFINITY;
	const title = `run ${read.runId} · spend from ${describeSource(read.from)}`;
	const lines = [...(Number.isFinite(width) ? wrapWords(title, width) : [title]), '', ...spendTableLines(read.spend, width).map(line => line.text)];
	stdout.write(`${lines.join('\n')}\n`);
	const stderr = guardOutput(io.stderr, undefined, terminalSafe);
	for (const warning of read.warnings) stderr.write(`hermes-delegate: warning: ${warning}\n`);
	return 0;
}

function describeSource(from: SpendSource): string {
	return {
		'runner host': 'its runner host (live: running attempts as their rows stand now)',
		'results.json': 'results.json (the batch has finished)',
		'state.db': 'Hermes\'s state.db (no runner host serves it: a `run` of its own, or its host died)',
	}[from];
}

/** The run's spend from the best source there is. */
export async function runSpend(runId: string, hermesHome: string, env: NodeJS.ProcessEnv): Promise<RunSpend> {
	const run = describeRun(runId, hermesHome);
	if (run.state === 'live' && run.socket) {
		const live = await fromHost(run.socket);
		if (live) return {runId, from: 'runner host', spend: live, warnings: []};
		// The host ended between our look and our connect: its folder says the rest.
	}

	const report = readReport(run.dir);
	if (report && !(run.state === 'live' || run.state === 'running')) {
		return {runId, from: 'results.json', spend: report.spend ?? spendTotals(report.results), warnings: []};
	}

	return fromStateDb(runId, run.dir, {...env, HERMES_HOME: hermesHome});
}

/** The `$` table of a client that attaches and leaves at once: the snapshot replayed into the dashboard's store. */
async function fromHost(socket: string): Promise<SpendTotals | undefined> {
	let connection;
	try {
		connection = await connectToBatch(socket, {client: 'spend'});
	} catch {
		return undefined;
	}

	try {
		const {spendTable} = await import('../state/spend-view.js');
		return spendTable(storeFromSnapshot(connection).getState());
	} finally {
		connection.close();
	}
}

function readReport(dir: string): BatchReport | undefined {
	const file = path.join(dir, 'results.json');
	if (!existsSync(file)) return undefined;
	try {
		return JSON.parse(readRegularText(file)) as BatchReport;
	} catch {
		return undefined; // Being replaced, or damaged: state.db still knows.
	}
}

/**
 * Each attempt the process records say started, its row found as the runner finds it at the end
 * (by prompt and start; its session id is not on disk until then). Read-only, as every read of
 * Hermes's database is.
 */
function fromStateDb(runId: string, dir: string, env: NodeJS.ProcessEnv): RunSpend {
	let plan: RoutePlan;
	try {
		plan = JSON.parse(readRegularText(path.join(dir, 'plan.json'))) as RoutePlan;
	} catch {
		throw new InputError(`run ${runId} has no readable plan.json (it is just starting, or ended before it started)`, {file: dir}, 'try again in a moment, or name another run (`hermes-delegate ls` lists them)');
	}

	const reader = new SpendReader(env, false);
	const started = readProcessRecords(dir).filter(record => record.event === 'started');
	const attempts: AttemptSpend[] = [];
	for (const task of plan.tasks) {
		for (const record of started.filter(entry => entry.task === task.id)) {
			attempts.push({route: routeKey({route: resultRoute(task)}), model: task.effective.model, spend: reader.attempt(task, {startedAt: record.at, sessionId: null})});
		}
	}

	return {runId, from: 'state.db', spend: sumSpend(attempts), warnings: reader.warnings()};
}
