// The comparative benchmark suite: every workload runs for hermes-delegate and
// its baselines in the same invocation, alternating, and one table of medians and ratios against
// the targets is printed with the machine's details and the load average beside each figure.
// Numbers, not tests: a missed target is reported, not failed; the exit code is 1 only when a
// workload could not be measured.
//
// hermes-delegate's dashboard figures count every process of it: the dashboard (a client) and the
// runner host its batch runs in. The dashboards are compared with mprocs and, for issue 24, with
// the in-process dashboard of before the host (lib/reference.mjs builds it; not in --tiny).
//
// `npm run bench` (20–25 min; 13–17 with BENCH_SOAK_S=120), `npm run bench -- --tiny` (30–60 s).
// Environment: BENCH_RUNS (3), BENCH_SCALE (1: sizes of the issue; 0.1 for a quick look),
// BENCH_SOAK_S (600), BENCH_IDLE_S (60), BENCH_ONLY=flood,keys (a subset), BENCH_TINY=1
// (= --tiny), BENCH_IN_PROCESS (1, or 0: leave the in-process build out), BENCH_MPROCS_VERSION
// (0.9.6), BENCH_CLI (dist/cli.js of this checkout).
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {findBaselines, machineDetails} from './lib/baselines.mjs';
import {inProcess, stopEverything} from './lib/dashboard.mjs';
import {attachSnapshot, idleHost} from './lib/host-workloads.mjs';
import {inProcessBuild} from './lib/reference.mjs';
import {figureOf, fixed, latencySummary, loadText, ratioText, recordedToday, Table} from './lib/report.mjs';
import {markdownTable, median} from './lib/stats.mjs';
import {cancel, headless, idleMemory, keysUnderLoad, sizes, soak, watchBatch} from './lib/workloads.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const workloadNames = ['flood', 'trickle', 'slow-trickle', 'soak', 'keys', 'cancel', 'headless-quick', 'headless-flood', 'memory', 'attach', 'idle-host'];

function refuse(message) {
	console.error(`bench: ${message}`);
	process.exit(2);
}

/** A positive number from the environment, or the default; anything else stops the suite. */
function setting(name, fallback, integer = false) {
	const text = env[name];
	if (text === undefined || text === '') {
		return fallback;
	}

	const value = Number(text);
	if (!(value > 0) || (integer && !Number.isInteger(value))) {
		refuse(`${name}=${JSON.stringify(text)} is not a positive ${integer ? 'whole number' : 'number'}; unset it for ${fallback ?? 'the default'}`);
	}

	return value;
}

const tiny = process.argv.includes('--tiny') || env.BENCH_TINY === '1';
const runs = tiny ? 1 : setting('BENCH_RUNS', 3, true);
const only = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : undefined;
const unknown = [...(only ?? [])].filter(name => !workloadNames.includes(name));
if (unknown.length > 0) {
	refuse(`BENCH_ONLY names no workload ${unknown.join(', ')}; the workloads: ${workloadNames.join(',')}`);
}

if (!['0', '1', undefined, ''].includes(env.BENCH_IN_PROCESS)) {
	refuse(`BENCH_IN_PROCESS=${JSON.stringify(env.BENCH_IN_PROCESS)} is neither 1 (measure the in-process build beside) nor 0 (leave it out)`);
}

const size = sizes({tiny, scale: setting('BENCH_SCALE', 1), soakSeconds: setting('BENCH_SOAK_S', undefined), idleSeconds: setting('BENCH_IDLE_S', undefined)});
const paths = {cli: env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};

const table = new Table();
const notes = [];
let failures = 0;

/** Runs `measure(tool)` `runs` times for each tool, alternating (A B, B A, …); lists per tool. */
async function alternate(tools, measure) {
	const results = Object.fromEntries(tools.map(tool => [tool, []]));
	for (let run = 0; run < runs; run++) {
		for (const tool of run % 2 ? [...tools].reverse() : tools) {
			results[tool].push(await measure(tool));
		}
	}

	return results;
}

/** The load text over every run of every tool (results: tool → list of {load}). */
const loadsOf = results => loadText(Object.values(results).flat().map(result => result.load));

async function workload(name, body) {
	if (only && !only.has(name)) {
		return;
	}

	const started = performance.now();
	process.stderr.write(`… ${name}`);
	table.load = '';
	try {
		await body();
		process.stderr.write(` (${fixed((performance.now() - started) / 1000, 0)} s)\n`);
	} catch (error) {
		failures++;
		process.stderr.write(` failed\n`);
		table.push([name, 'failed', error.message.split('\n')[0], '', '', '', '**failed**']);
	}
}

if (!existsSync(paths.cli)) {
	refuse(`no ${paths.cli}: build first (npm run build)`);
}

if (process.platform !== 'linux') {
	refuse('the suite reads /proc: it runs on Linux only');
}

for (const [command, install] of [['tmux', 'apt-get install tmux'], ['python3', 'apt-get install python3']]) {
	if (spawnSync(command, ['-V'], {stdio: 'ignore'}).error) {
		refuse(`${command} is needed and not installed (${install})`);
	}
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		stopEverything();
		process.exit(130);
	});
}

process.on('exit', stopEverything);

const cache = path.join(here, '.cache');
const baselines = findBaselines(cache);
const {version} = JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
const wantInProcess = !tiny && env.BENCH_IN_PROCESS !== '0';
const reference = wantInProcess ? inProcessBuild(path.join(here, '..'), cache) : {skipped: tiny ? 'not measured in --tiny' : 'left out (BENCH_IN_PROCESS=0)'};
const details = [...machineDetails(baselines, version), `in-process dashboard (issue 24's "today's"): ${reference.cli ? `built from ${reference.commit.slice(0, 7)}, the last main before the runner host` : reference.skipped}`];
const mprocs = baselines.mprocs.path;
const dashboardTools = ['hermes-delegate', ...(reference.cli ? [inProcess] : []), ...(mprocs ? ['mprocs'] : [])];
const mprocsName = mprocs ? 'mprocs' : `mprocs ${baselines.mprocs.skipped}`;
const dashboardPaths = {...paths, mprocs, inProcessCli: reference.cli};
const started = performance.now();

/** The rows of one dashboard figure: against mprocs, and the in-process build beside it. */
function dashboardFigure(label, results, {key, name, digits, unit, target, today}) {
	const ours = figureOf(results, 'hermes-delegate', key, digits, unit, `${key}Parts`);
	const theirs = figureOf(results, 'mprocs', key, digits, unit);
	const before = figureOf(results, inProcess, key, digits, unit);
	table.compared(label, name, ours, mprocsName, theirs, target);
	if (before) table.compared(label, `${name}, in-process`, before, mprocsName, theirs, target);
	if (today !== undefined) table.againstToday(label, name, ours, before, theirs, today, unit, digits);
}

await workload('flood', async () => {
	const {tasks, lines} = size.flood;
	const results = await alternate(dashboardTools, tool => watchBatch(tool, dashboardPaths, 'flood', tasks, {BENCH_FLOOD_LINES: String(lines)}));
	table.load = loadsOf(results);
	const label = `1 flood ${tasks}×${lines} lines`;
	dashboardFigure(label, results, {key: 'wall', name: 'wall', digits: 2, unit: 's', target: 0.1, today: recordedToday.flood.wall});
	dashboardFigure(label, results, {key: 'cpu', name: 'CPU', digits: 2, unit: 's', target: 0.1, today: recordedToday.flood.CPU});
	dashboardFigure(label, results, {key: 'rss', name: 'peak RSS', digits: 0, unit: 'MiB', target: 1, today: recordedToday.flood['peak RSS']});
});

await workload('trickle', async () => {
	const {tasks, seconds} = size.trickle;
	const results = await alternate(dashboardTools, tool => watchBatch(tool, dashboardPaths, 'trickle', tasks, {BENCH_TRICKLE_S: String(seconds)}));
	table.load = loadsOf(results);
	const label = `2 trickle ${tasks}×20/s×${seconds}s`;
	dashboardFigure(label, results, {key: 'cpu', name: 'CPU', digits: 2, unit: 's', target: 0.5, today: recordedToday.trickle.CPU});
	dashboardFigure(label, results, {key: 'rss', name: 'peak RSS', digits: 0, unit: 'MiB', target: 1, today: recordedToday.trickle['peak RSS']});
});

await workload('slow-trickle', async () => {
	// A long batch's usual state: output seldom, so what the dashboard costs is what it costs while
	// nothing changes (issue 39, Cost: ≤ 0.5× mprocs, and ≤ 120 MiB peak RSS for both processes).
	const {tasks, seconds, rate} = size.slowTrickle;
	const results = await alternate(dashboardTools, tool => watchBatch(tool, dashboardPaths, 'trickle', tasks, {BENCH_TRICKLE_S: String(seconds), BENCH_TRICKLE_RATE: String(rate)}));
	table.load = loadsOf(results);
	const label = `2b slow trickle ${tasks}×${rate}/s×${seconds}s`;
	dashboardFigure(label, results, {key: 'cpu', name: 'CPU', digits: 2, unit: 's', target: 0.5});
	dashboardFigure(label, results, {key: 'rss', name: 'peak RSS', digits: 0, unit: 'MiB', target: 1});
});

await workload('soak', async () => {
	const result = await soak(paths, size.soak);
	table.load = loadText(result.samples.map(sample => sample.load));
	const label = `3 soak ${size.soak.tasks}×20/s×${size.soak.seconds}s`;
	table.absolute(label, `RSS growth after ${result.from} s`, `${fixed(result.growth * 100, 1)} % (${fixed(result.startLevel, 0)} → ${fixed(result.endLevel, 0)} MiB)`, '≤ 10 %', result.growth <= 0.1);
	const last = result.samples.at(-1);
	notes.push(`soak (1 run): RSS MiB (dashboard + runner host) every ${size.soak.every} s: ${result.samples.map(sample => fixed(sample.rss, 0)).join(' ')}; at the end ${fixed(last.parts[0], 0)} + ${fixed(last.parts[1], 0)} MiB; ${fixed(result.cpuShare * 100, 0)}% of a core on average (dashboard ${fixed(result.cpuShares[0] * 100, 0)} %, host ${fixed(result.cpuShares[1] * 100, 0)} %); peak ${fixed(result.peak, 0)} MiB (the two peaks added).`);
	notes.push(`soak: growth compares the median RSS of the ${result.window} s from ${result.from} s with that of the last ${result.window} s (RSS is a sawtooth); the single samples at ${result.from} s and at the end give ${fixed(result.pointGrowth * 100, 1)} %.`);
});

await workload('keys', async () => {
	const results = await alternate(dashboardTools, tool => keysUnderLoad(tool, dashboardPaths, size.keys));
	table.load = loadsOf(results);
	const {timeoutMs} = size.keys;
	const summary = (tool, latencies, timeouts) => latencySummary(results[tool].flatMap(result => result[latencies]), results[tool].reduce((sum, result) => sum + result[timeouts], 0), timeoutMs);
	const label = `4 keys during a flood of ${size.keys.tasks}`;
	const today = results[inProcess] && summary(inProcess, 'latencies', 'timeouts');
	const todayP95 = today ? today.p95 : recordedToday.keysP95Ms;
	const todayText = today ? `in-process p95 ${fixed(todayP95, 0)} ms` : `session 19's p95 ${todayP95} ms (recorded)`;
	for (const [latencies, timeouts, name] of [['latencies', 'timeouts', 'focus key → frame'], ['spawnedLatencies', 'spawnedTimeouts', 'the same, a tmux process per command']]) {
		const ours = summary('hermes-delegate', latencies, timeouts);
		const theirs = results.mprocs && summary('mprocs', latencies, timeouts);
		const baseline = theirs ? `mprocs (j): ${theirs.text}` : mprocsName;
		const primary = latencies === 'latencies';
		table.push([label, name, ours.text, baseline, theirs && Number.isFinite(theirs.p95) ? ratioText(ours.p95 / theirs.p95) : '—', primary ? 'p95 ≤ 50 ms' : '—', primary ? (ours.p95 <= 50 ? 'met' : '**missed**') : '']);
		if (results[inProcess]) table.push([label, `${name}, in-process`, summary(inProcess, latencies, timeouts).text, '', '', '', '']);
	}

	// Issue 24: a key's effect in a client within today's p95; focus stays in the client, a cancel goes through the host.
	const focus = summary('hermes-delegate', 'latencies', 'timeouts');
	table.push([label, 'focus, host vs in-process', `p95 ${fixed(focus.p95, 0)} ms`, todayText, '—', `≤ ${fixed(todayP95, 0)} ms`, focus.p95 <= todayP95 ? 'met' : '**missed**']);
	const cancelOurs = summary('hermes-delegate', 'cancelLatencies', 'cancelTimeouts');
	const cancelBefore = results[inProcess] && summary(inProcess, 'cancelLatencies', 'cancelTimeouts');
	table.push([label, 'c, y → pane cancelling (through the host)', cancelOurs.text, cancelBefore ? `in-process: ${cancelBefore.text}` : todayText, cancelBefore && Number.isFinite(cancelBefore.p95) ? ratioText(cancelOurs.p95 / cancelBefore.p95) : '—', `p95 ≤ ${fixed(todayP95, 0)} ms`, cancelOurs.p95 <= todayP95 ? 'met' : '**missed**']);
	notes.push('keys: latency is key sent → the screen shows its effect. Focus (Tab in hermes-delegate, j in mprocs) with two instruments alternating press by press: a tmux control-mode client kept open (send-keys and capture-pane as commands; ~0.5 ms a capture), and a tmux process spawned for each send-keys and each capture (5–11 ms apiece on a loaded machine, included in its figure). Cancel: an idle task focused, c, its question shown, then y → the header counts one task fewer running (control-mode client; with the runner host the cancel and its task.cancelling event cross the socket).');
});

await workload('cancel', async () => {
	const grace = size.cancelGrace;
	const limit = grace * 1000 + 100;
	for (const kind of ['term', 'termignore']) {
		const times = (await alternate(['hermes-delegate'], () => cancel(paths, kind, grace)))['hermes-delegate'];
		table.load = loadText(times.map(time => time.load));
		const ms = times.map(time => time.ms);
		const label = kind === 'term' ? 'exits on SIGTERM' : 'ignores SIGTERM';
		table.absolute(`5 cancel, agent ${label}`, `c, y → group gone (grace ${grace} s)`, `${fixed(median(ms), 0)} ms (max ${fixed(Math.max(...ms), 0)})`, `≤ ${limit} ms`, median(ms) <= limit);
	}
});

/** The headless rows: wall against each peer, and the CPU of the tool with its agents. */
function headlessRows(label, results, peers) {
	table.load = loadsOf(results);
	const ours = key => figureOf(results, 'hermes-delegate', key, 2, 's');
	for (const peer of peers) {
		const name = peer.tool === 'xargs' ? `xargs -P ${peer.jobs}` : `parallel -j ${peer.jobs}`;
		const found = baselines[peer.tool].path;
		table.compared(label, 'wall', ours('wall'), found ? name : `${peer.tool} ${baselines[peer.tool].skipped}`, found ? figureOf(results, peer.tool, 'wall', 2, 's') : undefined, peer.target);
		if (found) table.compared(label, 'CPU, tool + agents', ours('cpu'), name, figureOf(results, peer.tool, 'cpu', 2, 's'));
	}
}

await workload('headless-quick', async () => {
	const {tasks} = size.quick;
	const peers = ['xargs', 'parallel'].filter(peer => baselines[peer].path);
	const results = await alternate(['hermes-delegate', ...peers], tool => headless(tool, paths, 'trivial', tasks, 8));
	// Issue 9 set xargs' 1.5×; issue 24 asks for GNU parallel's 1×.
	headlessRows(`6 headless ${tasks} trivial, -j 8`, results, [{tool: 'xargs', jobs: 8, target: 1.5}, {tool: 'parallel', jobs: 8, target: 1}]);
});

await workload('headless-flood', async () => {
	const {tasks, lines} = size.headlessFlood;
	const peers = ['parallel', 'xargs'].filter(peer => baselines[peer].path);
	const results = await alternate(['hermes-delegate', ...peers], tool => headless(tool, paths, 'flood', tasks, tasks, {BENCH_FLOOD_LINES: String(lines)}));
	headlessRows(`7 headless flood ${tasks}×${lines}, -j ${tasks}`, results, [{tool: 'parallel', jobs: tasks, target: 1}, {tool: 'xargs', jobs: tasks}]);
});

await workload('memory', async () => {
	const {few, many, settleMs, samples} = size.memory;
	const perTask = {};
	const loads = [];
	for (const tool of dashboardTools) {
		const results = await alternate([`${tool}:${few}`, `${tool}:${many}`], key => idleMemory(tool, dashboardPaths, Number(key.split(':')[1]), settleMs, samples));
		const middle = key => {
			const value = median(results[key].map(result => result.rss));
			return results[key].find(result => result.rss === value);
		};

		const [atFew, atMany] = [middle(`${tool}:${few}`), middle(`${tool}:${many}`)];
		loads.push(...Object.values(results).flat().map(result => result.load));
		perTask[tool] = (atMany.rss - atFew.rss) / (many - few);
		const parts = result => (result.parts.length === 2 ? ` (dashboard ${fixed(result.parts[0], 0)} + host ${fixed(result.parts[1], 0)})` : '');
		notes.push(`memory, ${tool}: RSS ${fixed(atFew.rss, 0)} MiB${parts(atFew)} with ${few} idle tasks, ${fixed(atMany.rss, 0)} MiB${parts(atMany)} with ${many}.`);
	}

	table.load = loadText(loads);
	const label = `8 memory ${few} vs ${many} idle tasks`;
	const ours = perTask['hermes-delegate'];
	const theirs = perTask.mprocs;
	table.push([label, 'RSS per added task', `${fixed(ours, 3)} MiB`, theirs === undefined ? mprocsName : `mprocs: ${fixed(theirs, 3)} MiB`, theirs === undefined ? '—' : ratioText(ours / theirs), '≤ 0.5 MiB', ours <= 0.5 ? 'met' : '**missed**']);
	if (perTask[inProcess] !== undefined) table.push([label, 'RSS per added task, in-process', `${fixed(perTask[inProcess], 3)} MiB`, '', '', '', '']);
});

await workload('attach', async () => {
	const {tasks, lines} = size.attach;
	const result = await attachSnapshot(paths, size.attach);
	const ms = result.snapshots.map(snapshot => snapshot.ms);
	const frames = result.firstFrames.map(frame => frame.ms);
	table.load = loadText([...result.snapshots, ...result.firstFrames].map(sample => sample.load));
	const label = `9 attach to ${tasks} tasks`;
	const {bytes} = result.snapshots[0];
	table.absolute(label, 'connect → whole snapshot', `median ${fixed(median(ms), 0)} / max ${fixed(Math.max(...ms), 0)} ms (${ms.length} clients, ${fixed(bytes / 1024, 0)} KiB)`, '≤ 200 ms', Math.max(...ms) <= 200);
	table.push([label, '`attach` started → first frame', `median ${fixed(median(frames), 0)} / max ${fixed(Math.max(...frames), 0)} ms (${frames.length})`, `(a bare \`--version\`: median ${fixed(median(result.bareStarts), 0)} ms)`, '—', '—', '']);
	const hello = median(result.snapshots.map(snapshot => snapshot.helloMs));
	notes.push(`attach: ${tasks} detached tasks that each said ${lines} lines and run on quietly; a client connects to host.sock, says hello and reads the snapshot (every pane's last 40 lines) whole and parses it (the host's hello, sent once its peer check has passed, came after a median ${fixed(hello, 0)} ms; each client's whole snapshot in order: ${ms.map(value => fixed(value, 0)).join(', ')} ms); then \`attach RUN\` in a pane, from its start to the first frame that counts all ${tasks} running. The host's RSS then: ${fixed(result.hostRss, 0)} MiB.`);
});

await workload('idle-host', async () => {
	const result = await idleHost(paths, size.idleHost);
	table.load = loadText(result.loads);
	table.absolute(`10 detached host, ${size.idleHost.tasks} quiet tasks`, `CPU over ${fixed(result.seconds, 0)} s, from ${result.warmupSeconds} s after start-up`, `${fixed(result.share * 100, 2)} % of a core (${fixed(result.cpu, 2)} CPU-s; RSS ${fixed(result.rss, 0)} MiB)`, '≤ 0.5 %', result.share <= 0.005);
});

console.log(`\nhermes-delegate against its peers — ${tiny ? 'TINY sizes (proves the suite works; the figures mean nothing)' : `medians of ${runs} alternating runs`}, ${new Date().toISOString().slice(0, 16)}Z`);
for (const line of details) {
	console.log(`  ${line}`);
}

console.log(`  dashboards in a ${'200×50'} tmux pane; CPU and peak RSS (VmHWM) from /proc of every process of the tool (hermes-delegate: the dashboard and its runner host, added up, the parts in brackets; the in-process build and mprocs: one process); wall = start → every agent finished (each touches a file); load = the 1-minute load average while the figure was taken\n`);
console.log(markdownTable(Table.header, table.rows));
if (notes.length > 0) {
	console.log(`\n${notes.map(note => `- ${note}`).join('\n')}`);
}

console.log(`\n(${fixed((performance.now() - started) / 1000, 0)} s in all)`);
process.exitCode = failures > 0 ? 1 : 0;
