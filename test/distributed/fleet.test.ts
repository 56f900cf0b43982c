// Tasks on worker hosts through a real nats-server: three worker processes, each with its own
// HERMES_HOME, running the fake agent; the runner host is the built CLI's `run --nats`.
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {connect} from '@nats-io/transport-node';
import {jetstream} from '@nats-io/jetstream';
import {cliPath} from '../helpers/run-cli.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {listGroupMembers} from '../../src/core/process/group.js';
import {natsServerPath, natsSkipReason, scratchDir, startedRecords, startNatsServer, startWorker, stopFleet, workerFleetEnv} from '../helpers/nats-fleet.js';
import {waitFor} from '../helpers/wait-for.js';
import type {BatchReport} from '../../src/core/types.js';

if (!natsServerPath) console.log(natsSkipReason);

const profileConfig = 'delegation:\n  backend: profile_routes\n  backends:\n    profile_routes:\n      profiles:\n        - name: coder\n          description: Writes code.\n        - name: research\n          description: Reads papers.\n';

function runnerHome(): string {
	const home = scratchDir('hd-runner-');
	for (const profile of ['coder', 'research']) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
	writeFileSync(path.join(home, 'config.yaml'), profileConfig);
	return home;
}

function runBatch(url: string, tasks: unknown[], home = runnerHome()) {
	return execa(process.execPath, [cliPath, 'run', '--nats', url, JSON.stringify(tasks)], {env: {...process.env, HERMES_HOME: home}, reject: false});
}

/** The tasks a worker's log says it ran. */
function ranBy(log: string, batch: string): string[] {
	return [...log.matchAll(new RegExp(`running task (t\\d+) \\(attempt 1\\) of batch ${batch}`, 'g'))].map(match => match[1]!);
}

afterEach(stopFleet);

/** Every task log in a worker's run folders. */
function taskLogs(home: string): string {
	const runs = path.join(home, 'delegate', 'runs');
	return readdirSync(runs).flatMap(run => {
		const logs = path.join(runs, run, 'logs');
		return existsSync(logs) ? readdirSync(logs).map(log => readFileSync(path.join(logs, log), 'utf8')) : [];
	}).join('\n');
}

describe.skipIf(!natsServerPath)('run --nats with three workers', () => {
	it('runs 60 tasks across them, each once and on a worker that can run it; a task none can run is refused and never published', async () => {
		const {url} = await startNatsServer();
		const workers = await Promise.all([startWorker(url, 'wa', {profiles: ['coder']}), startWorker(url, 'wb'), startWorker(url, 'wc')]);
		const tasks = Array.from({length: 60}, (_, index) => index % 20 === 0
			? {goal: `code ${index} [fake:duration=0.2]`, profile: 'coder'}
			: {goal: `task ${index} [fake:duration=0.2] [fake:answer=answer ${index}]`});
		tasks.push({goal: 'needs research [fake:duration=0.2]', profile: 'research'});
		const run = await runBatch(url, tasks);
		expect(run.exitCode, run.stderr).toBe(1); // the refused task
		const report = JSON.parse(run.stdout) as BatchReport;
		const batch = report.run_id;
		const refused = report.results[60]!;
		expect(refused.status).toBe('refused');
		expect(refused.error).toMatch(/no live worker can run it: .*wb: its home has no profile "research"/);
		expect(report.results.slice(0, 60).every(result => result.status === 'succeeded')).toBe(true);
		for (const [index, result] of report.results.slice(0, 60).entries()) {
			if (index % 20 === 0) expect(result.host).toBe('wa');
			else expect(result.answer).toBe(`answer ${index}`);
		}

		const ran = workers.flatMap(worker => ranBy(worker.log.text, batch));
		expect(ran.toSorted()).toEqual(report.results.slice(0, 60).map(result => result.id).toSorted());
		for (const worker of workers) expect(ranBy(worker.log.text, batch).length, `${worker.name} took work`).toBeGreaterThan(0);
		expect(workers.some(worker => worker.log.text.includes(`${refused.id} `))).toBe(false);
		// Shaped like a local run's result: the same keys, plus the host.
		const local = await execa(process.execPath, [cliPath, 'run', '--hermes-bin', fakeAgentPath, JSON.stringify([{goal: 'local [fake:duration=0.1]'}])], {env: {...process.env, HERMES_HOME: scratchDir('hd-local-')}, reject: false});
		const localKeys = Object.keys((JSON.parse(local.stdout) as BatchReport).results[0]!).toSorted();
		expect(Object.keys(report.results[1]!).filter(key => key !== 'host').toSorted()).toEqual(localKeys);
	}, 120_000);

	it('a worker killed -9 mid-task leaves its task lost; the others finish', async () => {
		const {url} = await startNatsServer();
		const workers = await Promise.all([startWorker(url, 'wa', {concurrency: 1}), startWorker(url, 'wb', {concurrency: 1})]);
		const release = path.join(scratchDir('hd-release-'), 'go');
		// A grandchild in each task's group outlives its agent: what a killed worker leaves running.
		const run = runBatch(url, [{goal: `one [fake:until-file=${release}] [fake:grandchild]`}, {goal: `two [fake:until-file=${release}] [fake:grandchild]`}]);
		let stderr = '';
		run.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		// Each agent and its grandchild running, and its worker's log says so (gc proves a process is the
		// task's by its start time before the run's last write: one started after it is left alone).
		await waitFor(() => workers.every(worker => startedRecords(worker.home).length === 1 && taskLogs(worker.home).includes('grandchild pid')), {message: 'both workers running a task with its grandchild'});
		const victim = workers[0]!;
		const victimTask = /running task (t0\d)/.exec(victim.log.text)![1]!;
		victim.process.kill('SIGKILL');
		// The runner host notices the silence; only then may the survivor's task end.
		await waitFor(() => stderr.includes('worker wa is lost'), {message: 'the runner host to declare wa lost', timeoutMs: 20_000});
		// The killed worker's host recorded the task's group, so `gc` there leaves nothing of it running.
		const startedRecord = startedRecords(victim.home).find(record => record.task === victimTask);
		expect(startedRecord).toBeDefined();
		// The premise: something of the task still runs with its worker gone, so gc has work to do.
		expect(listGroupMembers(startedRecord!.pgid)).not.toEqual([]);
		const gc = await execa(process.execPath, [cliPath, 'gc'], {env: {...process.env, HERMES_HOME: victim.home}, reject: false});
		expect(gc.exitCode, gc.stderr).toBe(0);
		expect(listGroupMembers(startedRecord!.pgid)).toEqual([]);
		writeFileSync(release, '');
		const finished = await run;
		const report = JSON.parse(finished.stdout) as BatchReport;
		const lost = report.results.find(result => result.id === victimTask)!;
		expect(lost.status).toBe('lost');
		expect(lost.host).toBe('wa');
		expect(lost.error).toMatch(/its worker wa was lost: no heartbeat .* not run again by itself/);
		expect(report.results.find(result => result.id !== victimTask)).toMatchObject({status: 'succeeded', host: 'wb'});
		expect(report.summary).toMatch(/1 lost/);
		expect(finished.exitCode).toBe(1);
	}, 60_000);

	it('run --detach --nats: the runner host holds the batch on the workers; wait prints its results with their hosts', async () => {
		const {url} = await startNatsServer();
		await startWorker(url, 'wa');
		const home = runnerHome();
		const env = {...process.env, HERMES_HOME: home};
		const detached = await execa(process.execPath, [cliPath, 'run', '--detach', '--nats', url, JSON.stringify([{goal: 'one [fake:duration=0.2] [fake:answer=first]'}, {goal: 'two [fake:duration=0.2] [fake:answer=second]'}])], {env, reject: false});
		expect(detached.exitCode, detached.stderr).toBe(0);
		const runId = detached.stdout.trim();
		const waited = await execa(process.execPath, [cliPath, 'wait', runId], {env, reject: false});
		expect(waited.exitCode, waited.stderr).toBe(0);
		const report = JSON.parse(waited.stdout) as BatchReport;
		expect(report.results.map(result => [result.status, result.answer, result.host])).toEqual([['succeeded', 'first', 'wa'], ['succeeded', 'second', 'wa']]);
	}, 60_000);

	it('two batches at once on one server stay apart; an unsigned offer is refused and logged', async () => {
		const {url} = await startNatsServer();
		const workers = await Promise.all([startWorker(url, 'wa'), startWorker(url, 'wb')]);
		const connection = await connect({servers: url});
		await jetstream(connection).publish('hd.garbage.offer', new TextEncoder().encode('{"v":1,"nonsense":true}'));
		await connection.close();
		await waitFor(() => workers.some(worker => worker.log.text.includes('refused an offer on hd.garbage.offer: not sealed with a fleet key')), {message: 'a worker to log the malformed offer'});
		const [first, second] = await Promise.all([
			runBatch(url, Array.from({length: 6}, (_, index) => ({goal: `A${index} [fake:duration=0.3] [fake:answer=A${index}]`}))),
			runBatch(url, Array.from({length: 6}, (_, index) => ({goal: `B${index} [fake:duration=0.3] [fake:answer=B${index}]`}))),
		]);
		for (const [run, letter] of [[first, 'A'], [second, 'B']] as const) {
			expect(run.exitCode, run.stderr).toBe(0);
			const report = JSON.parse(run.stdout) as BatchReport;
			expect(report.results.map(result => result.answer)).toEqual(Array.from({length: 6}, (_, index) => `${letter}${index}`));
		}
	}, 60_000);

	it('with no live worker, or no NATS, nothing starts and it exits 2 with the fix', async () => {
		const {url} = await startNatsServer();
		const none = await runBatch(url, [{goal: 'x'}]);
		expect(none.exitCode).toBe(2);
		expect(none.stderr).toMatch(/no live worker on NATS at .*\n {2}fix: start `hermes-delegate worker --nats /);
		// delegate.yaml's executor: {nats: URL} is as --nats.
		const configured = runnerHome();
		writeFileSync(path.join(configured, 'delegate.yaml'), `executor:\n  nats: ${url}\n`);
		const fromSettings = await execa(process.execPath, [cliPath, 'run', JSON.stringify([{goal: 'x'}])], {env: {...process.env, HERMES_HOME: configured}, reject: false});
		expect(fromSettings.exitCode).toBe(2);
		expect(fromSettings.stderr).toMatch(/no live worker on NATS at nats:\/\/127\.0\.0\.1:\d+/);
		// The runner host of `run --detach` and `tui` reads it too, and refuses the same way before anything starts.
		const detached = await execa(process.execPath, [cliPath, 'run', '--detach', JSON.stringify([{goal: 'x'}])], {env: {...process.env, HERMES_HOME: configured}, reject: false});
		expect(detached.exitCode).toBe(2);
		expect(detached.stderr).toMatch(/no live worker on NATS at nats:\/\/127\.0\.0\.1:\d+/);
		const unreachable = await runBatch('nats://127.0.0.1:1', [{goal: 'x'}]);
		expect(unreachable.exitCode).toBe(2);
		expect(unreachable.stderr).toMatch(/cannot reach NATS at nats:\/\/127\.0\.0\.1:1.*\n {2}fix: start a server with JetStream/);
		const worker = await execa(process.execPath, [cliPath, 'worker', '--nats', 'nats://127.0.0.1:1', '--name', 'lonely', '--hermes-bin', fakeAgentPath], {env: {...process.env, HERMES_HOME: scratchDir('hd-lonely-'), ...workerFleetEnv('lonely')}, reject: false});
		expect(worker.exitCode).toBe(2);
		expect(worker.stderr).toMatch(/cannot reach NATS at nats:\/\/127\.0\.0\.1:1.*\n {2}fix: /);
	}, 30_000);
});
