// What `ls`, `attach`, `wait` and `cancel` read from the run folders, without connecting: a run a
// host serves (its owner lives and its socket is there), one that finished, one whose owner died
// before its results, and host.json following the batch's events.
import {mkdirSync, writeFileSync} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {runsDir} from '../../src/core/hermes/home.js';
import {recordRunOwner} from '../../src/core/run-folder/owner.js';
import type {BatchEvent, TaskResult} from '../../src/core/types.js';
import {HostStatusFile} from '../../src/host/status.js';
import {readHostStatus} from '../../src/wire/host-json.js';
import {chooseRun, describeRun, describeTasks, listRecentRuns} from '../../src/client/live-runs.js';
import {scratchAfterEach} from '../helpers/scratch.js';

const scratch = scratchAfterEach();
const servers: net.Server[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map(async server => new Promise(resolve => server.close(resolve))));
});

function makeRun(home: string, runId: string, owner: 'this process' | 'gone'): string {
	const dir = path.join(runsDir(home), runId);
	mkdirSync(path.join(dir, 'logs'), {recursive: true});
	if (owner === 'this process') recordRunOwner({dir});
	// A pid that cannot be running: pid_max is far below it.
	else writeFileSync(path.join(dir, 'owner.json'), JSON.stringify({pid: 2 ** 30, start_ticks: 1, boot_id: null, host: null, at: '2026-01-01T00:00:00.000Z'}));
	writeFileSync(path.join(dir, 'plan.json'), JSON.stringify({mode: 'model_map', warnings: [], tasks: [{id: 't01', spec: {goal: 'one'}, decision: {refused: false}}, {id: 't02', spec: {goal: 'two'}, decision: {refused: false}}]}));
	return dir;
}

async function listen(socket: string): Promise<void> {
	const server = net.createServer();
	servers.push(server);
	await new Promise<void>(resolve => server.listen(socket, resolve));
}

function finished(id: string): BatchEvent {
	return {type: 'task.finished', id, result: {id, status: 'succeeded'} as TaskResult, at: 0};
}

describe('host.json', () => {
	it('follows the tasks and the clients, and is what readHostStatus returns', async () => {
		const dir = scratch.folder('host-status-');
		const status = new HostStatusFile(dir, path.join(dir, 'host.sock'), [{id: 't01', refused: false}, {id: 't02', refused: true}]);
		status.onEvent({type: 'task.started', id: 't01', pid: 1, argv: [], at: 0});
		status.setClients(2);
		await status.flushed();
		expect(readHostStatus(dir)).toMatchObject({pid: process.pid, clients: 2, tasks: {running: 1, refused: 1}, finished: false});
		status.onEvent(finished('t01'));
		status.onEvent({type: 'batch.finished', report: {} as never, at: 0});
		await status.flushed();
		expect(readHostStatus(dir)).toMatchObject({tasks: {succeeded: 1, refused: 1}, finished: true});
	});

	it('a file that is not a host status reads as none', () => {
		const dir = scratch.folder('host-status-');
		writeFileSync(path.join(dir, 'host.json'), '{"pid": "me"}');
		expect(readHostStatus(dir)).toBeUndefined();
	});
});

describe('the runs of a home', () => {
	it('tells live, finished, owner died and running without a host apart, newest first', async () => {
		const home = scratch.folder('live-runs-');
		const died = makeRun(home, '20260101-000001-aaaaaa', 'gone');
		writeFileSync(path.join(died, 'processes.jsonl'), `${JSON.stringify({event: 'started', task: 't01', pid: 5, pgid: 5, start_ticks: 1})}\n`);
		const done = makeRun(home, '20260101-000002-bbbbbb', 'gone');
		writeFileSync(path.join(done, 'results.json'), JSON.stringify({summary: '2/2', results: [{id: 't01', status: 'succeeded'}, {id: 't02', status: 'succeeded'}]}));
		makeRun(home, '20260101-000003-cccccc', 'this process');
		const live = makeRun(home, '20260101-000004-dddddd', 'this process');
		const socket = path.join(live, 'host.sock');
		await listen(socket);
		const status = new HostStatusFile(live, socket, [{id: 't01', refused: false}, {id: 't02', refused: false}]);
		status.setClients(1);
		await status.flushed();

		const runs = listRecentRuns([home]);
		expect(runs.map(run => [run.runId, run.state])).toEqual([
			['20260101-000004-dddddd', 'live'],
			['20260101-000003-cccccc', 'running'],
			['20260101-000002-bbbbbb', 'finished'],
			['20260101-000001-aaaaaa', 'owner died'],
		]);
		expect(runs[0]).toMatchObject({clients: 1, socket, tasks: {queued: 2}});
		expect(describeTasks(runs[2]!.tasks)).toBe('2 succeeded');
		// Its owner gone, what had not ended never will: started and queued alike (history.ts).
		expect(describeTasks(runs[3]!.tasks)).toBe('2 unfinished');
		expect(chooseRun([home], undefined, {needLive: true, command: 'attach to'}).runId).toBe('20260101-000004-dddddd');
		expect(() => chooseRun([home], '20260101-000001-aaaaaa', {needLive: true, command: 'cancel'})).toThrow(/cannot cancel run 20260101-000001-aaaaaa: its runner host died/);
		expect(() => chooseRun([home], '20990101-000000-ffffff', {needLive: false, command: 'wait for'})).toThrow(/no run "20990101-000000-ffffff"/);
	});

	it('a host.json left by a host that died does not make its run live', () => {
		const home = scratch.folder('live-runs-');
		const dir = makeRun(home, '20260101-000001-aaaaaa', 'gone');
		writeFileSync(path.join(dir, 'host.json'), JSON.stringify({pid: 2 ** 30, socket: path.join(dir, 'host.sock'), clients: 1, tasks: {running: 2}, finished: false, updated_at: ''}));
		writeFileSync(path.join(dir, 'host.sock'), '');
		expect(describeRun('20260101-000001-aaaaaa', home)).toMatchObject({state: 'owner died', clients: null, socket: null});
	});
});

describe('no live run', () => {
	it('attach says that a finished run opens with its id; cancel, which has nothing to do with one, does not', () => {
		const home = scratch.folder('no-live-');
		const fixOf = (command: string) => {
			try {
				chooseRun([home], undefined, {needLive: true, command});
			} catch (error) {
				return (error as {fix?: string}).fix;
			}

			return undefined;
		};

		expect(fixOf('attach to')).toContain('`hermes-delegate attach RUN` opens a finished one read-only');
		expect(fixOf('cancel')).not.toContain('attach RUN');
		expect(fixOf('cancel')).toContain('hermes-delegate ls');
	});
});
