// The eight workloads. Each measures one tool once and returns plain figures; suite.mjs
// alternates the tools, repeats, takes medians and compares them with the targets.
import {spawnSync} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {goals, newState, startDashboard} from './dashboard.mjs';
import {agentPids, countFiles, cpuSeconds, groupHasLiveMember, settleCpu, sleep, statusMiB, waitFor} from './procs.mjs';
import {median} from './stats.mjs';

/** How big each workload is: the sizes, BENCH_SCALE times, or a few seconds in all (tiny). */
export function sizes({tiny, scale, soakSeconds}) {
	if (tiny) {
		return {
			flood: {tasks: 2, lines: 2000}, trickle: {tasks: 4, seconds: 1}, soak: {tasks: 2, seconds: 2, every: 1, from: 1},
			keys: {tasks: 4, presses: 5, settleMs: 300, timeoutMs: 1000}, cancelGrace: 0.5, quick: {tasks: 20}, headlessFlood: {tasks: 2, lines: 2000}, memory: {few: 2, many: 6, settleMs: 500},
		};
	}

	const seconds = soakSeconds ?? 600;
	return {
		flood: {tasks: 16, lines: Math.round(100_000 * scale)},
		trickle: {tasks: 32, seconds: 20 * scale},
		// Growth is measured from minute 2, or from half-way through a soak of 4 minutes or less.
		soak: {tasks: 16, seconds, every: 10, from: Math.min(120, seconds / 2)},
		keys: {tasks: 16, presses: 50, settleMs: 2000, timeoutMs: 5000},
		cancelGrace: 1,
		quick: {tasks: Math.round(300 * scale)},
		headlessFlood: {tasks: 16, lines: Math.round(100_000 * scale)},
		memory: {few: 10, many: 200, settleMs: 3000},
	};
}

/** Workloads 1 and 2: a batch that ends by itself, watched to its end in the dashboard. */
export async function watchBatch(tool, paths, kind, count, env) {
	const session = await startDashboard(tool, paths, goals(kind, count), {env});
	try {
		const done = path.join(session.state, 'done');
		await waitFor(`${count} ${kind} agents to finish under ${tool}`, () => countFiles(done) >= count, 600_000, 10);
		const wall = (performance.now() - session.started) / 1000;
		await settleCpu(session.pid);
		return {wall, cpu: cpuSeconds(session.pid), rss: statusMiB(session.pid, 'VmHWM')};
	} finally {
		await session.stop();
	}
}

/** Workload 3: RSS every `every` seconds while 16 agents trickle; growth of its level from `from` to the end. */
export async function soak(paths, {tasks, seconds, every, from}) {
	const session = await startDashboard('hermes-delegate', paths, goals('trickle', tasks), {env: {BENCH_TRICKLE_S: String(seconds + 30)}});
	try {
		await waitFor('the soak agents to start', () => countFiles(path.join(session.state, 'pid')) >= tasks);
		const started = performance.now();
		const cpu0 = cpuSeconds(session.pid);
		const samples = [];
		for (let at = 0; at <= seconds; at += every) {
			await sleep(Math.max(0, started + at * 1000 - performance.now()));
			samples.push({at, rss: statusMiB(session.pid, 'VmRSS')});
		}

		const cpuShare = (cpuSeconds(session.pid) - cpu0) / seconds;
		// RSS is a sawtooth (it climbs until a GC, then drops by ~10 %), so two single samples
		// compare where each happened to fall in its tooth, not how the level moved. The level is
		// the median of a window (a minute, or half what is left of a short soak) at minute 2 and
		// at the end. The single samples' figure is still reported (pointGrowth).
		const window = Math.min(60, (seconds - from) / 2);
		const level = (start, stop) => median(samples.filter(sample => sample.at >= start && sample.at <= stop).map(sample => sample.rss));
		const reference = samples.find(sample => sample.at >= from) ?? samples[0];
		const end = samples.at(-1);
		const startLevel = level(reference.at, reference.at + window);
		const endLevel = level(end.at - window, end.at);
		return {
			samples, from: reference.at, window, growth: (endLevel - startLevel) / startLevel, startLevel, endLevel,
			pointGrowth: (end.rss - reference.rss) / reference.rss, cpuShare, peak: statusMiB(session.pid, 'VmHWM'),
		};
	} finally {
		await session.stop();
	}
}

// The focused task: in hermes-delegate the heavy border of its pane in the grid (the marker of
// its row in the list), moved by Tab; in mprocs the bullet in its process list, moved by j.
const focus = {
	'hermes-delegate': {key: 'Tab', read: screen => /(?:› |┃ )(t\d+) /.exec(screen)?.[1]},
	mprocs: {key: 'j', read: screen => /•([a-z]+-\d+)/.exec(screen)?.[1]},
};

/**
 * Workload 4: the focus key during a flood, key sent → the screen shows the focus moved;
 * milliseconds. A press not shown within `timeoutMs` counts as a timeout; after three in a row
 * the tool is taken to be unresponsive and the rest are not tried.
 *
 * Two instruments, alternating press by press: a tmux control-mode client kept open
 * (`latencies`: what the dashboard costs, to within a capture of ~0.5 ms), and a tmux process
 * spawned for each send-keys and each capture (`spawnedLatencies`: the suite's instrument before
 * session 14; on a loaded machine each of those processes takes 5–11 ms, which counts too).
 */
export async function keysUnderLoad(tool, paths, {tasks, presses, settleMs, timeoutMs}) {
	const session = await startDashboard(tool, paths, goals('endless', tasks));
	const control = session.control();
	const instruments = [
		{latencies: [], timeouts: 0, sendKeys: control.sendKeys, screen: control.screen},
		{latencies: [], timeouts: 0, sendKeys: async key => session.sendKeys(key), screen: async () => session.screen()},
	];
	const {key, read} = focus[tool];
	try {
		await control.ready;
		await waitFor(`${tasks} agents flooding`, () => countFiles(path.join(session.state, 'pid')) >= tasks && read(session.screen()));
		await sleep(settleMs); // past start-up, into the steady state
		let missedInARow = 0;
		for (let press = 0; press < presses && missedInARow < 3; press++) {
			const instrument = instruments[press % 2];
			// The focus as it stands before the key; a screen caught mid-redraw may not show it.
			const before = await shownWithin(timeoutMs, async () => read(await instrument.screen()));
			const sent = performance.now();
			await instrument.sendKeys(key);
			if (before !== undefined && await shownWithin(timeoutMs, async () => {
				const now = read(await instrument.screen());
				return now !== undefined && now !== before;
			})) {
				instrument.latencies.push(performance.now() - sent);
				missedInARow = 0;
			} else {
				instrument.timeouts++;
				missedInARow++;
			}

			await sleep(60 + ((press * 37) % 120)); // not in step with the frame clock
		}

		return {latencies: instruments[0].latencies, spawnedLatencies: instruments[1].latencies, timeouts: instruments[0].timeouts, spawnedTimeouts: instruments[1].timeouts};
	} finally {
		control.close();
		await session.stop();
	}
}

/** Polls `check` back to back until it gives something truthy (→ that) or `timeoutMs` have passed (→ undefined). */
async function shownWithin(timeoutMs, check) {
	const started = performance.now();
	while (performance.now() - started < timeoutMs) {
		const value = await check();
		if (value) {
			return value;
		}
	}

	return undefined;
}

/** Workload 5: c, y on one running task → its whole process group is gone; milliseconds. */
export async function cancel(paths, kind, grace) {
	const session = await startDashboard('hermes-delegate', paths, goals(kind, 1), {args: ['--grace', String(grace)]});
	try {
		const [pgid] = await waitFor('the agent to start', () => {
			const pids = agentPids(session.state);
			return pids.length > 0 && pids;
		});
		await waitFor('the task running on screen', () => session.screen().includes('1 running'));
		session.sendKeys('c');
		await waitFor('the cancel question', () => /Cancel .*\?/.test(session.screen()));
		const sent = performance.now();
		session.sendKeys('y');
		await waitFor('the group to be gone', () => !groupHasLiveMember(pgid), 30_000, 1);
		return performance.now() - sent;
	} finally {
		await session.stop();
	}
}

/** Workload 8: the dashboard's RSS with `count` idle agents, once they all run and it has settled. */
export async function idleMemory(tool, paths, count, settleMs) {
	const session = await startDashboard(tool, paths, goals('idle', count));
	try {
		await waitFor(`${count} idle agents`, () => countFiles(path.join(session.state, 'pid')) >= count, 60_000);
		await sleep(settleMs);
		const samples = [];
		for (let i = 0; i < 5; i++) {
			samples.push(statusMiB(session.pid, 'VmRSS'));
			await sleep(200);
		}

		return median(samples);
	} finally {
		await session.stop();
	}
}

/** Workloads 6 and 7: wall seconds of one headless batch through `tool`. */
export function headless(tool, paths, kind, count, concurrency, env = {}) {
	const state = newState();
	const list = goals(kind, count);
	const fullEnv = {...process.env, ...env, BENCH_STATE: state, HERMES_HOME: state, XDG_CACHE_HOME: path.join(state, 'cache'), GOALS: list.join('\n')};
	let file;
	let args;
	if (tool === 'hermes-delegate') {
		const tasks = path.join(state, 'tasks.json');
		writeFileSync(tasks, JSON.stringify(list.map(goal => ({goal}))));
		file = process.execPath;
		args = [paths.cli, 'run', tasks, '-j', String(concurrency), '--hermes-bin', paths.agent];
	} else {
		const runner = tool === 'xargs' ? `xargs -P ${concurrency} -I{}` : `parallel --will-cite -j ${concurrency}`;
		file = 'sh';
		args = ['-c', `printf '%s\\n' "$GOALS" | ${runner} '${paths.agent}' chat -q {}`];
	}

	const started = performance.now();
	const result = spawnSync(file, args, {env: fullEnv, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'});
	const wall = (performance.now() - started) / 1000;
	const finished = countFiles(path.join(state, 'done'));
	spawnSync('rm', ['-rf', state]);
	if (result.status !== 0 || finished !== count) {
		throw new Error(`${tool} ${kind}: exit ${result.status}, ${finished}/${count} agents finished; ${String(result.stderr).slice(-300)}`);
	}

	return wall;
}
