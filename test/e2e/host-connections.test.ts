// Idle connections cannot starve the batch of file descriptors: the runner host holds a capped
// number of them and refuses more, with the reason, whenever what is left would not run the tasks.
// (Issue 36, item 7: 200 idle clients at ulimit -n 120 made two tasks fail with EMFILE.)
import {spawnSync} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {readHostStatus} from '../../src/wire/host-json.js';
import {protocolVersion} from '../../src/wire/protocol.js';
import {rawClient, type RawClient} from '../helpers/raw-socket.js';
import {makeHome, recordedGroups, runCli, tasksJson} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;

describe.skipIf(!hasPrlimit)('many idle clients of a host with few descriptors', () => {
	it('are refused with the reason beyond what the tasks need, and every task runs', {timeout: 120_000}, async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const go = path.join(test.dir, 'go');
		const waiting = {goal: 'until told', context: `[fake:until-file=${go}]`};
		const later = {goal: 'after them', context: '[fake:duration=0.1]'};
		const started = await runCli(test, ['run', '--detach', '-j', '2', tasksJson(waiting, waiting, later, later)]);
		expect(started.exitCode, started.stderr).toBe(0);
		const runId = started.stdout.trim();
		const dir = path.join(test.runsDir, runId);
		await waitFor(() => recordedGroups(dir).length === 2, {message: 'the first two tasks to start'});
		const host = readHostStatus(dir)!;
		expect(spawnSync('prlimit', ['--pid', String(host.pid), '--nofile=120:120']).status).toBe(0);

		const idle: RawClient[] = [];
		for (let index = 0; index < 200; index++) {
			const client = await rawClient(host.socket);
			client.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'idle'})}\n`);
			idle.push(client);
		}

		// Each is attached (its snapshot came) or was closed: then it sits idle.
		await waitFor(() => idle.every(client => client.closed() || client.messages.some(message => message.type === 'snapshot')), {message: 'every idle client to be attached or closed'});

		// The tasks queued behind the first two start while the idle clients still hold their connections.
		writeFileSync(go, '');
		await waitFor(() => readHostStatus(dir)?.finished === true, {message: 'the batch to finish'});
		for (const client of idle) client.socket.destroy();
		const waited = await runCli(test, ['wait', runId]);
		expect((JSON.parse(waited.stdout) as BatchReport).results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
		expect(waited.exitCode, waited.stderr).toBe(0);
		// Each refused client heard why.
		const refused = idle.flatMap(client => client.messages.filter(message => message.type === 'bye').map(message => String(message['reason'])));
		expect(refused.length).toBeGreaterThanOrEqual(100);
		for (const reason of refused) expect(reason).toMatch(/^refused: (this runner host already holds 64 connections|only \d+ file descriptors are left under its open-files limit \(ulimit -n 120\))/);
	});
});
