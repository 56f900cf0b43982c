// `logs` on a log it cannot read: a message naming the file and the fix, exit 2; never a stack trace
// (exit 70), and never "it never started" for a task that ran. Tests run as root here, where
// permissions deny nothing, so the logs are made unreadable by what they are instead: a log that is
// a folder (EISDIR on read), a logs/ that is a file (ENOTDIR on stat, as EACCES on a logs/ we may
// not enter).
import {mkdirSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';

async function finishedRun(): Promise<{home: TestHome; log: string}> {
	const home = makeHome();
	onTestFinished(() => home.remove());
	const run = await runCli(home, ['run', tasksJson({goal: 'Quick', context: '[fake:duration=0.1]'})]);
	const report = JSON.parse(run.stdout) as BatchReport;
	return {home, log: report.results[0]!.log!};
}

describe('logs of a log that cannot be read', () => {
	it('a log that cannot be read: exit 2 naming the file and the fix, no stack trace', async () => {
		const {home, log} = await finishedRun();
		renameSync(log, `${log}.moved`);
		mkdirSync(log);
		const logs = await runCli(home, ['logs', 't01']);
		// Opened only as a regular file (core/regular-file.ts): a folder there is named as one.
		expect(logs.stderr).toContain(`hermes-delegate: ${log}: cannot read this log: a directory, not a regular file`);
		expect(logs.stderr).toContain(`fix: check that you may read the file and its folders: ls -ld ${path.dirname(log)} ${log}`);
		expect(logs.stderr).not.toMatch(/internal error|\n\s+at /);
		expect(logs.exitCode).toBe(2);
	});

	it('a logs/ folder that cannot be read is not taken for a task that never started', async () => {
		const {home, log} = await finishedRun();
		rmSync(path.dirname(log), {recursive: true});
		writeFileSync(path.dirname(log), '');
		const logs = await runCli(home, ['logs', 't01']);
		expect(logs.stderr).not.toContain('never started');
		expect(logs.stderr).toContain(`hermes-delegate: ${log}: cannot read this log: ENOTDIR`);
		expect(logs.exitCode).toBe(2);
	});
});
