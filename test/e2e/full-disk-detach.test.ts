// `run --detach` on a disk that is full when the batch finishes: results.json cannot be written, and
// the detached host has no terminal to print the report to. It keeps the report and serves it to
// `wait` until one has it, retries the write, and says so in host.log; once it has ended, `ls` and
// `wait` say what happened instead of blaming a SIGKILL.
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {readRunOwner} from '../../src/core/run-folder/owner.js';
import {isProcessRunning} from '../helpers/processes.js';
import {makeHome, recordedGroups, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {canMountTmpfs, fillDisk, mountTmpfs, unmount} from '../helpers/tmpfs.js';
import {waitFor} from '../helpers/wait-for.js';

if (!canMountTmpfs) console.log('full-disk-detach: skipped, this process may not mount a tmpfs (it takes root)');

/** A home whose runs folder is a 2 MiB tmpfs, and a detached batch of one task that answers once `go` exists, started on it. */
async function detachedOnSmallDisk(): Promise<{test: TestHome; runId: string; dir: string; go: string; filler: string}> {
	const test = makeHome();
	mountTmpfs(test.runsDir, '2m');
	onTestFinished(() => {
		const owner = test.runs().map(run => readRunOwner(path.join(test.runsDir, run))).find(Boolean);
		if (owner && isProcessRunning(owner.pid)) process.kill(owner.pid, 'SIGKILL');
		unmount(test.runsDir);
		test.remove();
	});
	const go = path.join(test.dir, 'go');
	const started = await runCli(test, ['run', '--detach', tasksJson({goal: 'one', context: `[fake:until-file=${go}] [fake:answer=the answer]`})]);
	expect(started.exitCode, started.stderr).toBe(0);
	const runId = started.stdout.trim();
	const dir = path.join(test.runsDir, runId);
	await waitFor(() => recordedGroups(dir).length === 1, {message: 'the task to start'});
	const filler = path.join(test.runsDir, 'filler');
	fillDisk(filler);
	return {test, runId, dir, go, filler};
}

const hostLog = (dir: string) => readFileSync(path.join(dir, 'host.log'), 'utf8');

describe.skipIf(!canMountTmpfs)('run --detach on a disk that fills', () => {
	it('serves the report to wait, then ls and wait say results.json could not be written, not SIGKILL', {timeout: 120_000}, async () => {
		const {test, runId, dir, go} = await detachedOnSmallDisk();
		writeFileSync(go, '');
		await waitFor(() => hostLog(dir).includes('results.json could not be written'), {message: 'host.log to say results.json could not be written'});
		const owner = readRunOwner(dir)!;

		const waited = await runCli(test, ['wait', runId]);
		expect(waited.exitCode, waited.stderr).toBe(0);
		const report = JSON.parse(waited.stdout) as BatchReport;
		expect(report.results.map(result => [result.status, result.result])).toEqual([['succeeded', 'the answer']]);
		expect(report.results_error).toContain('could not be written');
		expect(existsSync(path.join(dir, 'results.json'))).toBe(false);

		// A wait has it: the host ends, and says why it ends without results.json.
		await waitFor(() => !isProcessRunning(owner.pid), {message: 'the host to end once a wait has the report'});
		expect(hostLog(dir)).toContain('a client (`wait`, or a dashboard that printed it) has the report that results.json could not take');
		const listed = JSON.parse((await runCli(test, ['ls', '--json'])).stdout) as Array<Record<string, unknown>>;
		expect(listed.find(run => run['run_id'] === runId)).toMatchObject({state: 'unrecorded', owner: 'ended', gc_command: null});
		const again = await runCli(test, ['wait', runId]);
		expect(again.exitCode).toBe(1);
		expect(again.stderr).toContain('the batch finished, but its results.json could not be written');
		expect(again.stderr).not.toContain('SIGKILL');
	});

	it('writes results.json on a later try once there is room, and wait reads it', {timeout: 120_000}, async () => {
		const {test, runId, dir, go, filler} = await detachedOnSmallDisk();
		writeFileSync(go, '');
		await waitFor(() => hostLog(dir).includes('results.json could not be written'), {message: 'host.log to say results.json could not be written'});
		rmSync(filler);
		await waitFor(() => existsSync(path.join(dir, 'results.json')), {message: 'a retry to write results.json'});
		const written = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as BatchReport;
		expect(written.results_error).toBeUndefined();
		expect(written.results[0]?.result).toBe('the answer');
		expect(hostLog(dir)).toContain('results.json written on a later try');
		const waited = await runCli(test, ['wait', runId]);
		expect(waited.exitCode, waited.stderr).toBe(0);
	});
});
