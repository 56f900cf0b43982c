// The dashboard and headless workloads (issue 9's eight, issue 39's slow trickle). Each measures one tool once and returns plain figures; suite.mjs
// alternates the tools, repeats, takes medians and compares them with the targets.
import {spawnSync} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {goals, newState, startDashboard} from './dashboard.mjs';
import {agentPids, countFiles, cpuSecondsOf, groupHasLiveMember, loadNow, pssPeaks, settleCpu, sleep, statusMiBOf, waitFor} from './procs.mjs';
import {median} from './stats.mjs';

/**
 * Workloads 1 and 2: a batch that ends by itself, watched to its end in the dashboard. CPU and
 * peak RSS are of every process the tool runs it in (hermes-delegate: the dashboard and its
 * runner host), summed, with each one's part in `parts` (`cpuParts`, `rssParts`); the peak RSS
 * sum adds each process's own peak (VmHWM), which may have come at different moments: an upper
 * bound of the pair's peak. Beside it, `pss` and `pssParts`: each process's peak Pss, sampled
 * (procs.mjs pssPeaks), where the pages the dashboard and its host share count once.
 */
export async function watchBatch(tool, paths, kind, count, env) {
	const session = await startDashboard(tool, paths, goals(kind, count), {env});
	let pssSampler;
	try {
		const pids = await session.processes();
		pssSampler = pssPeaks(pids);
		const done = path.join(session.state, 'done');
		await waitFor(`${count} ${kind} agents to finish under ${tool}`, () => session.assertRunning() && countFiles(done) >= count, 600_000, 10);
		const wall = (performance.now() - session.started) / 1000;
		await settleCpu(pids);
		const cpuParts = pids.map(pid => cpuSecondsOf([pid]));
		const rss = statusMiBOf(pids, 'VmHWM');
		const pss = pssSampler.stop();
		return {wall, cpu: cpuParts.reduce((a, b) => a + b, 0), cpuParts, rss: rss.sum, rssParts: rss.parts, pss: pss.sum, pssParts: pss.parts, load: loadNow()};
	} finally {
		pssSampler?.stop();
		await session.stop();
	}
}

/** Workload 3: RSS every `every` seconds while 16 agents trickle; growth of its level from `from` to the end. */
export async function soak(paths, {tasks, seconds, every, from}) {
	const session = await startDashboard('hermes-delegate', paths, goals('trickle', tasks), {env: {BENCH_TRICKLE_S: String(seconds + 30)}});
	try {
		const pids = await session.processes();
		await waitFor('the soak agents to start', () => countFiles(path.join(session.state, 'pid')) >= tasks);
		const started = performance.now();
		const cpu0 = pids.map(pid => cpuSecondsOf([pid]));
		const samples = [];
		for (let at = 0; at <= seconds; at += every) {
			await sleep(Math.max(0, started + at * 1000 - performance.now()));
			const rss = statusMiBOf(pids, 'VmRSS');
			samples.push({at, rss: rss.sum, parts: rss.parts, load: loadNow()});
		}

		const cpuShares = pids.map((pid, i) => (cpuSecondsOf([pid]) - cpu0[i]) / seconds);
		const cpuShare = cpuShares.reduce((a, b) => a + b, 0);
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
		// The spread of this one run: the growth to each sample of the last window (its sawtooth).
		const endGrowths = samples.filter(sample => sample.at >= end.at - window).map(sample => (sample.rss - startLevel) / startLevel);
		return {
			samples, from: reference.at, window, growth: (endLevel - startLevel) / startLevel, endGrowths, startLevel, endLevel,
			pointGrowth: (end.rss - reference.rss) / reference.rss, cpuShare, cpuShares, peak: statusMiBOf(pids, 'VmHWM').sum,
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

/** How many tasks the header counts as running ("● 17 running"), or undefined on a screen caught mid-redraw. */
const runningCount = screen => {
	const match = /● (\d+) running/.exec(screen.split('\n').slice(0, 3).join('\n'));
	return match ? Number(match[1]) : undefined;
};

/**
 * Workload 4: keys during a flood of `tasks` endless agents; milliseconds from the key sent to
 * the screen showing its effect. A press not shown within `timeoutMs` counts as a timeout; after
 * three in a row the tool is taken to be unresponsive and the rest are not tried.
 *
 * The focus key (Tab; j in mprocs), with two instruments alternating press by press: a tmux
 * control-mode client kept open (`latencies`: what the dashboard costs, to within a capture of
 * ~0.5 ms), and a tmux process spawned for each send-keys and each capture (`spawnedLatencies`:
 * the suite's instrument before session 14; on a loaded machine each of those processes takes
 * 5–11 ms, which counts too). Focus never leaves the dashboard's process.
 *
 * Then, for hermes-delegate, `cancels` times the cancel of an idle
 * task (`term` agents, t01… before the floods): focus on it, c, the question, then y → the header
 * counts one task fewer running (`cancelLatencies`, control-mode). With the runner host that is a
 * round trip: the cancel goes to the host, and its task.cancelling event comes back.
 */
export async function keysUnderLoad(tool, paths, {tasks, presses, settleMs, timeoutMs, cancels = 0}) {
	const session = await startDashboard(tool, paths, [...goals('term', cancels), ...goals('endless', tasks)]);
	const control = session.control();
	const instruments = [
		{latencies: [], timeouts: 0, sendKeys: control.sendKeys, screen: control.screen},
		{latencies: [], timeouts: 0, sendKeys: async key => session.sendKeys(key), screen: async () => session.screen()},
	];
	const {key, read} = focus[tool];
	try {
		await control.ready;
		await waitFor(`${tasks} agents flooding`, () => countFiles(path.join(session.state, 'pid')) >= tasks + cancels && read(session.screen()));
		await sleep(settleMs); // past start-up, into the steady state
		const load = loadNow();
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

		const cancel = tool === 'mprocs' ? {cancelLatencies: [], finishLatencies: [], cancelTimeouts: 0} : await cancelsUnderLoad(control, read, {cancels, total: tasks + cancels, timeoutMs});
		return {latencies: instruments[0].latencies, spawnedLatencies: instruments[1].latencies, timeouts: instruments[0].timeouts, spawnedTimeouts: instruments[1].timeouts, ...cancel, load};
	} finally {
		control.close();
		await session.stop();
	}
}

/** The cancel part of workload 4: t01…t<cancels> cancelled one by one, y → one fewer running (`cancelLatencies`), and y → the task's row says cancelled (`finishLatencies`). */
async function cancelsUnderLoad(control, read, {cancels, total, timeoutMs}) {
	const cancelLatencies = [];
	const finishLatencies = [];
	let cancelTimeouts = 0;
	const screen = async () => control.screen();
	for (let index = 1; index <= cancels && cancelTimeouts < 3; index++) {
		const target = `t${String(index).padStart(2, '0')}`; // core/plan/routing.ts's ids
		// Focus to the task (not timed): Tab until it is the one with the focus.
		for (let step = 0; step <= total && (await shownWithin(timeoutMs, async () => read(await screen()))) !== target; step++) {
			const before = read(await screen());
			await control.sendKeys('Tab');
			await shownWithin(timeoutMs, async () => {
				const now = read(await screen());
				return now !== undefined && now !== before;
			});
		}

		await control.sendKeys('c');
		if (!await shownWithin(timeoutMs, async () => new RegExp(`Cancel ${target} .*\\?`).test(await screen()))) {
			cancelTimeouts++;
			continue;
		}

		const running = await shownWithin(timeoutMs, async () => runningCount(await screen()));
		const sent = performance.now();
		await control.sendKeys('y');
		if (running !== undefined && await shownWithin(timeoutMs, async () => {
			const now = runningCount(await screen());
			return now !== undefined && now < running;
		})) {
			cancelLatencies.push(performance.now() - sent);
		} else {
			cancelTimeouts++;
		}

		// The dashboard shows the cancel on its own word (state/intents.ts stopAsked); the runner
		// host's answer is the task's row saying cancelled: the request, the SIGTERM, the agent's
		// exit and the finished event back through the socket.
		if (await shownWithin(timeoutMs, async () => new RegExp(`${target}\\b[^\\n]*⊘ cancelled`).test(await screen()))) {
			finishLatencies.push(performance.now() - sent);
		}

		await sleep(60 + ((index * 37) % 120));
	}

	return {cancelLatencies, finishLatencies, cancelTimeouts};
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
		return {ms: performance.now() - sent, load: loadNow()};
	} finally {
		await session.stop();
	}
}

/**
 * Workload 8: the RSS of the tool's processes (added up; hermes-delegate: dashboard and runner
 * host) with `count` idle agents, once they all run and it has settled: {rss, parts} in MiB.
 */
export async function idleMemory(tool, paths, count, settleMs, sampleCount = 5) {
	const session = await startDashboard(tool, paths, goals('idle', count));
	try {
		const pids = await session.processes();
		await waitFor(`${count} idle agents`, () => countFiles(path.join(session.state, 'pid')) >= count, 60_000);
		await sleep(settleMs);
		const samples = [];
		for (let i = 0; i < sampleCount; i++) {
			samples.push(statusMiBOf(pids, 'VmRSS'));
			await sleep(200);
		}

		const middle = median(samples.map(sample => sample.sum));
		const {sum, parts} = samples.find(sample => sample.sum === middle);
		return {rss: sum, parts, load: loadNow()};
	} finally {
		await session.stop();
	}
}

/**
 * Workloads 6 and 7: one headless batch through `tool`: {wall, cpu, load}. `cpu` is the user +
 * system seconds of the tool and every process it waited for (its agents, a baseline's shells),
 * from the shell's `times` (its children's rusage): the agents' part is the same for every tool,
 * so what differs is the tool's own, and unlike wall it does not stretch when other work shares
 * the cores.
 */
export function headless(tool, paths, kind, count, concurrency, env = {}) {
	const state = newState();
	const list = goals(kind, count);
	const fullEnv = {...process.env, ...env, BENCH_STATE: state, HERMES_HOME: state, XDG_CACHE_HOME: path.join(state, 'cache'), GOALS: list.join('\n')};
	let command;
	if (tool === 'hermes-delegate') {
		const tasks = path.join(state, 'tasks.json');
		writeFileSync(tasks, JSON.stringify(list.map(goal => ({goal}))));
		command = `"$NODE" "$CLI" run "$TASKS" -j ${concurrency} --hermes-bin "$AGENT" > /dev/null`;
		Object.assign(fullEnv, {NODE: process.execPath, CLI: paths.cli, TASKS: tasks});
	} else {
		const runner = tool === 'xargs' ? `xargs -P ${concurrency} -I{}` : `parallel --will-cite -j ${concurrency}`;
		command = `printf '%s\\n' "$GOALS" | ${runner} "$AGENT" chat -q {} > /dev/null`;
	}

	fullEnv.AGENT = paths.agent;
	const load = loadNow();
	const started = performance.now();
	// The last two lines on stderr are `times`: the shell's own, then its children's (user system).
	const result = spawnSync('sh', ['-c', `${command}; status=$?; times >&2; exit $status`], {env: fullEnv, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'});
	const wall = (performance.now() - started) / 1000;
	const finished = countFiles(path.join(state, 'done'));
	spawnSync('rm', ['-rf', state]);
	if (result.status !== 0 || finished !== count) {
		throw new Error(`${tool} ${kind}: exit ${result.status}, ${finished}/${count} agents finished; ${String(result.stderr).slice(-300)}`);
	}

	const seconds = text => [...text.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, minutes, rest]) => sum + Number(minutes) * 60 + Number(rest), 0);
	const cpu = seconds(String(result.stderr).trim().split('\n').at(-1));
	return {wall, cpu, load};
}
