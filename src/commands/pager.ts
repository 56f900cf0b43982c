// o in the dashboard: a task's whole log in the operator's pager. The log is written to a private
// temporary file exactly as `logs RUN TASK` prints it without colour (sanitised: no escape
// sequence from the agent reaches the terminal, so a plain `less` shows it right), the terminal is
// handed to $PAGER (else less) and taken back when it ends. What happened is one notice line.
import {spawn} from 'node:child_process';
import {createWriteStream, existsSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {finished} from 'node:stream/promises';
import {InputError, messageOf} from '../core/errors.js';
import {logsCommand} from './logs.js';

/** Hands the terminal over (suspend) and takes it back (resume): commands/mount-dashboard.tsx. */
export type TerminalHandover = {suspend(): Promise<void>; resume(): void};

/** What the shell says when it cannot find the command. */
const commandNotFound = 127;

export async function showLogInPager(runId: string, taskId: string, env: NodeJS.ProcessEnv, terminal: TerminalHandover): Promise<string> {
	const pager = env['PAGER']?.trim() || 'less';
	if (!env['PAGER']?.trim() && !onPath('less', env)) {
		return `no pager: $PAGER is not set and less is not installed; set PAGER (e.g. PAGER=more), or read it with \`hermes-delegate logs ${runId} ${taskId}\``;
	}

	// mkdtemp's folder is the user's alone (0700): a log can hold what the agent read.
	const dir = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-log-'));
	const file = path.join(dir, `${runId}-${taskId}.log`);
	let keep = false;
	try {
		const out = createWriteStream(file, {mode: 0o600});
		try {
			await logsCommand(runId, taskId, {}, {stdout: out, env, color: false});
		} finally {
			out.end();
			await finished(out).catch(() => undefined);
		}

		await terminal.suspend();
		let code: number | null;
		try {
			// Through the shell, as git and man run it: PAGER may carry options ("less -S").
			code = await new Promise<number | null>((resolve, reject) => {
				const child = spawn('/bin/sh', ['-c', `${pager} "$1"`, 'sh', file], {stdio: 'inherit', env});
				child.on('error', reject);
				child.on('exit', resolve);
			});
		} finally {
			terminal.resume();
		}

		if (code === commandNotFound) {
			keep = true;
			return `pager \`${pager}\` not found (exit 127); the log is in ${file}`;
		}

		return `${taskId}'s log was shown in ${pager}; again: \`hermes-delegate logs ${runId} ${taskId}\``;
	} catch (error) {
		return error instanceof InputError ? `cannot open ${taskId}'s log: ${error.message}` : `cannot open ${taskId}'s log: ${messageOf(error)}`;
	} finally {
		if (!keep) rmSync(dir, {recursive: true, force: true});
	}
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
	return (env['PATH'] ?? '').split(path.delimiter).some(dir => dir !== '' && existsSync(path.join(dir, command)));
}
