// A task on a worker that prints megabytes at once, through the runner host of `run --detach
// --nats`: the host answers its clients while it runs, keeps a bounded tail of the output (the
// dashboard's 2000 lines), the results are right, and output the worker could not send (more than
// it holds waiting for NATS: report-publisher.ts) is marked where it is missing and counted in the
// result, never lost silently. The worker's log keeps every byte.
import {chmodSync, existsSync, readdirSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {readRunOwner} from '../../src/core/run-folder/owner.js';
import type {BatchEvent, BatchReport} from '../../src/core/types.js';
import {maxWaitingOutputBytes} from '../../src/distributed/report-publisher.js';
import {connectToBatch, type BatchConnection} from '../../src/client/connection.js';
import {cliPath} from '../helpers/run-cli.js';
import {fakeAgentPath, isProcessRunning} from '../helpers/processes.js';
import {natsServerPath, natsSkipReason, scratchDir, startNatsServer, startWorker, stopFleet, type WorkerSettings} from '../helpers/nats-fleet.js';
import {waitFor} from '../helpers/wait-for.js';

if (!natsServerPath) console.log(natsSkipReason);
afterEach(stopFleet);

/** What the dashboard keeps of a task's output (TaskOutput's default maxLines). */
const keptLines = 2000;
const lineBytes = 128;

/** `run --detach --nats`, and a client of its runner host that has every event. */
async function detachedBatch(url: string, tasks: unknown[]): Promise<{runId: string; home: string; watcher: BatchConnection; events: BatchEvent[]; env: NodeJS.ProcessEnv}> {
	const home = scratchDir('hd-flood-runner-');
	const env = {...process.env, HERMES_HOME: home};
	const detached = await execa(process.execPath, [cliPath, 'run', '--detach', '--nats', url, JSON.stringify(tasks)], {env, reject: false});
	expect(detached.exitCode, detached.stderr).toBe(0);
	const runId = detached.stdout.trim();
	const watcher = await connectToBatch(path.join(home, 'delegate', 'runs', runId, 'host.sock'), {client: 'test'});
	const events: BatchEvent[] = watcher.snapshot.events.map(entry => entry.event);
	watcher.source.subscribe(event => events.push(event));
	return {runId, home, watcher, events, env};
}

/** The batch's results through `wait`, then the runner host gone (it writes into the home until it ends). */
async function finish(batch: Awaited<ReturnType<typeof detachedBatch>>): Promise<BatchReport> {
	const waited = await execa(process.execPath, [cliPath, 'wait', batch.runId], {env: batch.env, reject: false});
	batch.watcher.close();
	const hostPid = readRunOwner(path.join(batch.home, 'delegate', 'runs', batch.runId))!.pid;
	await waitFor(() => !isProcessRunning(hostPid), {message: 'the runner host to end'});
	return JSON.parse(waited.stdout) as BatchReport;
}

/** Size of task t01's log on the worker (0 before it exists). */
function workerLogBytes(home: string): number {
	const runs = path.join(home, 'delegate', 'runs');
	if (!existsSync(runs)) return 0;
	for (const run of readdirSync(runs).filter(name => !name.startsWith('.'))) {
		const log = path.join(runs, run, 'logs', 't01.log');
		if (existsSync(log)) return statSync(log).size;
	}

	return 0;
}

const text = (lines: unknown[]) => lines.map(line => JSON.stringify(line)).join('\n');

describe.skipIf(!natsServerPath)('a worker task that floods its output', () => {
	it('8 MiB at once: the host answers a client while it runs, keeps only a bounded tail, and has every line (no drop under the bound)', async () => {
		const {url} = await startNatsServer();
		const worker = await startWorker(url, 'wa', {concurrency: 2});
		const release = path.join(scratchDir('hd-flood-release-'), 'go');
		// Just under what a worker holds waiting (64 KiB left for the agent's other lines): however slowly NATS
		// takes it, never more waits than that, so nothing may be dropped and every line must arrive.
		const bytes = maxWaitingOutputBytes - 64 * 1024;
		const batch = await detachedBatch(url, [
			{name: 'flood', goal: `flood [fake:bytes=${bytes}] [fake:line-bytes=${lineBytes}]`},
			{name: 'quiet', goal: `quiet [fake:until-file=${release}] [fake:answer=still here]`},
		]);
		try {
			await waitFor(() => batch.events.some(event => event.type === 'task.started' && event.id === 't01'), {message: 'the flood to start'});
			// The host answers a client while the flood comes in, about another task and about the flood itself.
			const quiet = await batch.watcher.control.readOutput({id: 't02'});
			expect(quiet?.id).toBe('t02');
			await waitFor(() => batch.events.some(event => event.type === 'task.finished' && event.id === 't01'), {message: 'the flood to end', timeoutMs: 30_000});
			const flood = await batch.watcher.control.readOutput({id: 't01'});
			// Bounded: the last lines only, numbered as of all of them; complete: the last line the task printed is there.
			expect(flood!.lines.length).toBeLessThanOrEqual(keptLines);
			expect(flood!.totalLines).toBeGreaterThanOrEqual(bytes / lineBytes);
			expect(text(flood!.lines)).toContain(`line ${String(bytes / lineBytes).padStart(8, '0')} `);
			expect(text(flood!.lines)).not.toContain('missing here');
			writeFileSync(release, '');
			const report = await finish(batch);
			expect(report.results.map(result => [result.status, result.host])).toEqual([['succeeded', 'wa'], ['succeeded', 'wa']]);
			expect(report.results[0]!.warnings ?? []).toEqual([]);
			expect(report.results[1]!.answer).toBe('still here');
			expect(workerLogBytes(worker.home)).toBeGreaterThanOrEqual(bytes);
		} finally {
			batch.watcher.close();
		}
	}, 90_000);

	it('more than the worker holds while NATS does not take it: the rest is dropped, marked where it is missing and counted in the result', async () => {
		const server = await startNatsServer();
		// The agent begins to print only once the test says so: NATS is frozen by then.
		const dir = scratchDir('hd-flood-gate-');
		const gate = path.join(dir, 'go');
		const gated = path.join(dir, 'hermes');
		writeFileSync(gated, `#!/bin/sh\ncase "$*" in *fake:bytes*) while [ ! -e '${gate}' ]; do sleep 0.05; done ;; esac\nexec '${fakeAgentPath}' "$@"\n`);
		chmodSync(gated, 0o755);
		// Heartbeats that cannot go while NATS is frozen must not make it lost right after: a long allowance.
		const settings: WorkerSettings = {args: ['--hermes-bin', gated, '--heartbeat', '30']};
		const worker = await startWorker(server.url, 'wa', settings);
		const bytes = 3 * maxWaitingOutputBytes;
		const batch = await detachedBatch(server.url, [{name: 'flood', goal: `flood [fake:bytes=${bytes}] [fake:line-bytes=${lineBytes}]`}]);
		let frozen = false;
		try {
			await waitFor(() => batch.events.some(event => event.type === 'task.started' && event.id === 't01'), {message: 'the flood to start'});
			process.kill(server.process.pid!, 'SIGSTOP');
			frozen = true;
			writeFileSync(gate, '');
			// All of it printed (the worker's log has it) while nothing could go over NATS.
			await waitFor(() => workerLogBytes(worker.home) >= bytes, {message: 'the worker to have logged the whole flood', timeoutMs: 30_000});
			process.kill(server.process.pid!, 'SIGCONT');
			frozen = false;
			await waitFor(() => batch.events.some(event => event.type === 'task.finished' && event.id === 't01'), {message: 'the flood to end', timeoutMs: 60_000});
			const flood = await batch.watcher.control.readOutput({id: 't01'});
			expect(flood!.lines.length).toBeLessThanOrEqual(keptLines);
			// One gap (nothing went while NATS was frozen), marked once, at the end: all after the first 8 MiB was dropped.
			const notes = [...text(flood!.lines).matchAll(/\[hermes-delegate: (\d+) bytes of this task's output are missing here: more than 8 MiB waited to go over NATS; the log on worker wa has every byte\]/g)];
			expect(notes).toHaveLength(1);
			const report = await finish(batch);
			const [result] = report.results;
			expect(result).toMatchObject({status: 'succeeded', host: 'wa'});
			const counted = /^(\d+) bytes of live output were not sent: more waited to go over NATS than its worker holds/.exec(result!.warnings?.join('\n') ?? '');
			expect(counted, JSON.stringify(result!.warnings)).not.toBeNull();
			// Everything but what the worker held: a little less than two thirds of the flood is missing.
			expect(Number(counted![1])).toBeGreaterThanOrEqual(bytes - maxWaitingOutputBytes - 256 * 1024);
			expect(Number(notes[0]![1])).toBe(Number(counted![1]));
			expect(workerLogBytes(worker.home)).toBeGreaterThanOrEqual(bytes);
		} finally {
			if (frozen) process.kill(server.process.pid!, 'SIGCONT');
			batch.watcher.close();
		}
	}, 120_000);
});
