// A hermes-delegate stopped (SIGSTOP, Ctrl+Z) past its tasks' deadlines must not blame tasks that
// finished on their own while it was stopped: on SIGCONT every due timer fires before the exits
// that happened meanwhile are read.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {readProcStat} from '../../src/core/process/proc-tree.js';
import type {ProcessRecord} from '../../src/core/run-folder/folder.js';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, startCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

const timeoutSeconds = 4;

function startedRecords(home: TestHome): ProcessRecord[] {
	return home.runs().flatMap(run => {
		const file = path.join(home.runsDir, run, 'processes.jsonl');
		if (!existsSync(file)) return [];
		return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as ProcessRecord);
	}).filter(record => record.event === 'started');
}

describe.skipIf(!existsSync('/proc/self/stat'))('a run stopped past its deadlines', () => {
	it('reports tasks that exited before their deadline as succeeded, not timed_out', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const tasks = [1, 2, 3].map(index => ({goal: `Quick ${index}`, context: '[fake:duration=1] [fake:answer=done]'}));
		const cli = startCli(home, ['run', '--timeout', String(timeoutSeconds), tasksJson(...tasks)]);
		const cliPid = cli.pid!;
		onTestFinished(() => {
			try {
				process.kill(cliPid, 'SIGCONT');
			} catch {}
		});

		await waitFor(() => startedRecords(home).length === tasks.length, {message: 'every task to be started'});
		process.kill(cliPid, 'SIGSTOP');
		const records = startedRecords(home);
		const lastStart = Math.max(...records.map(record => Date.parse(record.at)));
		// Every agent has exited (a zombie nobody has reaped: its parent is stopped) and every
		// deadline has passed while hermes-delegate could not act.
		await waitFor(() => records.every(record => readProcStat(record.pid)?.state === 'Z'), {message: 'every agent to exit while hermes-delegate is stopped'});
		await waitFor(() => Date.now() > lastStart + timeoutSeconds * 1000 + 500, {message: 'every deadline to pass', intervalMs: 100});
		process.kill(cliPid, 'SIGCONT');

		const run = await cli;
		const report = JSON.parse(run.stdout) as BatchReport;
		expect(report.results.map(result => [result.status, result.error ?? null])).toEqual(tasks.map(() => ['succeeded', null]));
		expect(run.exitCode).toBe(0);
	});
});
