// `logs` on a task the operator re-routed (R) after it ended: attempt 2 logs to `<id>.2.log`, and
// results.json points there. The newest attempt is the default and is followed live; TASK.N and
// --attempt N reach any attempt. The run folder is written here as a batch writes it (plan.json,
// logs/, processes.jsonl, results.json, owner.json), with this test's process as the live owner,
// so the test decides when each attempt starts and ends.
import {appendFileSync, mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {recordRunOwner} from '../../src/core/run-folder/owner.js';
import {makeHome, runCli, startCli, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

type Folder = {
	test: TestHome;
	dir: string;
	log(name: string, text: string): void;
	record(event: 'started' | 'ended'): void;
};

function runFolder({owned}: {owned: boolean}): Folder {
	const test = makeHome();
	onTestFinished(() => test.remove());
	const dir = path.join(test.runsDir, '20261202-010203-abcdef');
	mkdirSync(path.join(dir, 'logs'), {recursive: true});
	writeFileSync(path.join(dir, 'plan.json'), JSON.stringify({mode: 'model_map', warnings: [], tasks: [{index: 0, id: 't01', spec: {goal: 'Fix the parser', name: 'parser'}, decision: {route: null, refused: false, reason: 'default route of model_map'}}]}));
	if (owned) recordRunOwner({dir});
	return {
		test,
		dir,
		log: (name, text) => appendFileSync(path.join(dir, 'logs', name), text),
		// Above any pid_max (2^22): remove() signals recorded groups, and these name no process.
		record: event => appendFileSync(path.join(dir, 'processes.jsonl'), `${JSON.stringify({event, task: 't01', pid: 4_194_400, pgid: 4_194_400, start_ticks: null, at: new Date().toISOString()})}\n`),
	};
}

function finishedResults(folder: Folder): void {
	writeFileSync(path.join(folder.dir, 'results.json'), JSON.stringify({summary: '0/1 tasks succeeded', results: [{id: 't01', status: 'failed', attempt: 2, log: path.join(folder.dir, 'logs', 't01.2.log')}]}));
}

describe('logs and a task\'s attempts', () => {
	it('shows the newest attempt by default; TASK.N and --attempt N show any other', async () => {
		const folder = runFolder({owned: false});
		folder.log('t01.log', 'first try: crashed\n');
		folder.log('t01.2.log', 'second try on deep: done\n');
		folder.record('started');
		folder.record('ended');
		folder.record('started');
		folder.record('ended');
		finishedResults(folder);

		const newest = await runCli(folder.test, ['logs', 't01']);
		expect(newest.exitCode).toBe(0);
		expect(newest.stdout).toBe('second try on deep: done');
		expect((await runCli(folder.test, ['logs', 't01.1'])).stdout).toBe('first try: crashed');
		expect((await runCli(folder.test, ['logs', 'parser', '--attempt', '1'])).stdout).toBe('first try: crashed');
		expect((await runCli(folder.test, ['logs', 't01.2'])).stdout).toBe('second try on deep: done');

		const listing = await runCli(folder.test, ['logs']);
		expect(listing.stdout).toContain(path.join('logs', 't01.2.log'));

		const missing = await runCli(folder.test, ['logs', 't01.3']);
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toContain('no attempt 3');
		expect(missing.stderr).toContain('t01.2');
		const bad = await runCli(folder.test, ['logs', 't01', '--attempt', 'two']);
		expect(bad.exitCode).toBe(2);
		expect(bad.stderr).toContain('--attempt');
	});

	it('-f follows the newest attempt while it runs, even after results.json was written', async () => {
		const folder = runFolder({owned: true});
		folder.log('t01.log', 'first try: crashed\n');
		folder.record('started');
		folder.record('ended');
		finishedResults(folder);
		// Re-routed after the batch finished (the dashboard re-opens it): attempt 2 is running.
		folder.log('t01.2.log', 'second try: reading\n');
		folder.record('started');

		let out = '';
		const follow = startCli(folder.test, ['logs', 't01', '-f']);
		follow.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
		});
		await waitFor(() => out.includes('second try: reading'), {message: 'attempt 2\'s log so far'});
		folder.log('t01.2.log', 'second try: done\n');
		await waitFor(() => out.includes('second try: done'), {message: 'what attempt 2 wrote later'});
		folder.record('ended');
		const result = await follow;
		expect(result.exitCode).toBe(0);
		expect(out).toBe('second try: reading\nsecond try: done\n');
	});

	it('-f on attempt 1 goes on into attempt 2 when the task is re-routed while it is followed', async () => {
		const folder = runFolder({owned: true});
		folder.log('t01.log', 'first try: reading\n');
		folder.record('started');

		let out = '';
		const follow = startCli(folder.test, ['logs', 't01', '-f']);
		follow.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
		});
		await waitFor(() => out.includes('first try: reading'), {message: 'attempt 1\'s log'});
		folder.log('t01.log', 'first try: crashed\n');
		// Attempt 2 has its log before attempt 1's end is on record, so the follower never sees the
		// task ended with no later attempt (it would rightly stop there).
		folder.log('t01.2.log', 'second try: done\n');
		folder.record('ended');
		folder.record('started');
		await waitFor(() => out.includes('second try: done'), {message: 'attempt 2\'s log'});
		folder.record('ended');
		const result = await follow;
		expect(result.exitCode).toBe(0);
		expect(out).toContain('first try: reading\nfirst try: crashed\n── t01 attempt 2: ');
		expect(out).toMatch(/t01\.2\.log\nsecond try: done\n$/);
	});
});
