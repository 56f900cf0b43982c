// The dashboard of a batch on worker hosts, in a real terminal (tmux): `tui --nats` across two
// worker processes, each with its own HERMES_HOME and the fake agent. The header's workers line and
// each pane's host come from the runner host; a remote task cancelled from the keyboard ends on its
// worker, whose process group is gone once the pane says cancelled; a restart of nats-server shows
// in the header while it lasts, and the batch goes on by itself.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {listGroupMembers} from '../../src/core/process/group.js';
import {cliPath, makeHome, modelMapConfig, tasksJson} from '../helpers/run-cli.js';
import {natsServerPath, natsSkipReason, restartNatsServer, scratchDir, startedRecords, startNatsServer, startWorker, stopFleet, stopNatsServer, hostFleetEnv} from '../helpers/nats-fleet.js';
import {startTmux} from '../helpers/tmux.js';

if (!natsServerPath) console.log(natsSkipReason);

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
	stopFleet();
});

const all = (...patterns: RegExp[]) => (screen: string) => patterns.every(pattern => pattern.test(screen));

describe.skipIf(!natsServerPath)('tui --nats in a real terminal', () => {
	it('shows the workers and each pane\'s host, and cancels a remote task: its group on the worker is gone', async () => {
		let server = await startNatsServer();
		const {url} = server;
		const workers = await Promise.all([startWorker(url, 'wa', {config: modelMapConfig, concurrency: 1}), startWorker(url, 'wb', {config: modelMapConfig, concurrency: 1})]);
		const home = makeHome();
		cleanups.push(() => home.remove());
		const go = path.join(scratchDir('hd-go-'), 'go');
		const file = home.write('tasks.json', tasksJson(
			{name: 'alpha-notes', goal: `Summarise the alpha notes [fake:until-file=${go}]`},
			{name: 'runaway-crawler', goal: 'Crawl the whole docs site [fake:forever]'},
		));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--nats', url, '--grace', '1'], {env: {HERMES_HOME: home.dir, ...hostFleetEnv()}, columns: 160, rows: 40});
		cleanups.push(() => screen.kill());

		// One task on each worker (one slot each), every slot taken.
		const running = await screen.waitForScreen(all(/workers: wa 0\/1 free · wb 0\/1 free/, /t01 alpha-notes +● running/, /t02 runaway-crawler +● running/), {timeoutMs: 30_000, message: 'both tasks running remotely and the workers line'});
		const hosts = [...running.matchAll(/on (w[ab]) · /g)].map(match => match[1]);
		expect(hosts.toSorted()).toEqual(['wa', 'wb']);
		const runaway = workers.flatMap(worker => startedRecords(worker.home).filter(record => record.task === 't02').map(record => ({...record, worker: worker.name})));
		expect(runaway).toHaveLength(1);
		const {pid, worker} = runaway[0]!;
		expect(listGroupMembers(pid)).not.toEqual([]);

		// `attach` from another terminal sees the same: the runner host replays the fleet's newest standing.
		const attached = startTmux([process.execPath, cliPath, 'attach'], {env: {HERMES_HOME: home.dir, ...hostFleetEnv()}, columns: 160, rows: 40});
		cleanups.push(() => attached.kill());
		const seen = await attached.waitForScreen(all(/workers: wa 0\/1 free · wb 0\/1 free/, /t02 runaway-crawler +● running/), {timeoutMs: 20_000, message: 'the attached dashboard with the workers line'});
		expect([...seen.matchAll(/on (w[ab]) · /g)].map(match => match[1]).toSorted()).toEqual(['wa', 'wb']);
		attached.sendKeys('d');
		expect((await attached.waitForExit({timeoutMs: 20_000})).code).toBe(0);

		screen.sendKeys('Tab');
		await screen.waitForScreen(/┃ t02 runaway-crawler/);
		screen.sendKeys('c');
		await screen.waitForScreen(/Cancel t02 'runaway-crawler'\?/);
		screen.sendKeys('y');
		const cancelled = await screen.waitForScreen(/t02 runaway-crawler +⊘ cancelled/, {timeoutMs: 20_000, message: 'the remote task cancelled'});
		expect(cancelled).toMatch(/t01 alpha-notes +● running/);
		// Its worker answers a stop only once the group is gone, and the pane says cancelled after that.
		expect(listGroupMembers(pid)).toEqual([]);
		expect(cancelled).toMatch(new RegExp(`on ${worker} · `));

		// NATS goes away and comes back: the header says so meanwhile, and the batch goes on by itself.
		await stopNatsServer(server);
		await screen.waitForScreen(/⚠ NATS lost \S+ ago \(nats:\/\/127\.0\.0\.1:\d+\): reconnecting by itself/, {timeoutMs: 20_000, message: 'the header to say NATS is lost'});
		server = await restartNatsServer(server);
		await screen.waitForScreen(screenNow => !screenNow.includes('NATS lost') && /workers: wa \d\/1 free · wb \d\/1 free/.test(screenNow), {timeoutMs: 20_000, message: 'the header to drop the warning once NATS is back'});

		writeFileSync(go, '');
		await screen.waitForScreen(/t01 alpha-notes +✓ succeeded/, {timeoutMs: 20_000, message: 'the other task to succeed'});
		// Nothing runs any more: q leaves at once.
		screen.sendKeys('q');
		const exit = await screen.waitForExit({timeoutMs: 20_000});
		expect(exit.code).toBe(1);
		expect(exit.screen).toMatch(/^1\/2 tasks succeeded \(1 cancelled\)$/m);
	}, 90_000);
});
