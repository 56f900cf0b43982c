// `hermes-delegate wait RUN [--timeout S] [--jsonl]`: blocks until the run has finished, then
// prints its results exactly as `run` does (run.ts's printReport) and exits with `run`'s codes.
// A live run is followed through its host's socket; a finished one is read from results.json.
// With --jsonl: the run's recorded events, the same live or finished (wait-events.ts).
import {existsSync} from 'node:fs';
import path from 'node:path';
import {exitCodes} from '../core/errors.js';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';
import type {BatchEvent, BatchReport} from '../core/types.js';
import {connectToBatch} from '../client/connection.js';
import {chooseRun, describeRun, runHomes, unrecordedWhere, type RunEntry} from '../client/live-runs.js';
import {parseNumber, type WaitOptions} from './flags.js';
import {guardOutput, type CommandIO, type Output} from './io.js';
import {jsonlEvent, printReport} from './run.js';
import {RecordPrinter} from './wait-events.js';
import {readRegularText} from '../core/regular-file.js';

/** As timeout(1): the run is still going when --timeout ran out. */
export const waitTimedOut = 124;

export async function waitCommand(runArg: string, options: WaitOptions, io: Pick<CommandIO, 'stdout' | 'stderr' | 'env'>): Promise<number> {
	const timeoutMs = options.timeout === undefined ? undefined : Math.round(parseNumber(options.timeout, '--timeout', {min: 0}) * 1000);
	const run = chooseRun(runHomes(io.env), runArg, {needLive: false, command: 'wait for'});
	const stdout = guardOutput(io.stdout);
	const stderr = guardOutput(io.stderr, undefined, terminalSafe);
	const jsonl = options.jsonl ?? false;
	const events = jsonl ? new RecordPrinter(run.dir, event => stdout.write(`${jsonText(jsonlEvent(event))}\n`)) : undefined;
	events?.fromRecord({fallback: run.state !== 'live' && run.state !== 'running'});
	const outcome = await withTimeout(finalReport(run, events ? event => events.live(event) : undefined), timeoutMs);
	// A run followed without a host (or whose host went before its end): the rest of its record.
	if (outcome !== 'timed out') events?.fromRecord({fallback: true});
	if (events?.partial) stderr.write(`hermes-delegate: run ${run.runId} has no events.jsonl (from an earlier hermes-delegate, or it could not be written): its events are read from plan.json and results.json, without task.started\n`);
	if (outcome === 'timed out') {
		stderr.write(`hermes-delegate: run ${run.runId} is still running after ${options.timeout}s; wait again, or stop it with \`hermes-delegate cancel ${run.runId}\`\n`);
		return waitTimedOut;
	}

	if (outcome.report === undefined) {
		stderr.write(`hermes-delegate: run ${run.runId} ended without results: ${outcome.why}; \`hermes-delegate ls\` shows it, \`hermes-delegate gc\` ends what it left running\n`);
		return exitCodes.taskFailed;
	}

	if (events && !events.endedWithFinish) printFinishedEvent(outcome.report, stdout);
	return printReport(outcome.report, {jsonl}, {stdout, stderr});
}

type Outcome = {report: BatchReport} | {report: undefined; why: string};

async function finalReport(run: RunEntry, onEvent: ((event: BatchEvent) => void) | undefined): Promise<Outcome> {
	for (let now = run; ; now = describeRun(run.runId, run.hermesHome)) {
		if (now.state === 'live' && now.socket) {
			const followed = await followLive(now.socket, onEvent);
			if (followed) return {report: followed};
			// The host closed before we saw the end (it ended between our look and our connect): its folder says.
			return onDisk(describeRun(run.runId, run.hermesHome));
		}

		// Its owner still runs without a socket: `run` without a host, or a host between closing its
		// socket and its exit, or one that has not written host.json yet. results.json there is final
		// (nothing serves the run to re-open it); else look again until it ends or a host serves it.
		if (now.state !== 'running' || now.batchFinished) return onDisk(now);
		await new Promise(resolve => {
			setTimeout(resolve, 500);
		});
	}
}

/** The report of the batch once it has settled; undefined when the host went away first. */
async function followLive(socket: string, onEvent: ((event: BatchEvent) => void) | undefined): Promise<BatchReport | undefined> {
	let connection;
	try {
		connection = await connectToBatch(socket, {client: 'wait'});
	} catch {
		return undefined;
	}

	try {
		return await new Promise<BatchReport | undefined>(resolve => {
			let report: BatchReport | undefined;
			const take = (event: BatchEvent) => {
				onEvent?.(event);
				if (event.type === 'batch.finished') report = event.report;
				else if (event.type === 'batch.reopened') report = undefined;
			};

			for (const {event} of connection.snapshot.events) take(event);
			if (report) {
				resolve(report);
				return;
			}

			connection.source.subscribe(event => {
				take(event);
				if (report) resolve(report);
			});
			void connection.closed.then(() => resolve(report));
		});
	} finally {
		// Once the host has let us go: a host that ends because we left has written its last by then.
		await connection.leave('done');
	}
}

function onDisk(run: RunEntry): Outcome {
	const file = path.join(run.dir, 'results.json');
	if (existsSync(file)) {
		try {
			return {report: JSON.parse(readRegularText(file)) as BatchReport};
		} catch (error) {
			return {report: undefined, why: `its results.json cannot be read (${(error as Error).message})`};
		}
	}

	if (run.state === 'unrecorded') return {report: undefined, why: `the batch finished, but its results.json could not be written (a full disk?): ${unrecordedWhere}`};
	return {report: undefined, why: run.state === 'owner died' ? 'its runner host died before the batch finished (killed with SIGKILL?)' : `it is ${run.state}`};
}

/** `run --jsonl` ends with batch.finished: a run whose record has none (not written) ends the same way. */
function printFinishedEvent(report: BatchReport, stdout: Output): void {
	stdout.write(`${jsonText(jsonlEvent({type: 'batch.finished', report, at: Date.now()}))}\n`);
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number | undefined): Promise<T | 'timed out'> {
	if (timeoutMs === undefined) return work;
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([work, new Promise<'timed out'>(resolve => {
			timer = setTimeout(() => resolve('timed out'), timeoutMs);
		})]);
	} finally {
		clearTimeout(timer);
	}
}
