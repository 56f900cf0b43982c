// `hermes-delegate logs [RUN] [TASK] [-f]`: a task's log as the operator may safely see it. Logs on
// disk are byte-exact (what the agent printed, escape sequences included), so `cat` or `tail -f`
// on one replays them into the terminal; here they go through the dashboard's sanitiser first.
import {closeSync, existsSync, openSync, readSync} from 'node:fs';
import {StringDecoder} from 'node:string_decoder';
import {setTimeout as sleep} from 'node:timers/promises';
import {InputError} from '../core/errors.js';
import {resolveHermesHome} from '../core/hermes-home.js';
import {findRun, findTask, looksLikeRunId, readRun, type RunInfo, type RunTask} from '../core/run-history.js';
import {stripSgr, TerminalSanitizer} from '../core/sanitize.js';
import {safeExcerpt, screenText, terminalSafe} from '../core/visible-text.js';

export type LogsOptions = {follow?: boolean; raw?: boolean};

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
	const hermesHome = resolveHermesHome(io.env);
	const run = readRun(findRun(hermesHome, runArg));
	if (taskArg === undefined) {
		await write(io.stdout, listing(run));
		return 0;
	}

	const task = findTask(run, taskArg);
	// A queued task of a running batch gets its log when it starts: following waits for it.
	while (options.follow && !existsSync(task.logPath) && !currentTask(run, task).ended) {
		await sleep(followIntervalMs);
	}

	if (!existsSync(task.logPath)) {
		throw new InputError(`task ${task.id} of run ${run.runId} has no log: it never started (${task.status})`, {}, `run \`hermes-delegate logs ${run.runId}\` to see which tasks ran`);
	}

	const output = options.raw ? rawOutput() : safeOutput(io.color);
	let offset = await copyFrom(task.logPath, 0, io.stdout, output);
	if (options.follow) {
		// Until the task has ended: then whatever it wrote last is read, and we are done.
		for (let ended = currentTask(run, task).ended; !ended; ) {
			await sleep(followIntervalMs);
			ended = currentTask(run, task).ended;
			offset = await copyFrom(task.logPath, offset, io.stdout, output);
		}
	}

	await write(io.stdout, output.end());
	return 0;
}

function currentTask(run: RunInfo, task: RunTask): RunTask {
	return readRun(run).tasks.find(entry => entry.id === task.id) ?? task;
}

function listing(run: RunInfo): string {
	// The paths start with HERMES_HOME, which can hold an escape sequence like any other text.
	const header = `run ${run.runId}${run.summary ? `: ${safeExcerpt(run.summary, 80)}` : ''}\n${terminalSafe(run.dir)}\n`;
	const rows = run.tasks.map(task => `  ${task.id}  ${task.status.padEnd(10)}  ${safeExcerpt(task.title.replace(/\s+/g, ' '), 40).padEnd(40)}  ${existsSync(task.logPath) ? terminalSafe(task.logPath) : '(no log)'}`);
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

/** Copies the log from `offset` to its current end; returns the new offset. */
async function copyFrom(file: string, offset: number, stdout: NodeJS.WritableStream, output: Output): Promise<number> {
	const fd = openSync(file, 'r');
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
	if (!stdout.write(data)) {
		await new Promise<void>(resolve => {
			const done = () => {
				stdout.off('drain', done);
				stdout.off('error', done);
				stdout.off('close', done);
				resolve();
			};

			stdout.once('drain', done);
			stdout.once('error', done);
			stdout.once('close', done);
		});
	}
}
