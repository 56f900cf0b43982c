// `hermes-delegate cancel RUN TASK` on a task that runs on a worker, through the runner host of
// `run --detach --nats`: the cascade happens on the worker (its agent's process group and the
// grandchild in it are gone), the result is `cancelled`, and a second cancel while the first is on
// its way is no second cancel: one stop reaches the worker, one task.cancelling, one SIGTERM.
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {listGroupMembers} from '../../src/core/process/group.js';
import {readRunOwner} from '../../src/core/run-folder/owner.js';
import type {BatchEvent, BatchReport} from '../../src/core/types.js';
import {connectToBatch} from '../../src/client/connection.js';
import {cliPath} from '../helpers/run-cli.js';
import {isProcessRunning} from '../helpers/processes.js';
import {natsServerPath, natsSkipReason, scratchDir, startedRecords, startNatsServer, startWorker, stopFleet} from '../helpers/nats-fleet.js';
import {waitFor} from '../helpers/wait-for.js';

if (!natsServerPath) console.log(natsSkipReason);
afterEach(stopFleet);

/** Task t01's log on the worker (in the run folder the worker made for the batch), or '' before it exists. */
function workerTaskLog(home: string): string {
	const runs = path.join(home, 'delegate', 'runs');
	if (!existsSync(runs)) return '';
	for (const run of readdirSync(runs).filter(name => !name.startsWith('.'))) {
		const logs = path.join(runs, run, 'logs');
		const log = existsSync(logs) ? readdirSync(logs).find(name => name.startsWith('t01')) : undefined;
		if (log) return readFileSync(path.join(logs, log), 'utf8');
	}

	return '';
}

describe.skipIf(!natsServerPath)('cancel through a runner host, of a task on a worker', () => {
	it('ends the agent\'s group on the worker, the result is cancelled, and a second cancel while the first is on its way is no second cancel', async () => {
		const {url} = await startNatsServer();
		const worker = await startWorker(url, 'wa', {concurrency: 2, args: ['--heartbeat', '30']});
		const home = scratchDir('hd-cancel-runner-');
		const env = {...process.env, HERMES_HOME: home};
		const release = path.join(home, 'go');
		// It ignores SIGTERM, so it stays cancelling for the whole grace period: a second cancel meets a stop under way.
		const tasks = [{name: 'runaway', goal: 'spin [fake:forever] [fake:grandchild] [fake:ignore-term]'}, {name: 'bystander', goal: `wait [fake:until-file=${release}] [fake:answer=still here]`}];
		const detached = await execa(process.execPath, [cliPath, 'run', '--detach', '--nats', url, '--grace', '3', JSON.stringify(tasks)], {env, reject: false});
		expect(detached.exitCode, detached.stderr).toBe(0);
		const runId = detached.stdout.trim();

		// The runner host's events, as a client of its socket sees them.
		const watcher = await connectToBatch(path.join(home, 'delegate', 'runs', runId, 'host.sock'), {client: 'test'});
		const events: BatchEvent[] = watcher.snapshot.events.map(entry => entry.event);
		watcher.source.subscribe(event => events.push(event));
		try {
			await waitFor(() => startedRecords(worker.home).length === 2 && workerTaskLog(worker.home).includes('grandchild pid'), {message: 'both tasks running on the worker, t01 with its grandchild'});
			await waitFor(() => events.filter(event => event.type === 'task.started').length === 2, {message: 'the runner host told of both starts'});
			const group = startedRecords(worker.home).find(record => record.task === 't01')!;
			const grandchild = Number(/grandchild pid (\d+)/.exec(workerTaskLog(worker.home))![1]);
			expect(listGroupMembers(group.pgid)).toContain(grandchild);

			// The worker frozen, so the runner host hears nothing of the stop: the task still runs there.
			process.kill(worker.process.pid!, 'SIGSTOP');
			let frozen = true;
			try {
				// The dashboard's `c` (the same request over the host's socket), then `cancel` from the command line.
				expect(await watcher.control.cancel('t01', {skipGrace: false})).toBe(true);
				const second = execa(process.execPath, [cliPath, 'cancel', runId, 't01'], {env, reject: false});
				let said = '';
				second.stderr.on('data', (chunk: Buffer) => {
					said += chunk.toString();
				});
				await waitFor(() => said.includes('cancelling t01 \'runaway\':'), {message: 'the second cancel to have looked at the batch'});
				process.kill(worker.process.pid!, 'SIGCONT');
				frozen = false;
				const answer = await second;
				// The confirmation says where the group is: on the worker, not here.
				expect(answer.stderr).toContain('SIGTERM to its process group on worker wa,');
				expect(answer.stderr).toMatch(/t01 cancelled/);
				expect(answer.exitCode, answer.stderr).toBe(0);
			} finally {
				if (frozen) process.kill(worker.process.pid!, 'SIGCONT');
			}

			// The cascade ran on the worker: nothing of the group is left, the grandchild included.
			expect(listGroupMembers(group.pgid)).toEqual([]);
			expect(isProcessRunning(grandchild)).toBe(false);
			// One stop: one SIGTERM reached the agent, one cancelling, one forced end after the grace.
			const log = workerTaskLog(worker.home);
			expect(log.match(/^ignoring SIGTERM$/gm)).toHaveLength(1);
			expect(log.match(/^grandchild ignoring SIGTERM$/gm)).toHaveLength(1);
			const ofT01 = (type: BatchEvent['type']) => events.filter(event => event.type === type && 'id' in event && event.id === 't01');
			expect(ofT01('task.cancelling')).toHaveLength(1);
			expect(ofT01('task.killed')).toHaveLength(1);
			const hostLog = () => readFileSync(path.join(home, 'delegate', 'runs', runId, 'host.log'), 'utf8');
			await waitFor(() => hostLog().includes('says task t01\'s processes are gone'), {message: 'the worker\'s answer to the stop'});
			expect(hostLog().match(/worker wa says task t01's processes are gone/g)).toHaveLength(1);
			const ended = ofT01('task.finished');
			expect(ended).toHaveLength(1);
			expect(ended[0]!.type === 'task.finished' && ended[0]!.result).toMatchObject({status: 'cancelled', host: 'wa'});

			// Once it has ended, a cancel says nothing was cancelled.
			expect(await watcher.control.cancel('t01', {skipGrace: false})).toBe(false);

			// The other task runs on, and the batch ends with both results.
			writeFileSync(release, '');
			const waited = await execa(process.execPath, [cliPath, 'wait', runId], {env, reject: false});
			const report = JSON.parse(waited.stdout) as BatchReport;
			expect(report.results.map(result => [result.status, result.host])).toEqual([['cancelled', 'wa'], ['succeeded', 'wa']]);
			expect(report.results[1]!.answer).toBe('still here');
			watcher.close();
			// Gone before its home is removed: the host writes into the run folder until it ends.
			const hostPid = readRunOwner(path.join(home, 'delegate', 'runs', runId))!.pid;
			await waitFor(() => !isProcessRunning(hostPid), {message: 'the runner host to end'});
		} finally {
			watcher.close();
		}
	}, 60_000);
});
