// `hermes-delegate logs [RUN] [TASK] [-f]`: a task's log as the operator may safely see it. Logs on
// disk are byte-exact (what the agent printed, escape sequences included), so `cat` or `tail -f`
// on one replays them into the terminal; here they go through the dashboard's sanitiser first.
import {closeSync, existsSync, readSync, statSync} from 'node:fs';
import path from 'node:path';
import {StringDecoder} from 'node:string_decoder';
import {setTimeout as sleep} from 'node:timers/promises';
import {InputError} from '../core/errors.js';
import type {LogsOptions} from './flags.js';
import {streamSettled} from './io.js';
import {findAnyRun, runHomes} from '../client/live-runs.js';
import {liveStatuses} from './live-statuses.js';
import {attemptLogPath, attemptLogs, splitAttempt} from '../core/run-folder/attempts.js';
import {findTask, looksLikeRunId, readRun, type RunInfo, type RunTask} from '../core/run-folder/history.js';
import {stripSgr, TerminalSanitizer} from '../core/output/sanitize.js';
import {StreamJsonDecoder} from '../core/hermes/stream-json/decoder.js';
import {safeExcerpt, screenText, terminalSafe} from '../core/output/visible-text.js';
import {errnoCode, messageOf} from '../core/errors.js';
import {openRegularFile} from '../core/regular-file.js';

export type LogsIO = {
	stdout: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
	color: boolean;
};

/** How often a followed log is looked at for new bytes and the task for its end. */
const followIntervalMs = 250;
const readSize = 64 * 1024;

export async function logsCommand(first: string | undefined, second: string | undefined, options: LogsOptions, io: LogsIO): Promise<number> {
	// One argument is a run when it looks like a run id, else a task of the newest run.
	const [runArg, taskArg] = second !== undefined || (first !== undefined && looksLikeRunId(first)) ? [first, second] : [undefined, first];
	const entry = findAnyRun(runHomes(io.env), runArg, 'read the logs of');
	const run = readRun(entry);
	if (taskArg === undefined) {
		await write(io.stdout, listing(run, entry.state === 'live' && entry.socket ? await liveStatuses(entry.socket) : undefined));
		return 0;
	}

	const {task, attempt: named} = pickTask(run, taskArg, options.attempt);
	// Without a named attempt the newest is shown, and followed on into any later one that starts.
	let attempt = named ?? task.attempt;
	let logPath = attemptLogPath(run.dir, task.id, attempt);
	// A queued task of a running batch gets its log when it starts: following waits for it.
	while (options.follow && !existsSync(logPath) && !currentTask(run, task).ended) {
		await sleep(followIntervalMs);
	}

	if (!logExists(logPath)) {
		throw new InputError(`task ${task.id} of run ${run.runId} has no log: it never started (${task.status})`, {}, `run \`hermes-delegate logs ${run.runId}\` to see which tasks ran`);
	}

	// As the pane shows it: stream-json events as `⚙ tool` / `  ↳ tool` lines and the reply's text.
	const newOutput = () => (options.raw ? rawOutput() : rendered(safeOutput(io.color)));
	let output = newOutput();
	let offset = await readingLog(logPath, async () => copyFrom(logPath, 0, io.stdout, output));
	if (options.follow) {
		// Until the attempt is over (the task ended, or a later attempt started): then whatever it
		// wrote last is read, and the newest attempt, if it is not this one, is followed next.
		for (;;) {
			const now = currentTask(run, task);
			const newer = named === undefined && now.attempt > attempt;
			if (!now.ended && !newer) {
				await sleep(followIntervalMs);
			}

			offset = await readingLog(logPath, async () => copyFrom(logPath, offset, io.stdout, output));
			if (newer) {
				await write(io.stdout, output.end());
				attempt = now.attempt;
				logPath = now.logPath;
				await write(io.stdout, `── ${task.id} attempt ${attempt}: ${terminalSafe(logPath)}\n`);
				output = newOutput();
				offset = await readingLog(logPath, async () => copyFrom(logPath, 0, io.stdout, output));
			} else if (now.ended || (named !== undefined && now.attempt > named)) {
				break;
			}
		}
	}

	await write(io.stdout, output.end());
	return 0;
}

/**
 * Whether the log is there. Only ENOENT means "never started": a logs/ folder we may not enter
 * (EACCES) made existsSync say false, and the task that did run read as one that never started.
 */
function logExists(file: string): boolean {
	try {
		statSync(file);
		return true;
	} catch (error) {
		if (errnoCode(error) === 'ENOENT') return false;
		throw unreadableLog(file, error);
	}
}

/** A log that cannot be opened or read is the operator's to fix (permissions, descriptors), not our crash. */
async function readingLog<T>(file: string, read: () => Promise<T>): Promise<T> {
	try {
		return await read();
	} catch (error) {
		// A failed write is stdout's (the reader went away), not the log's.
		if (errnoCode(error) !== undefined && !(error instanceof Error && 'syscall' in error && error.syscall === 'write')) throw unreadableLog(file, error);
		throw error;
	}
}

/** The task, and the attempt asked for (`t13.2`, or --attempt 2); undefined: the newest. */
function pickTask(run: RunInfo, wanted: string, attemptOption: string | undefined): {task: RunTask; attempt: number | undefined} {
	// A task whose id or name is the whole argument is that task; only otherwise is a `.N` ending an attempt.
	const whole = findTaskOrUndefined(run, wanted);
	const split = whole ? undefined : splitAttempt(wanted);
	const task = whole ?? (split && findTaskOrUndefined(run, split.task)) ?? findTask(run, wanted);
	const fromArgument = whole ? undefined : split?.attempt;
	const fromOption = attemptOption === undefined ? undefined : parseAttempt(attemptOption);
	if (fromArgument !== undefined && fromOption !== undefined && fromArgument !== fromOption) {
		throw new InputError(`${JSON.stringify(wanted)} names attempt ${fromArgument}, but --attempt says ${fromOption}`, {}, `give the attempt once: \`${task.id}.${fromOption}\` or \`${task.id} --attempt ${fromOption}\``);
	}

	const attempt = fromArgument ?? fromOption;
	if (attempt !== undefined && attempt > task.attempt) {
		const have = attemptLogs(run.dir, task.id).map(entry => entry.attempt).join(', ') || 'none yet';
		throw new InputError(`task ${task.id} of run ${run.runId} has no attempt ${attempt} (attempts with a log: ${have})`, {}, `leave the attempt out for the newest (${task.id}), or name one that ran (${task.id}.${task.attempt})`);
	}

	return {task, attempt};
}

function findTaskOrUndefined(run: RunInfo, wanted: string): RunTask | undefined {
	try {
		return findTask(run, wanted);
	} catch (error) {
		if (error instanceof InputError) return undefined;
		throw error;
	}
}

function unreadableLog(file: string, error: unknown): InputError {
	const code = errnoCode(error);
	const fix = code === 'EMFILE' || code === 'ENFILE'
		? 'raise the open-files limit (e.g. `ulimit -n 1024`) and run it again'
		: `check that you may read the file and its folders: ls -ld ${path.dirname(file)} ${file}`;
	return new InputError(`cannot read this log: ${messageOf(error)}`, {file}, fix);
}

function parseAttempt(text: string): number {
	if (!/^[1-9]\d{0,5}$/.test(text.trim())) {
		throw new InputError(`--attempt ${JSON.stringify(text)} is not an attempt number`, {}, 'give a whole number from 1: --attempt 2 is the first re-routed run of the task');
	}

	return Number(text.trim());
}

function currentTask(run: RunInfo, task: RunTask): RunTask {
	return readRun(run).tasks.find(entry => entry.id === task.id) ?? task;
}

/** `live`: each task's status as the runner host has it; the folder only says whether a process ended, not how. */
function listing(run: RunInfo, live: Readonly<Record<string, string>> | undefined): string {
	// The paths start with HERMES_HOME, which can hold an escape sequence like any other text.
	const header = `run ${run.runId}${run.summary ? `: ${safeExcerpt(run.summary, 80)}` : ''}\n${terminalSafe(run.dir)}\n`;
	const rows = run.tasks.map(task => `  ${task.id}  ${(live?.[task.id] ?? task.status).padEnd(10)}  ${safeExcerpt(task.title.replace(/\s+/g, ' '), 40).padEnd(40)}  ${existsSync(task.logPath) ? terminalSafe(task.logPath) : '(no log)'}`);
	return `${header}${rows.join('\n')}\n`;
}

type Output = {push(bytes: Buffer): string | Buffer; end(): string};

function rawOutput(): Output {
	return {push: bytes => bytes, end: () => ''};
}

/**
 * What the dashboard would show: the sanitiser's output (colour kept unless NO_COLOR), unsteady
 * characters replaced, and a lone carriage return made a line break, so no line can hide another.
 */
function safeOutput(colour: boolean): Output {
	const decoder = new StringDecoder('utf8');
	const sanitizer = new TerminalSanitizer();
	const clean = (text: string) => {
		const safe = screenText(sanitizer.push(text)).replaceAll(/\r(?!\n)/g, '\n');
		return colour ? safe : stripSgr(safe);
	};

	return {
		push: bytes => clean(decoder.write(bytes)),
		end() {
			const rest = clean(decoder.end());
			sanitizer.flush();
			// A log that ends mid-style would leave the terminal coloured.
			return colour && sanitizer.styled ? `${rest}\u001B[0m` : rest;
		},
	};
}

/** Bytes looked at for the log's first line, which tells a stream-json log from a plain one. */
const sniffBytes = 64 * 1024;

/**
 * A log written with `--format stream-json` starts with its `system` event (FACTS: the init line);
 * only then are the lines decoded as the pane decodes them. A plain log (`-Q`: the reply verbatim)
 * is never decoded, so an answer that happens to be JSON is shown as it is.
 */
function rendered(inner: Output): Output {
	let decoder: StreamJsonDecoder | null | undefined;
	let held: Buffer[] = [];
	const decide = (force: boolean): Buffer | undefined => {
		const all = Buffer.concat(held);
		const newline = all.indexOf(0x0a);
		if (newline === -1 && all.length < sniffBytes && !force) return undefined;
		decoder = isStreamJsonStart(all.subarray(0, newline === -1 ? all.length : newline)) ? new StreamJsonDecoder() : null;
		held = [];
		return all;
	};

	const through = (bytes: Buffer) => inner.push(decoder ? decoder.push(bytes) : bytes);
	return {
		push(bytes) {
			if (decoder !== undefined) return through(bytes);
			held.push(bytes);
			const all = decide(false);
			return all === undefined ? '' : through(all);
		},
		end() {
			let rest = '';
			if (decoder === undefined) rest += String(through(decide(true)!));
			if (decoder) rest += String(inner.push(decoder.end()));
			return rest + inner.end();
		},
	};
}

function isStreamJsonStart(line: Buffer): boolean {
	try {
		const event = JSON.parse(line.toString('utf8')) as unknown;
		return event !== null && typeof event === 'object' && (event as {type?: unknown}).type === 'system';
	} catch {
		return false;
	}
}

/** Copies the log from `offset` to its current end; returns the new offset. */
async function copyFrom(file: string, offset: number, stdout: NodeJS.WritableStream, output: Output): Promise<number> {
	const {fd} = openRegularFile(file);
	try {
		const buffer = Buffer.alloc(readSize);
		let position = offset;
		for (;;) {
			const count = readSync(fd, buffer, 0, readSize, position);
			if (count === 0) return position;
			position += count;
			await write(stdout, output.push(Buffer.from(buffer.subarray(0, count))));
		}
	} finally {
		closeSync(fd);
	}
}

/** Writes and waits when the reader is slower than the disk, so a big log never piles up in memory. */
async function write(stdout: NodeJS.WritableStream, data: string | Buffer): Promise<void> {
	if (data.length === 0) return;
	if (!stdout.write(data)) await streamSettled(stdout, 'drain');
}
