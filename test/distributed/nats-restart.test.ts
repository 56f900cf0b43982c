// nats-server restarted mid-batch (same port, same store): what the workers report while it is
// down reaches the runner host once it is back. Every task's result arrives, each task ran once
// (its worker's processes.jsonl), and none is lost — also the results of tasks that ended while
// NATS was down, which exist only on their workers until it returns.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/run-cli.js';
import {isProcessRunning} from '../helpers/processes.js';
import {killAfterTest, natsServerPath, natsSkipReason, restartNatsServer, scratchDir, startedRecords, startNatsServer, startWorker, stopFleet, stopNatsServer} from '../helpers/nats-fleet.js';
import {waitFor} from '../helpers/wait-for.js';
import type {BatchReport} from '../../src/core/types.js';

if (!natsServerPath) console.log(natsSkipReason);
afterEach(stopFleet);

describe.skipIf(!natsServerPath)('a nats-server restart mid-batch', () => {
	it('loses no result and runs no task twice, also for tasks that ended while it was down', async () => {
		let server = await startNatsServer();
		const workers = await Promise.all([startWorker(server.url, 'wa', {concurrency: 3}), startWorker(server.url, 'wb', {concurrency: 3})]);
		const release = path.join(scratchDir('hd-release-'), 'go');
		const tasks = Array.from({length: 12}, (_, index) => ({goal: `task ${index} [fake:until-file=${release}] [fake:answer=answer ${index}]`}));
		const run = execa(process.execPath, [cliPath, 'run', '--nats', server.url, JSON.stringify(tasks)], {env: {...process.env, HERMES_HOME: scratchDir('hd-runner-')}, reject: false});
		killAfterTest(run);
		let stderr = '';
		run.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const started = () => workers.flatMap(worker => startedRecords(worker.home));
		await waitFor(() => started().length === 6, {message: 'six tasks running (every slot taken)', timeoutMs: 20_000});

		await stopNatsServer(server);
		writeFileSync(release, '');
		// The six running tasks end while NATS is down: their results are on their workers only.
		await waitFor(() => started().every(record => !isProcessRunning(record.pid)), {message: 'the running tasks to end while NATS is down'});
		server = await restartNatsServer(server);

		const finished = await run;
		expect(finished.exitCode, stderr).toBe(0);
		const report = JSON.parse(finished.stdout) as BatchReport;
		expect(report.results.map(result => [result.status, result.answer])).toEqual(tasks.map((_, index) => ['succeeded', `answer ${index}`]));
		expect(report.results.every(result => result.warnings === undefined), JSON.stringify(report.results.map(result => result.warnings))).toBe(true);
		// Each task ran once, on one worker: one started record per task across the fleet.
		expect(started().map(record => record.task).toSorted()).toEqual(report.results.map(result => result.id).toSorted());
		expect(stderr).toMatch(/nats: lost the connection to NATS/);
		expect(stderr).toMatch(/nats: connected to NATS again/);
	}, 90_000);
});
