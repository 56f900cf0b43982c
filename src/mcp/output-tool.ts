// task_output: a window of one task's output, plain and bounded. A live task's lines come from
// its host (as the dashboard's zoom reads them); a finished batch's from the task's log on disk,
// read as `hermes-delegate logs` shows it (stream-json rendered, every escape sequence removed).
import {closeSync, openSync, readSync, statSync} from 'node:fs';
import {StreamJsonDecoder} from '../core/hermes/stream-json/decoder.js';
import {sanitizeLine} from '../core/output/sanitize.js';
import {searchPattern, lineMatches} from '../core/output/visible-text.js';
import {attemptLogPath} from '../core/run-folder/attempts.js';
import type {McpContext} from './context.js';
import {reachBatch, release} from './batch-access.js';
import {ToolInputError} from './inputs.js';
import {plainLine} from './text.js';

/** The end of a finished task's log that is read: its last lines are what an agent looks at. */
const logTailBytes = 4 * 1024 * 1024;

type OutputArgs = {batch_id: string; task_id: string; lines?: number | undefined; offset?: number | undefined; search?: string | undefined};

export async function taskOutput(context: McpContext, args: OutputArgs) {
	const reached = await reachBatch(context, args.batch_id);
	try {
		const taskId = args.task_id.trim().toLowerCase();
		let all: {first: number; lines: string[]; totalLines: number} | undefined;
		if (reached.kind === 'live') {
			const ids = reached.connection.snapshot.plan.tasks.map(task => task.id);
			if (!ids.includes(taskId)) throw noTask(reached.run.runId, args.task_id, ids);
			const range = await reached.connection.control.readOutput({id: taskId});
			all = range ? {first: range.first, lines: range.lines, totalLines: range.totalLines} : {first: 0, lines: [], totalLines: 0};
		} else {
			const result = reached.report.results.find(task => task.id === taskId);
			if (!result) throw noTask(reached.run.runId, args.task_id, reached.report.results.map(task => task.id));
			const lines = logLines(attemptLogPath(reached.run.dir, taskId, result.attempt ?? 1));
			all = {first: 0, lines, totalLines: lines.length};
		}

		return window(args, all);
	} finally {
		await release(reached);
	}
}

function noTask(runId: string, wanted: string, ids: readonly string[]): ToolInputError {
	return new ToolInputError(`batch ${runId} has no task "${plainLine(wanted)}"`, `name one of ${ids.join(', ')}`);
}

function window(args: OutputArgs, all: {first: number; lines: string[]; totalLines: number}) {
	const count = args.lines ?? 50;
	const numbered = all.lines.map((line, index) => ({n: all.first + index, line}));
	let picked = numbered;
	if (args.search !== undefined) {
		const pattern = searchPattern(args.search);
		picked = numbered.filter(({line}) => lineMatches(line, pattern));
	}

	const chosen = args.offset === undefined ? picked.slice(-count) : picked.filter(({n}) => n >= args.offset!).slice(0, count);
	return {
		total_lines: all.totalLines,
		// Lines before `first` are no longer kept by the host (a long task's early output): its log has them.
		first_kept_line: all.first,
		...(args.search === undefined ? {} : {matches: picked.length}),
		lines: chosen.map(({n, line}) => ({n, text: plainLine(line)})),
	};
}

/** The end of a log file as lines, stream-json rendered, sanitised. A missing log: no lines (the task never started). */
function logLines(file: string): string[] {
	let bytes: Buffer;
	try {
		const size = statSync(file).size;
		const start = Math.max(0, size - logTailBytes);
		const fd = openSync(file, 'r');
		try {
			bytes = Buffer.alloc(size - start);
			readSync(fd, bytes, 0, bytes.length, start);
		} finally {
			closeSync(fd);
		}

		// Cut into the middle of a line: start at the next whole one.
		if (start > 0) bytes = bytes.subarray(bytes.indexOf(0x0a) + 1);
	} catch {
		return [];
	}

	const firstLine = bytes.subarray(0, Math.max(0, bytes.indexOf(0x0a))).toString('utf8');
	if (/^\s*\{"type"\s*:/.test(firstLine)) {
		const decoder = new StreamJsonDecoder();
		bytes = Buffer.concat([decoder.push(bytes), decoder.end()]);
	}

	return sanitizeLine(bytes.toString('utf8')).split(/\r?\n/).filter((line, index, lines) => index < lines.length - 1 || line !== '');
}
