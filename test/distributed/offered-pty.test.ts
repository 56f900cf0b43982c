// An offer no worker has claimed yet is not a running task: in a real terminal (tmux), one worker
// of one slot and three tasks offered at once (-j 3, above the fleet's slots), the two the worker
// has not claimed are queued and say what they wait for; the header counts one running. Each
// becomes running only once the worker has it, one after the other.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {cliPath, makeHome, modelMapConfig, tasksJson} from '../helpers/run-cli.js';
import {natsServerPath, natsSkipReason, scratchDir, startedRecords, startNatsServer, startWorker, stopFleet, hostFleetEnv} from '../helpers/nats-fleet.js';
import {startTmux} from '../helpers/tmux.js';
import {waitFor} from '../helpers/wait-for.js';

if (!natsServerPath) console.log(natsSkipReason);

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
	stopFleet();
});

const offered = 'offered: waiting for a free slot on a worker that can run it (wa)';
const count = (screen: string, text: string) => screen.split(text).length - 1;

describe.skipIf(!natsServerPath)('offers no worker has claimed yet', () => {
	it('show as queued with what they wait for, not running, until the worker claims each', async () => {
		const {url} = await startNatsServer();
		const worker = await startWorker(url, 'wa', {config: modelMapConfig, concurrency: 1});
		const home = makeHome();
		cleanups.push(() => home.remove());
		const files = scratchDir('hd-go-');
		const release = (id: string) => writeFileSync(path.join(files, id), '');
		const file = home.write('tasks.json', tasksJson(...['t01', 't02', 't03'].map(id => ({name: `job-${id}`, goal: `Work on ${id} [fake:until-file=${path.join(files, id)}]`}))));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--nats', url, '-j', '3'], {env: {HERMES_HOME: home.dir, ...hostFleetEnv()}, columns: 160, rows: 40});
		cleanups.push(() => screen.kill());

		// One running on wa's one slot; the other two offered and waiting, counted as queued.
		const first = await screen.waitForScreen(text => /3 tasks +● 1 running +○ 2 queued/.test(text) && /workers: wa 0\/1 free/.test(text) && count(text, offered) === 2, {timeoutMs: 30_000, message: 'one running, two offered and queued, wa\'s slot taken'});
		expect(first.match(/● running/g)).toHaveLength(1);
		expect(first.match(/○ queued/g)).toHaveLength(2);
		await waitFor(() => startedRecords(worker.home).length === 1, {message: 'wa to record the task it runs'});
		const running = startedRecords(worker.home)[0]!.task;
		expect(first).toMatch(new RegExp(`${running} job-${running} +● running`));

		// Its end frees the slot: wa claims one of the others, which runs; the last still waits.
		release(running);
		const second = await screen.waitForScreen(text => /● 1 running +○ 1 queued +✓ 1 succeeded/.test(text) && count(text, offered) === 1, {timeoutMs: 30_000, message: 'the second task running, the third still offered'});
		expect(second.match(/● running/g)).toHaveLength(1);
		await waitFor(() => startedRecords(worker.home).length === 2, {message: 'wa to record the second task'});
		const next = startedRecords(worker.home)[1]!.task;
		expect(second).toMatch(new RegExp(`${next} job-${next} +● running`));

		release(next);
		const third = await screen.waitForScreen(text => /● 1 running +✓ 2 succeeded/.test(text) && count(text, offered) === 0, {timeoutMs: 30_000, message: 'the third task running'});
		expect(third).not.toMatch(/○ queued/);
		for (const id of ['t01', 't02', 't03']) release(id);
		await screen.waitForScreen(/✓ 3 succeeded/, {timeoutMs: 30_000, message: 'all three succeeded'});
		screen.sendKeys('q');
		const exit = await screen.waitForExit({timeoutMs: 20_000});
		expect(exit.code).toBe(0);
		// Each ran once, on wa.
		expect(startedRecords(worker.home).map(record => record.task).toSorted()).toEqual(['t01', 't02', 't03']);
	}, 120_000);
});
