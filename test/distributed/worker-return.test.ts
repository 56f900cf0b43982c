// A worker cut off from NATS long enough to be declared lost, whose task ends meanwhile, and which
// is then killed and started again (same --name, same home): it reports the result it kept on its
// disk, and the task gets that result instead of `lost` — having run once; and it takes work again:
// a task only it can run, offered while it was away, runs on it once it is back. Once the runner
// host has ended the batch, nothing takes such a result any more: it is dropped, and `lost` stands.
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/run-cli.js';
import {killAfterTest, natsServerPath, natsSkipReason, scratchDir, startedRecords, startNatsServer, startRelay, startWorker, stopFleet} from '../helpers/nats-fleet.js';
import {waitFor} from '../helpers/wait-for.js';
import type {BatchEvent, BatchReport} from '../../src/core/types.js';

if (!natsServerPath) console.log(natsSkipReason);
afterEach(stopFleet);

const profileConfig = 'delegation:\n  backend: profile_routes\n  backends:\n    profile_routes:\n      profiles:\n        - name: coder\n          description: Writes code.\n        - name: other\n          description: Everything else.\n';

function keptOutcomes(home: string): string[] {
	const runs = path.join(home, 'delegate', 'runs');
	return readdirSync(runs).flatMap(run => {
		const dir = path.join(runs, run, 'outcomes');
		return existsSync(dir) ? readdirSync(dir) : [];
	});
}

describe.skipIf(!natsServerPath)('a worker that comes back', () => {
	it('reports what finished while it was away, after a restart: the task gets its result instead of lost; then it takes work again', async () => {
		const server = await startNatsServer();
		const relay = await startRelay(server);
		// wa reaches NATS through the relay, which the test cuts; wb directly.
		const wa = await startWorker(relay.url, 'wa', {profiles: ['coder'], concurrency: 1});
		await startWorker(server.url, 'wb', {profiles: ['other'], concurrency: 1});
		const home = scratchDir('hd-runner-');
		for (const profile of ['coder', 'other']) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
		writeFileSync(path.join(home, 'config.yaml'), profileConfig);
		const files = scratchDir('hd-release-');
		const [releaseA, releaseB] = [path.join(files, 'a'), path.join(files, 'b')];
		const tasks = [
			{goal: `one [fake:until-file=${releaseA}] [fake:answer=done while away]`, profile: 'coder'},
			{goal: `two [fake:until-file=${releaseB}]`, profile: 'other'},
			// Only wa has the profile; its one slot is t01's, and then wa is away: it waits for wa.
			{goal: 'three [fake:answer=after the return]', profile: 'coder'},
		];
		const run = execa(process.execPath, [cliPath, 'run', '--jsonl', '--nats', server.url, JSON.stringify(tasks)], {env: {...process.env, HERMES_HOME: home}, reject: false});
		killAfterTest(run);
		let stdout = '';
		run.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		const finishedAs = (id: string) => stdout.split('\n').filter(Boolean).map(line => JSON.parse(line) as BatchEvent)
			.flatMap(event => (event.type === 'task.finished' && event.id === id ? [event.result.status] : []));

		await waitFor(() => startedRecords(wa.home).length === 1, {message: 'wa running t01', timeoutMs: 20_000});
		relay.cut();
		await waitFor(() => finishedAs('t01').includes('lost'), {message: 't01 lost with its worker cut off', timeoutMs: 20_000});
		// t01 ends on wa while wa cannot tell anyone: the result stays on wa's disk.
		writeFileSync(releaseA, '');
		await waitFor(() => keptOutcomes(wa.home).includes('t01.1.json'), {message: 'wa to keep t01\'s result'});
		wa.process.kill('SIGKILL');

		const back = await startWorker(server.url, 'wa', {home: wa.home, profiles: ['coder'], concurrency: 1});
		await waitFor(() => finishedAs('t01').includes('succeeded'), {message: 't01 to get its result from the restarted wa', timeoutMs: 20_000});
		writeFileSync(releaseB, '');
		const finished = await run;
		const events = stdout.trim().split('\n').map(line => JSON.parse(line) as BatchEvent);
		const last = events.at(-1)!;
		const report = (last.type === 'batch.finished' ? last.report : undefined) as BatchReport;
		expect(report.results.map(result => [result.id, result.status, result.host])).toEqual([['t01', 'succeeded', 'wa'], ['t02', 'succeeded', 'wb'], ['t03', 'succeeded', 'wa']]);
		expect(report.results[2]!.answer).toBe('after the return');
		expect(report.results[0]!.answer).toBe('done while away');
		expect(report.results[0]!.warnings).toContainEqual(expect.stringMatching(/^reported by worker wa when it came back, after it had been declared lost \(no heartbeat/));
		expect(finished.exitCode).toBe(0);
		// t01 ran once: the restarted worker reported it, and ran t03, the one task it took.
		expect(startedRecords(wa.home).map(record => record.task)).toEqual(['t01', 't03']);
		expect(back.log.text).toMatch(/reported task t01 \(attempt 1\) of batch \S+, which ended while this worker was away/);
		expect(keptOutcomes(wa.home)).toEqual([]);
	}, 90_000);

	it('after the runner host has ended the batch, a result that comes back is dropped: the batch\'s results keep lost, wait and ls say so, cancel refuses', async () => {
		const server = await startNatsServer();
		const relay = await startRelay(server);
		const wa = await startWorker(relay.url, 'wa', {concurrency: 1});
		const home = scratchDir('hd-runner-');
		const env = {...process.env, HERMES_HOME: home};
		const release = path.join(scratchDir('hd-release-'), 'go');
		const run = execa(process.execPath, [cliPath, 'run', '--nats', server.url, JSON.stringify([{goal: `one [fake:until-file=${release}] [fake:answer=too late]`}])], {env, reject: false});
		killAfterTest(run);
		await waitFor(() => startedRecords(wa.home).length === 1, {message: 'wa running t01', timeoutMs: 20_000});
		relay.cut();
		// Lost, and with that the batch is over: `run` writes its results, deletes the batch's stream and ends.
		const finished = await run;
		expect(finished.exitCode).toBe(1);
		const report = JSON.parse(finished.stdout) as BatchReport;
		expect(report.results[0]).toMatchObject({status: 'lost', host: 'wa'});

		writeFileSync(release, '');
		await waitFor(() => keptOutcomes(wa.home).includes('t01.1.json'), {message: 'wa to keep t01\'s result'});
		wa.process.kill('SIGKILL');
		const back = await startWorker(server.url, 'wa', {home: wa.home, concurrency: 1});
		await waitFor(() => /dropped the kept result of task t01 of batch \S+: the batch's stream is gone \(its runner host has ended the batch\)/.test(back.log.text), {message: 'the restarted wa to drop the result', timeoutMs: 20_000});
		expect(keptOutcomes(wa.home)).toEqual([]);
		// Its answer is only in the task's log on wa now.
		const logs = readdirSync(path.join(wa.home, 'delegate', 'runs')).map(run => path.join(wa.home, 'delegate', 'runs', run, 'logs', 't01.log')).filter(file => existsSync(file));
		expect(logs.map(file => readFileSync(file, 'utf8')).join('')).toContain('too late');

		const waited = await execa(process.execPath, [cliPath, 'wait', report.run_id], {env, reject: false});
		expect((JSON.parse(waited.stdout) as BatchReport).results[0]).toMatchObject({status: 'lost', host: 'wa'});
		expect(waited.exitCode).toBe(1);
		const listed = await execa(process.execPath, [cliPath, 'ls'], {env, reject: false});
		expect(listed.stdout).toMatch(new RegExp(`${report.run_id}.*\\b1 lost\\b`));
		// attach and cancel need the live runner host: there is none (attach, not in a terminal here, says that first).
		const cancelled = await execa(process.execPath, [cliPath, 'cancel', report.run_id, 't01'], {env, reject: false});
		expect(cancelled.exitCode).toBe(2);
		expect(cancelled.stderr).toMatch(/cannot cancel run \S+: it has finished/);
	}, 90_000);
});
