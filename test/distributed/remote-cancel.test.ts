// The runner host's executor in this process against a real nats-server and a real worker
// process: a cancel reaches the worker, whose process group is gone before it answers; messages
// on the batch's subjects that are malformed or from a worker that does not hold the task change nothing.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {BatchRunner} from '../../src/core/run/runner.js';
import {createRunFolder} from '../../src/core/run-folder/folder.js';
import type {BatchEvent, PlannedTask} from '../../src/core/types.js';
import {openNats} from '../../src/distributed/connection.js';
import {natsExecutor, type NatsExecutor} from '../../src/distributed/executor.js';
import {Fleet, fleetCapabilities} from '../../src/distributed/fleet.js';
import {attemptSubjects, batchStream} from '../../src/distributed/subjects.js';
import {messageVersion} from '../../src/distributed/messages.js';
import {isProcessRunning} from '../helpers/processes.js';
import {natsServerPath, natsSkipReason, startNatsServer, startWorker, stopFleet, testSigner} from '../helpers/nats-fleet.js';
import {waitFor} from '../helpers/wait-for.js';

if (!natsServerPath) console.log(natsSkipReason);
afterEach(stopFleet);

function plannedTask(id: string, goal: string): PlannedTask {
	return {
		index: 0,
		id,
		spec: {goal},
		decision: {route: null, refused: false, reason: 'the parent\'s own model'},
		effective: {model: null, provider: null, reasoning_effort: null, service_tier: null, profile: null},
		launch: {max_turns: null, prompt_file: false, base_url: null},
		warnings: [],
	};
}

function groupExists(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== 'ESRCH';
	}
}

describe.skipIf(!natsServerPath)('the NATS executor', () => {
	it('cancels a remote task: the worker ends its process group, then answers; foreign and malformed messages are ignored and logged', async () => {
		const {url} = await startNatsServer();
		const worker = await startWorker(url, 'wa');
		// mallory is a worker of the fleet too (listed before the runner host reads the trust file), holding no task.
		const mallory = testSigner('worker', 'mallory');
		const wa = testSigner('worker', 'wa');
		const home = mkdtempSync(path.join(tmpdir(), 'hd-cancel-home-'));
		const nats = await openNats(url, 'test runner host', {}, testSigner());
		const logged: string[] = [];
		const log = (line: string) => logged.push(line);
		const fleet = await Fleet.discover(nats, log);
		let executor: NatsExecutor | undefined;
		try {
			const capabilities = fleetCapabilities(fleet.live());
			const folder = createRunFolder(home);
			executor = natsExecutor({nats, fleet, batch: folder.runId, capabilities, graceMs: 2000, logLimitBytes: 0, display: false, log});
			const runner = new BatchRunner({mode: 'default', tasks: [plannedTask('t01', 'spin [fake:forever]')], warnings: []}, {
				hermesBin: 'hermes', capabilities, folder, graceMs: 2000, concurrency: 1, env: {...process.env, HERMES_HOME: home},
				executor,
			});
			const events: BatchEvent[] = [];
			runner.subscribe(event => events.push(event));
			const report = runner.start();
			await waitFor(() => events.some(event => event.type === 'task.started'), {message: 'the remote task to start'});
			const started = events.find(event => event.type === 'task.started')!;
			const pid = started.type === 'task.started' ? started.pid : 0;
			expect(isProcessRunning(pid)).toBe(true);

			const subjects = attemptSubjects(folder.runId, 't01', 1);
			const encode = (value: string) => new TextEncoder().encode(value);
			// Into the batch's stream, as a worker's reports go: a torn one; one sealed by worker mallory,
			// which does not hold the task (with the seq the next true report will have); one mallory
			// sealed in wa's name; bad output sealed by wa itself; a subject no attempt has.
			nats.connection.publish(subjects.report, encode('{"v":2,"kind":"finished"'));
			nats.connection.publish(subjects.report, mallory.seal(subjects.report, {v: messageVersion, seq: 1, worker: 'mallory', kind: 'killed', at: 1}).bytes);
			nats.connection.publish(subjects.report, mallory.seal(subjects.report, {v: messageVersion, seq: 1, worker: 'wa', kind: 'killed', at: 1}).bytes);
			nats.connection.publish(subjects.report, wa.seal(subjects.report, {v: messageVersion, seq: 1, worker: 'wa', kind: 'output', stream: 'stdout', data: 'not base64 at all!'}).bytes);
			nats.connection.publish(`${subjects.report}.bogus`, encode('{}'));
			await waitFor(() => logged.filter(line => line.startsWith('ignored')).length === 5, {message: 'five ignored messages logged'});
			expect(logged.join('\n')).toMatch(/ignored a report of task t01: not sealed with a fleet key/);
			expect(logged.join('\n')).toMatch(/ignored a killed report of task t01 from mallory, which does not hold it/);
			expect(logged.join('\n')).toMatch(/ignored a report of task t01: signed by worker mallory in the name of wa/);
			expect(logged.join('\n')).toMatch(/ignored a report of task t01: .*data/);
			expect(logged.join('\n')).toMatch(/ignored a message on hd\.[\w-]+\.report\.t01\.1\.bogus: no such subject of an attempt/);
			expect(events.some(event => event.type === 'task.killed')).toBe(false);
			expect(runner.status('t01')).toBe('running');

			// Every stop request on the wire (a core subscription sees requests as any message).
			let stopRequests = 0;
			const stops = nats.connection.subscribe(subjects.cancel, {callback: () => {
				stopRequests++;
			}});
			await nats.connection.flush();
			// A second cancel before the worker has said the stop began (the task still runs here) is no second stop.
			expect(runner.cancel('t01')).toBe(true);
			expect(runner.cancel('t01')).toBe(false);
			const finished = await report;
			stops.unsubscribe();
			expect(stopRequests).toBe(1);
			expect(finished.results[0]).toMatchObject({status: 'cancelled', host: 'wa'});
			expect(events.some(event => event.type === 'task.cancelling')).toBe(true);
			expect(groupExists(pid)).toBe(false);
			await waitFor(() => logged.some(line => line === 'worker wa says task t01\'s processes are gone'), {message: 'the worker\'s answer to the stop'});
			expect(worker.log.text).toMatch(/finished task t01/);
		} finally {
			await executor?.close();
			fleet.close();
			await nats.close();
			rmSync(home, {recursive: true, force: true});
		}
	}, 60_000);

	it('a batch whose consumer the server lost makes it again from just after the last report taken: the result still arrives', async () => {
		const {url} = await startNatsServer();
		await startWorker(url, 'wa');
		const home = mkdtempSync(path.join(tmpdir(), 'hd-consumer-home-'));
		const release = path.join(home, 'go');
		const nats = await openNats(url, 'test runner host', {}, testSigner());
		const logged: string[] = [];
		const log = (line: string) => logged.push(line);
		const fleet = await Fleet.discover(nats, log);
		let executor: NatsExecutor | undefined;
		try {
			const capabilities = fleetCapabilities(fleet.live());
			const folder = createRunFolder(home);
			executor = natsExecutor({nats, fleet, batch: folder.runId, capabilities, graceMs: 2000, logLimitBytes: 0, display: false, log});
			const runner = new BatchRunner({mode: 'default', tasks: [plannedTask('t01', `wait [fake:until-file=${release}] [fake:answer=still here]`)], warnings: []}, {
				hermesBin: 'hermes', capabilities, folder, graceMs: 2000, concurrency: 1, env: {...process.env, HERMES_HOME: home}, executor,
			});
			const events: BatchEvent[] = [];
			runner.subscribe(event => events.push(event));
			const report = runner.start();
			await waitFor(() => events.some(event => event.type === 'task.started'), {message: 'the remote task to start'});
			await nats.manager.consumers.delete(batchStream(folder.runId).name, 'runner-host');
			await waitFor(() => logged.some(line => line.includes('the batch\'s consumer was gone')), {message: 'the consumer made again', timeoutMs: 30_000});
			writeFileSync(release, '');
			expect((await report).results[0]).toMatchObject({status: 'succeeded', answer: 'still here', host: 'wa'});
		} finally {
			await executor?.close();
			fleet.close();
			await nats.close();
			rmSync(home, {recursive: true, force: true});
		}
	}, 60_000);
});
