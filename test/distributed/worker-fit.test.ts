// Which worker runs what: a task whose only fitting worker leaves waits (saying for what) and then
// ends with the reason instead of waiting forever; a worker that cannot run an offer says so once
// and leaves it, and is never handed it again; in a mixed fleet each task's output is read
// as the Hermes of the worker that ran it.
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {BatchRunner} from '../../src/core/run/runner.js';
import {createRunFolder} from '../../src/core/run-folder/folder.js';
import type {BatchEvent, BatchReport, PlannedTask} from '../../src/core/types.js';
import {openNats} from '../../src/distributed/connection.js';
import {natsExecutor, type NatsExecutor} from '../../src/distributed/executor.js';
import {Fleet, fleetCapabilities} from '../../src/distributed/fleet.js';
import {offerConsumerOf, offerStream} from '../../src/distributed/subjects.js';
import {cliPath} from '../helpers/run-cli.js';
import {killAfterTest, natsServerPath, natsSkipReason, scratchDir, startedRecords, startNatsServer, startWorker, stopFleet, testSigner} from '../helpers/nats-fleet.js';
import {waitFor} from '../helpers/wait-for.js';

if (!natsServerPath) console.log(natsSkipReason);
afterEach(stopFleet);

const profileConfig = 'delegation:\n  backend: profile_routes\n  backends:\n    profile_routes:\n      profiles:\n        - name: coder\n          description: Writes code.\n';

function profileTask(id: string, goal: string, profile: string): PlannedTask {
	return {
		index: Number(id.slice(1)) - 1,
		id,
		spec: {goal, profile},
		decision: {route: {kind: 'profile', name: profile, description: profile}, refused: false, reason: 'named'},
		effective: {model: null, provider: null, reasoning_effort: null, service_tier: null, profile},
		launch: {max_turns: null, prompt_file: false, base_url: null},
		warnings: [],
	};
}

describe.skipIf(!natsServerPath)('fitting tasks to workers', () => {
	it('a task whose only fitting worker is lost says what it waits for, then ends failed after worker_wait; the unfit worker says so once', async () => {
		const {url} = await startNatsServer();
		const [coder, other] = await Promise.all([startWorker(url, 'wa', {profiles: ['coder'], concurrency: 1}), startWorker(url, 'wb')]);
		const home = scratchDir('hd-runner-');
		mkdirSync(path.join(home, 'profiles', 'coder'), {recursive: true});
		writeFileSync(path.join(home, 'config.yaml'), profileConfig);
		writeFileSync(path.join(home, 'delegate.yaml'), `executor:\n  nats: ${url}\n  worker_wait: 3\n`);
		const release = path.join(scratchDir('hd-release-'), 'go');
		const tasks = [{goal: `one [fake:until-file=${release}]`, profile: 'coder'}, {goal: 'two [fake:duration=0.2]', profile: 'coder'}];
		// -j 1: t02 is offered only once t01 has ended, so t01 surely runs on wa, and t02 meets a fleet without it.
		const run = execa(process.execPath, [cliPath, 'run', '--jsonl', '-j', '1', JSON.stringify(tasks)], {env: {...process.env, HERMES_HOME: home}, reject: false});
		killAfterTest(run);
		await waitFor(() => startedRecords(coder.home).length === 1, {message: 'wa running t01'});
		coder.process.kill('SIGKILL');

		const finished = await run;
		const events = finished.stdout.trim().split('\n').map(line => JSON.parse(line) as BatchEvent);
		const waiting = events.filter(event => event.type === 'task.waiting' && event.id === 't02').map(event => event.type === 'task.waiting' ? event.waitingFor : null);
		expect(waiting).toContainEqual(expect.stringMatching(/^waiting for a worker that can run it \(wa, which could, was lost: no heartbeat .*; wb: its home has no profile "coder"\); gives up 3 s after/));
		const last = events.at(-1)!;
		const report = (last.type === 'batch.finished' ? last.report : undefined) as BatchReport;
		expect(report.results[0]).toMatchObject({id: 't01', status: 'lost', host: 'wa'});
		expect(report.results[1]).toMatchObject({id: 't02', status: 'failed', started_at: null});
		expect(report.results[1]!.error).toMatch(/^not started: no live worker could run it for 3 s \(wa, which could, was lost: .*\); R runs it again/);
		expect(finished.exitCode).toBe(1);
		// Offered to it again and again while it waited (3 s and more): said once, and it never ran it.
		expect(other.log.text.match(/left task t02 /g)).toHaveLength(1);
		expect(startedRecords(other.home)).toEqual([]);
	}, 60_000);

	it('two workers each handed the other\'s task first run their own without it coming back to them: no offer is delivered to a worker twice', async () => {
		const {url} = await startNatsServer();
		// wb first: with one work queue for all, its older pull took t01 (wa's only), wa took t02, and
		// each offer a worker left went back to the oldest pull, often the same worker's, for many
		// seconds.
		const wb = await startWorker(url, 'wb', {profiles: ['other'], concurrency: 1});
		const wa = await startWorker(url, 'wa', {profiles: ['coder'], concurrency: 1});
		const home = scratchDir('hd-runner-');
		for (const profile of ['coder', 'other']) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
		writeFileSync(path.join(home, 'config.yaml'), `${profileConfig}        - name: other\n          description: Everything else.\n`);
		const run = await execa(process.execPath, [cliPath, 'run', JSON.stringify([{goal: 'one', profile: 'coder'}, {goal: 'two', profile: 'other'}]), '--nats', url], {env: {...process.env, HERMES_HOME: home}, reject: false});
		expect(run.exitCode, run.stderr).toBe(0);
		expect((JSON.parse(run.stdout) as BatchReport).results.map(result => result.host)).toEqual(['wa', 'wb']);
		const nats = await openNats(url, 'test', {}, testSigner());
		try {
			for (const worker of [wa, wb]) {
				const info = await nats.manager.consumers.info(offerStream, offerConsumerOf(worker.name));
				expect(info.num_redelivered, worker.name).toBe(0);
				expect(info.num_ack_pending, worker.name).toBe(0);
			}
		} finally {
			await nats.close();
		}
	}, 60_000);

	it('in a mixed fleet, output is read as the Hermes of the worker that ran it: a JSON-looking answer from one without stream-json stays text', async () => {
		const {url} = await startNatsServer();
		await Promise.all([startWorker(url, 'old', {profiles: ['legacy'], env: {FAKE_HERMES_VERSION: '0.19.0'}}), startWorker(url, 'new', {profiles: ['modern']})]);
		const nats = await openNats(url, 'test runner host', {}, testSigner());
		const logged: string[] = [];
		const fleet = await Fleet.discover(nats, line => logged.push(line));
		let executor: NatsExecutor | undefined;
		try {
			const capabilities = fleetCapabilities(fleet.live());
			expect(capabilities.flags.streamJson).toBe(true); // the newer worker's Hermes has it: the batch is planned with it
			const home = scratchDir('hd-mixed-');
			const folder = createRunFolder(home);
			executor = natsExecutor({nats, fleet, batch: folder.runId, capabilities, graceMs: 1000, logLimitBytes: 0, display: true, log: line => logged.push(line)});
			const jsonAnswer = '{"type":"text","text":"read as an event"}';
			const runner = new BatchRunner({mode: 'profile_routes', tasks: [profileTask('t01', `plain [fake:duration=0.2] [fake:answer=${jsonAnswer}]`, 'legacy'), profileTask('t02', 'streamed [fake:duration=0.2] [fake:answer=streamed answer]', 'modern')], warnings: []}, {
				hermesBin: 'hermes', capabilities, folder, graceMs: 1000, concurrency: 2, env: {...process.env, HERMES_HOME: home}, executor,
			});
			const report = await runner.start();
			expect(report.results.map(result => [result.status, result.host, result.answer])).toEqual([['succeeded', 'old', jsonAnswer], ['succeeded', 'new', 'streamed answer']]);
			// The pane of t01 shows the answer as its Hermes printed it; t02's stream-json is decoded (no raw events).
			expect(runner.output('t01')!.display.lines()).toContain(jsonAnswer);
			const streamed = runner.output('t02')!.display.lines();
			expect(streamed.join('\n')).toContain('streamed answer');
			expect(streamed.join('\n')).not.toContain('"type":');
		} finally {
			await executor?.close();
			fleet.close();
			await nats.close();
		}
	}, 60_000);
});
