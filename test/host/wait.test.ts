// `wait` on a run that finished before it looked: while the host still serves it (a dashboard is
// attached), the results come from the snapshot; once the host has closed its socket, from
// results.json at once, even while the host's process has not exited yet.
import path from 'node:path';
import {PassThrough} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {waitCommand} from '../../src/commands/wait.js';
import type {BatchReport} from '../../src/core/types.js';
import {connectToBatch} from '../../src/client/connection.js';
import {startHost} from '../../src/host/main.js';
import {describeRun} from '../../src/client/live-runs.js';
import {fakeBatchToHost, hostTestsAfterEach} from '../helpers/hosted-batch.js';

const {scratch, onCleanup} = hostTestsAfterEach();

function output(): {stream: NodeJS.WriteStream; text(): string} {
	const stream = new PassThrough();
	let text = '';
	stream.on('data', (chunk: Buffer) => {
		text += chunk.toString('utf8');
	});
	return {stream: stream as unknown as NodeJS.WriteStream, text: () => text};
}

async function waitFor(runId: string, hermesHome: string): Promise<{code: number; report: BatchReport; stderr: string}> {
	const stdout = output();
	const stderr = output();
	const code = await waitCommand(runId, {}, {stdout: stdout.stream, stderr: stderr.stream, env: {HERMES_HOME: hermesHome}});
	return {code, report: JSON.parse(stdout.text()) as BatchReport, stderr: stderr.text()};
}

/** A dashboard's batch of one quick task, finished, its host still up for the attached client. */
async function finishedWithClient() {
	const batch = fakeBatchToHost(scratch, ['[fake:duration=0.1]']);
	onCleanup(() => batch.runner.shutdown({skipGrace: true}));
	const host = await startHost(batch.hosted, batch.runner, {mode: 'dashboard', log: () => undefined});
	const client = await connectToBatch(host.socket, {client: 'tui'});
	onCleanup(() => client.close());
	await new Promise<void>(resolve => {
		client.source.subscribe(event => {
			if (event.type === 'batch.finished') resolve();
		});
	});
	const hermesHome = path.resolve(batch.runDir, '..', '..', '..');
	return {batch, host, client, hermesHome, runId: path.basename(batch.runDir)};
}

describe('wait on a run that has finished already', () => {
	it('its host still serving it: the results from the snapshot, as run prints them', async () => {
		const {hermesHome, runId} = await finishedWithClient();
		expect(describeRun(runId, hermesHome).state).toBe('live');
		const waited = await waitFor(runId, hermesHome);
		expect(waited.code).toBe(0);
		expect(waited.report.summary).toBe('1/1 tasks succeeded');
		expect(waited.stderr).toContain(`1/1 tasks succeeded; results in ${waited.report.results_file}`);
	});

	it('its host has closed its socket but its process still runs: results.json at once, no waiting for the process', async () => {
		const {client, host, hermesHome, runId} = await finishedWithClient();
		await client.leave('quit');
		await host.done;
		// This test's process is the run's owner: it runs on, as a host between its socket's close and its exit does.
		expect(describeRun(runId, hermesHome).state).toBe('running');
		const waited = await waitFor(runId, hermesHome);
		expect(waited.code).toBe(0);
		expect(waited.report.summary).toBe('1/1 tasks succeeded');
	});
});
