// The runner host's own workloads: a batch started with `run --detach`
// (a host of its own, no client), then
// - attachSnapshot: how long a client waits, from its connect, for the whole snapshot of a batch
//   of 200 tasks whose panes all have lines (the protocol, read and parsed as a client does), and
//   how long `attach` takes to its first frame in a pane (a Node process started, connected and
//   drawn: the operator's wait);
// - idleHost: the CPU of a detached host while its 16 tasks are quiet, as a share of a core.
import {spawnSync} from 'node:child_process';
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createConnection} from 'node:net';
import path from 'node:path';
import {commandInPane, controlClient, goals, newState} from './dashboard.mjs';
import {agentPids, countFiles, cpuSecondsOf, killGroups, loadNow, settleCpu, sleep, statusMiBOf, waitFor} from './procs.mjs';

/** The protocol version the bench speaks (docs/protocol.md); a host of another one says so in its bye. */
const protocolVersion = 1;

/** `run --detach` over `goalList` in a fresh state folder: {state, runId, socket, hostPid, stop()}. */
async function startDetached(paths, goalList, env) {
	const state = newState();
	const tasks = path.join(state, 'tasks.json');
	writeFileSync(tasks, JSON.stringify(goalList.map(goal => ({goal}))));
	const fullEnv = {...process.env, ...env, BENCH_STATE: state, HERMES_HOME: state, XDG_CACHE_HOME: path.join(state, 'cache')};
	const result = spawnSync(process.execPath, [paths.cli, 'run', '--detach', tasks, '-j', String(goalList.length), '--hermes-bin', paths.agent], {cwd: state, env: fullEnv, encoding: 'utf8'});
	const runId = result.stdout.trim();
	const runDir = path.join(state, 'delegate', 'runs', runId);
	let hostPid;
	const stop = async () => {
		killGroups([...(hostPid ? [hostPid] : []), ...agentPids(state)]);
		await sleep(100);
		rmSync(state, {recursive: true, force: true, maxRetries: 20, retryDelay: 50});
	};

	if (result.status !== 0 || runId === '') {
		await stop();
		throw new Error(`run --detach: exit ${result.status}; ${result.stderr.slice(-300)}`);
	}

	try {
		// host.json names the host's pid and socket (host/status.ts); written before `ready`.
		const host = await waitFor('host.json', () => {
			try {
				return JSON.parse(readFileSync(path.join(runDir, 'host.json'), 'utf8'));
			} catch {
				return undefined;
			}
		});
		hostPid = host.pid;
		return {state, runId, socket: host.socket, hostPid, env: fullEnv, stop};
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * One client's connect → its snapshot received whole and parsed, in ms (and → the host's hello,
 * which comes once the peer check has passed), with the snapshot's size and what it holds. The client says hello as soon as it is connected (as client.ts does); the
 * host answers with its hello once its peer check (`ss`, /proc) has passed, then the snapshot.
 */
async function timeSnapshot(socket, tailLines) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const connection = createConnection(socket);
		let pending = '';
		let bytes = 0;
		let helloMs;
		const fail = error => {
			connection.destroy();
			reject(error);
		};

		connection.on('error', fail);
		connection.on('connect', () => connection.write(`${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'bench', tailLines})}\n`));
		connection.on('data', chunk => {
			bytes += chunk.length;
			let at = chunk.indexOf(10);
			let from = 0;
			while (at !== -1) {
				const line = pending + chunk.subarray(from, at).toString('utf8');
				pending = '';
				from = at + 1;
				const message = JSON.parse(line);
				if (message.type === 'hello') helloMs ??= performance.now() - started;
				if (message.type === 'bye') {
					fail(new Error(`the host said bye: ${message.reason}`));
					return;
				}

				if (message.type === 'snapshot') {
					const ms = performance.now() - started;
					connection.destroy();
					resolve({ms, helloMs, bytes, tasks: message.plan.tasks.length, events: message.events.length, lines: Object.values(message.outputs).reduce((sum, output) => sum + output.tail.length, 0)});
					return;
				}

				at = chunk.indexOf(10, from);
			}

			pending += chunk.subarray(from).toString('utf8');
		});
		connection.on('close', () => fail(new Error('the host closed before its snapshot')));
	});
}

/**
 * Workload 9: a detached batch of `tasks` agents that have each said `lines` lines and stay
 * running quietly; `connects` clients one after the other, each timed from connect to its whole
 * snapshot; then `attach RUN` in a pane `frames` times, timed from its start to its first frame
 * that shows every task running.
 */
export async function attachSnapshot(paths, {tasks, lines, connects, frames}) {
	const batch = await startDetached(paths, goals('burst', tasks), {BENCH_BURST_LINES: String(lines)});
	try {
		await waitFor(`${tasks} agents to say their lines`, () => countFiles(path.join(batch.state, 'done')) >= tasks, 120_000);
		await settleCpu([batch.hostPid]); // the host has read and kept every line
		const snapshots = [];
		for (let i = 0; i < connects; i++) {
			snapshots.push({...await timeSnapshot(batch.socket, 40), load: loadNow()});
			await sleep(150); // the host notes the client's leaving
		}

		const firstFrames = [];
		for (let i = 0; i < frames; i++) {
			const started = performance.now();
			const pane = commandInPane([process.execPath, paths.cli, 'attach', batch.runId], {HERMES_HOME: batch.state, XDG_CACHE_HOME: path.join(batch.state, 'cache')}, batch.state);
			const control = controlClient(pane.name);
			try {
				await control.ready;
				const shown = await untilShown(control, screen => new RegExp(`● ${tasks} running`).test(screen), 30_000);
				if (!shown) throw new Error(`attach showed no frame with ${tasks} running within 30 s`);
				firstFrames.push({ms: performance.now() - started, load: loadNow()});
			} finally {
				control.close();
				pane.close();
			}

			await sleep(300);
		}

		// What of the first frame is only starting Node and loading the CLI: a bare --version, timed the same way.
		const bareStarts = [];
		for (let i = 0; i < Math.max(1, frames); i++) {
			const started = performance.now();
			spawnSync(process.execPath, [paths.cli, '--version'], {stdio: 'ignore'});
			bareStarts.push(performance.now() - started);
		}

		return {snapshots, firstFrames, bareStarts, hostRss: statusMiBOf([batch.hostPid], 'VmRSS').sum};
	} finally {
		await batch.stop();
	}
}

async function untilShown(control, test, timeoutMs) {
	const started = performance.now();
	while (performance.now() - started < timeoutMs) {
		if (test(await control.screen())) return true;
	}

	return false;
}

/**
 * Workload 10: a detached host (no client) with `tasks` quiet agents: its CPU seconds over
 * `seconds` as a share of one core (and of each `windowSeconds` of them: the spread of one long
 * run), the load average sampled each second, and its RSS. Measured
 * from `warmupSeconds` after its agents run: for the first half-minute or so V8 still collects
 * what start-up left (its memory reducer), which is not what the host costs while it idles.
 */
export async function idleHost(paths, {tasks, seconds, warmupSeconds = 0, windowSeconds = 10}) {
	const batch = await startDetached(paths, goals('idle', tasks), {});
	try {
		await waitFor(`${tasks} idle agents`, () => countFiles(path.join(batch.state, 'pid')) >= tasks, 60_000);
		await settleCpu([batch.hostPid]); // past start-up
		await sleep(warmupSeconds * 1000);
		const loads = [];
		const windows = [];
		const cpu0 = cpuSecondsOf([batch.hostPid]);
		const started = performance.now();
		let windowStart = {cpu: cpu0, at: started};
		for (let at = 1; at <= seconds; at++) {
			await sleep(Math.max(0, started + at * 1000 - performance.now()));
			loads.push(loadNow());
			if (at % windowSeconds === 0 || at === seconds) {
				const now = {cpu: cpuSecondsOf([batch.hostPid]), at: performance.now()};
				windows.push((now.cpu - windowStart.cpu) / ((now.at - windowStart.at) / 1000));
				windowStart = now;
			}
		}

		const elapsed = (performance.now() - started) / 1000;
		const cpu = cpuSecondsOf([batch.hostPid]) - cpu0;
		return {share: cpu / elapsed, windows, cpu, seconds: elapsed, warmupSeconds, loads, rss: statusMiBOf([batch.hostPid], 'VmRSS').sum};
	} finally {
		await batch.stop();
	}
}
