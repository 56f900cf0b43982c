// The comparative benchmark suite: every workload runs for hermes-delegate and its peers in the
// same invocation, alternating run by run, and two tables are printed with the machine's details
// and the load average beside each figure: issue 39's Cost table (lib/targets.mjs), every row
// with its target, and the figures beside it (issue 9's targets that still stand, and figures
// for context). Each figure is a median of its runs; a figure whose runs fall on both sides of
// its target is "within the spread", never met (lib/report.mjs). Numbers, not tests: a missed
// target is reported, not failed; the exit code is 1 only when a workload could not be measured.
//
// hermes-delegate's dashboard figures count every process of it: the dashboard (a client) and the
// runner host its batch runs in. The dashboards are compared with mprocs, `run` with GNU parallel
// (and xargs -P).
//
// `npm run bench` (35–45 min; less with BENCH_SOAK_S=120), `npm run bench -- --tiny` (30–60 s).
// Environment: BENCH_RUNS (5), BENCH_SCALE (1: sizes of the issue; 0.1 for a quick look),
// BENCH_SOAK_S (600), BENCH_IDLE_S (60), BENCH_ONLY=flood,keys (a subset), BENCH_TINY=1
// (= --tiny), BENCH_MPROCS_VERSION (0.9.6), BENCH_CLI (dist/cli.js of this checkout).
// BENCH_IN_PROCESS is ignored (the in-process build it named is retired).
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {findBaselines, machineDetails} from './lib/baselines.mjs';
import {stopEverything} from './lib/dashboard.mjs';
import {attachSnapshot, idleHost} from './lib/host-workloads.mjs';
import {figureOf, fixed, latencySummary, loadText, Table, withPss} from './lib/report.mjs';
import {loadNow} from './lib/procs.mjs';
import {markdownTable, median} from './lib/stats.mjs';
import {costRows, rowsOfWorkload} from './lib/targets.mjs';
import {terminalBytes} from './lib/terminal-bytes.mjs';
import {sizes} from './lib/sizes.mjs';
import {cancel, headless, idleMemory, keysUnderLoad, soak, watchBatch} from './lib/workloads.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const workloadNames = ['flood', 'trickle', 'slow-trickle', 'soak', 'keys', 'cancel', 'bytes', 'headless-quick', 'headless-flood', 'memory', 'attach', 'idle-host'];

function refuse(message) {
	console.error(`bench: ${message}`);
	process.exit(2);
}

/** A positive number from the environment, or the default; anything else stops the suite. */
function setting(name, fallback, integer = false) {
	const text = env[name];
	if (text === undefined || text === '') return fallback;
	const value = Number(text);
	if (!(value > 0) || (integer && !Number.isInteger(value))) {
		refuse(`${name}=${JSON.stringify(text)} is not a positive ${integer ? 'whole number' : 'number'}; unset it for ${fallback ?? 'the default'}`);
	}

	return value;
}

const tiny = process.argv.includes('--tiny') || env.BENCH_TINY === '1';
const runs = tiny ? 1 : setting('BENCH_RUNS', 5, true);
const only = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : undefined;
const unknown = [...(only ?? [])].filter(name => !workloadNames.includes(name));
if (unknown.length > 0) {
	refuse(`BENCH_ONLY names no workload ${unknown.join(', ')}; the workloads: ${workloadNames.join(',')}`);
}

const size = sizes({tiny, scale: setting('BENCH_SCALE', 1), soakSeconds: setting('BENCH_SOAK_S', undefined), idleSeconds: setting('BENCH_IDLE_S', undefined)});
const paths = {cli: env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};
const rows = costRows(size);
const cost = new Table();
const other = new Table();
for (const row of Object.values(rows)) cost.expect(row.id, row.figure, row.targetText);
const notes = [];
let failures = 0;
/** The 1-minute load average at the start and around every workload: a busy machine is said in the header. */
const loadsSeen = [loadNow()];

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
const setLoad = text => {
	cost.load = text;
	other.load = text;
};

async function workload(name, body) {
	if (only && !only.has(name)) return;
	const started = performance.now();
	process.stderr.write(`… ${name}`);
	setLoad('');
	loadsSeen.push(loadNow());
	try {
		await body();
		loadsSeen.push(loadNow());
		process.stderr.write(` (${fixed((performance.now() - started) / 1000, 0)} s)\n`);
	} catch (error) {
		failures++;
		process.stderr.write(` failed\n`);
		const message = error.message.split('\n')[0];
		cost.fail((rowsOfWorkload[name] ?? []).map(key => rows[key].id), message);
		if (!rowsOfWorkload[name]) other.push([name, 'failed', '', message, '', '', '', '**failed**']);
	}
}

if (!existsSync(paths.cli)) refuse(`no ${paths.cli}: build first (npm run build)`);
if (process.platform !== 'linux') refuse('the suite reads /proc: it runs on Linux only');
for (const [command, install] of [['tmux', 'apt-get install tmux'], ['python3', 'apt-get install python3']]) {
	if (spawnSync(command, ['-V'], {stdio: 'ignore'}).error) refuse(`${command} is needed and not installed (${install})`);
}

if (env.BENCH_IN_PROCESS === '1') process.stderr.write('bench: BENCH_IN_PROCESS is retired (no in-process build is measured any more); ignored\n');

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		stopEverything();
		process.exit(130);
	});
}

process.on('exit', stopEverything);

const baselines = findBaselines(path.join(here, '.cache'));
const {version} = JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
const details = machineDetails(baselines, version);
const mprocs = baselines.mprocs.path;
const dashboardTools = ['hermes-delegate', ...(mprocs ? ['mprocs'] : [])];
const mprocsName = mprocs ? 'mprocs' : `mprocs ${baselines.mprocs.skipped}`;
const dashboardPaths = {...paths, mprocs};
const started = performance.now();

/** The Cost rows of a watched batch: CPU against mprocs, and peak RSS against it (or a budget), peak Pss beside it. */
function dashboardRows(results, cpuRow, rssRow) {
	const figure = (tool, key, digits, unit) => figureOf(results, tool, key, digits, unit, tool === 'hermes-delegate' ? `${key}Parts` : undefined);
	setLoad(loadsOf(results));
	cost.compared(cpuRow, figure('hermes-delegate', 'cpu', 2, 's'), mprocsName, figure('mprocs', 'cpu', 2, 's'));
	const rss = withPss(figure('hermes-delegate', 'rss', 0, 'MiB'), figure('hermes-delegate', 'pss', 0, 'MiB'));
	const theirs = withPss(figure('mprocs', 'rss', 0, 'MiB'), figure('mprocs', 'pss', 0, 'MiB'));
	if (rssRow.peer) cost.compared(rssRow, rss, mprocsName, theirs);
	else cost.absolute(rssRow, {...rss, peer: theirs ? `mprocs: ${theirs.text}` : mprocsName, digits: 0});
	return figure;
}

await workload('flood', async () => {
	const {tasks, lines} = size.flood;
	const results = await alternate(dashboardTools, tool => watchBatch(tool, dashboardPaths, 'flood', tasks, {BENCH_FLOOD_LINES: String(lines)}));
	const figure = dashboardRows(results, rows.floodCpu, rows.floodRss);
	other.compared({id: 'flood', figure: `flood ${tasks}×${lines} lines: wall, start → every agent finished`}, figure('hermes-delegate', 'wall', 2, 's'), mprocsName, figure('mprocs', 'wall', 2, 's'));
});

await workload('trickle', async () => {
	const {tasks, seconds} = size.trickle;
	dashboardRows(await alternate(dashboardTools, tool => watchBatch(tool, dashboardPaths, 'trickle', tasks, {BENCH_TRICKLE_S: String(seconds)})), rows.trickleCpu, rows.trickleRss);
});

await workload('slow-trickle', async () => {
	// A long batch's usual state: output seldom, so what the dashboard costs is what it costs while nothing changes.
	const {tasks, seconds, rate} = size.slowTrickle;
	dashboardRows(await alternate(dashboardTools, tool => watchBatch(tool, dashboardPaths, 'trickle', tasks, {BENCH_TRICKLE_S: String(seconds), BENCH_TRICKLE_RATE: String(rate)})), rows.slowCpu, rows.slowRss);
});

await workload('soak', async () => {
	const result = await soak(paths, size.soak);
	setLoad(loadText(result.samples.map(sample => sample.load)));
	cost.absolute(rows.soak, {value: result.growth * 100, runs: result.endGrowths.map(growth => growth * 100), text: `${fixed(result.growth * 100, 1)} % (${fixed(result.startLevel, 0)} → ${fixed(result.endLevel, 0)} MiB; 1 run: spread = each sample of the last ${result.window} s)`, digits: 1});
	const last = result.samples.at(-1);
	notes.push(`soak (1 run): RSS MiB (dashboard + runner host) every ${size.soak.every} s: ${result.samples.map(sample => fixed(sample.rss, 0)).join(' ')}; at the end ${fixed(last.parts[0], 0)} + ${fixed(last.parts[1], 0)} MiB; ${fixed(result.cpuShare * 100, 0)}% of a core on average (dashboard ${fixed(result.cpuShares[0] * 100, 0)} %, host ${fixed(result.cpuShares[1] * 100, 0)} %); peak ${fixed(result.peak, 0)} MiB (the two peaks added).`);
	notes.push(`soak: growth compares the median RSS of the ${result.window} s from ${result.from} s with that of the last ${result.window} s (RSS is a sawtooth); the single samples at ${result.from} s and at the end give ${fixed(result.pointGrowth * 100, 1)} %.`);
});

await workload('keys', async () => {
	const results = await alternate(dashboardTools, tool => keysUnderLoad(tool, dashboardPaths, size.keys));
	setLoad(loadsOf(results));
	const {timeoutMs} = size.keys;
	const summary = (tool, latencies, timeouts) => latencySummary(results[tool].map(result => result[latencies]), results[tool].reduce((sum, result) => sum + result[timeouts], 0), timeoutMs);
	const judged = ({p95, runP95s, text}, peer) => ({value: p95, runs: runP95s, text, peer, digits: 0});
	const theirs = results.mprocs && summary('mprocs', 'latencies', 'timeouts');
	cost.absolute(rows.focus, judged(summary('hermes-delegate', 'latencies', 'timeouts'), theirs ? `mprocs (j): ${theirs.text}` : mprocsName));
	cost.absolute(rows.cancel, judged(summary('hermes-delegate', 'cancelLatencies', 'cancelTimeouts'), '(none: mprocs is not asked to cancel)'));
	other.absolute({id: 'keys', figure: "c, y → the task's row says cancelled (the runner host's answer)"}, judged(summary('hermes-delegate', 'finishLatencies', 'cancelTimeouts'), '—'));
	const spawnedTheirs = results.mprocs && summary('mprocs', 'spawnedLatencies', 'spawnedTimeouts');
	other.absolute({id: 'keys', figure: 'focus key → frame, a tmux process per command'}, judged(summary('hermes-delegate', 'spawnedLatencies', 'spawnedTimeouts'), spawnedTheirs ? `mprocs (j): ${spawnedTheirs.text}` : mprocsName));
	notes.push('keys: latency is key sent → the screen shows its effect. Focus (Tab in hermes-delegate, j in mprocs) with two instruments alternating press by press: a tmux control-mode client kept open (send-keys and capture-pane as commands; ~0.5 ms a capture; the figure judged), and a tmux process spawned for each send-keys and each capture (5–11 ms apiece on a loaded machine, included in its figure). Cancel: an idle task focused, c, its question shown, then y → the header counts one task fewer running (the dashboard shows the cancel as soon as y is pressed; the host\'s answer, the row saying cancelled once the task\'s group is gone, is the figure in the second table). p95 over every press of every run; the spread is each run\'s own p95.');
});

await workload('cancel', async () => {
	const grace = size.cancelGrace;
	const limit = grace * 1000 + 100;
	for (const kind of ['term', 'termignore']) {
		const times = (await alternate(['hermes-delegate'], () => cancel(paths, kind, grace)))['hermes-delegate'];
		setLoad(loadText(times.map(time => time.load)));
		const ms = times.map(time => time.ms);
		const label = kind === 'term' ? 'exits on SIGTERM' : 'ignores SIGTERM';
		other.absolute({id: 'cancel', figure: `cancel, agent ${label}: c, y → group gone (grace ${grace} s)`, target: limit, targetText: `≤ ${limit} ms (issue 9)`}, {value: median(ms), runs: ms, text: `${fixed(median(ms), 0)} ms`, digits: 0});
	}
});

await workload('bytes', async () => {
	const results = await alternate(dashboardTools, tool => terminalBytes(tool, dashboardPaths, size.bytes));
	setLoad(loadsOf(results));
	const kb = tool => results[tool]?.map(result => result.bytesPerSecond / 1000);
	// Frames are counted by the synchronized updates Ink opens; mprocs draws without them.
	const frames = `${fixed(median(results['hermes-delegate'].map(result => result.framesPerSecond)), 1)} frames/s, ${fixed(median(results['hermes-delegate'].map(result => result.bytesPerFrame)), 0)} B/frame`;
	const peer = results.mprocs ? `mprocs: ${fixed(median(kb('mprocs')), 1)} KB/s` : mprocsName;
	cost.absolute(rows.bytes, {value: median(kb('hermes-delegate')), runs: kb('hermes-delegate'), text: `${fixed(median(kb('hermes-delegate')), 1)} KB/s (${frames})`, peer, digits: 1});
	notes.push(`bytes: everything the pane received over ${size.bytes.seconds} s (tmux pipe-pane), from ${(size.bytes.warmupMs ?? 3000) / 1000} s after every agent had started; no stale line after a layout change is a test in tmux, not a figure.`);
});

/** The `run` rows: CPU of the whole process tree against GNU parallel (the Cost row), wall and xargs beside it. */
function headlessRows(id, label, results, jobs, costRow) {
	setLoad(loadsOf(results));
	const ours = key => figureOf(results, 'hermes-delegate', key, 2, 's');
	const peerOf = (tool, name) => (baselines[tool].path ? name : `${tool} ${baselines[tool].skipped}`);
	const theirs = (tool, key) => (baselines[tool].path ? figureOf(results, tool, key, 2, 's') : undefined);
	const parallel = peerOf('parallel', `parallel -j ${jobs}`);
	const xargs = peerOf('xargs', `xargs -P ${jobs}`);
	cost.compared(costRow, ours('cpu'), parallel, theirs('parallel', 'cpu'));
	other.compared({id, figure: `${label}: wall`, ...(jobs === 8 ? {target: 1.5, targetText: '≤ 1.5× xargs (issue 9)'} : {})}, ours('wall'), xargs, theirs('xargs', 'wall'));
	other.compared({id, figure: `${label}: wall`}, ours('wall'), parallel, theirs('parallel', 'wall'));
	other.compared({id, figure: `${label}: CPU, tool + agents`}, ours('cpu'), xargs, theirs('xargs', 'cpu'));
}

await workload('headless-quick', async () => {
	const {tasks} = size.quick;
	const peers = ['parallel', 'xargs'].filter(peer => baselines[peer].path);
	const results = await alternate(['hermes-delegate', ...peers], tool => headless(tool, paths, 'trivial', tasks, 8));
	headlessRows('headless-quick', `headless ${tasks} trivial, -j 8`, results, 8, rows.quickCpu);
});

await workload('headless-flood', async () => {
	const {tasks, lines} = size.headlessFlood;
	const peers = ['parallel', 'xargs'].filter(peer => baselines[peer].path);
	const results = await alternate(['hermes-delegate', ...peers], tool => headless(tool, paths, 'flood', tasks, tasks, {BENCH_FLOOD_LINES: String(lines)}));
	headlessRows('headless-flood', `headless flood ${tasks}×${lines}, -j ${tasks}`, results, tasks, rows.floodRunCpu);
});

await workload('memory', async () => {
	const {few, many, settleMs, samples} = size.memory;
	const perTask = {};
	const loads = [];
	for (const tool of dashboardTools) {
		const results = await alternate([`${tool}:${few}`, `${tool}:${many}`], key => idleMemory(tool, dashboardPaths, Number(key.split(':')[1]), settleMs, samples));
		loads.push(...Object.values(results).flat().map(result => result.load));
		// Each round's slope, and the slope of the rounds' medians.
		const rss = key => results[key].map(result => result.rss);
		perTask[tool] = {value: (median(rss(`${tool}:${many}`)) - median(rss(`${tool}:${few}`))) / (many - few), runs: rss(`${tool}:${many}`).map((value, i) => (value - rss(`${tool}:${few}`)[i]) / (many - few))};
		const middle = key => results[key].find(result => result.rss === median(rss(key)));
		const parts = result => (result.parts.length === 2 ? ` (dashboard ${fixed(result.parts[0], 0)} + host ${fixed(result.parts[1], 0)})` : '');
		notes.push(`memory, ${tool}: RSS ${fixed(middle(`${tool}:${few}`).rss, 0)} MiB${parts(middle(`${tool}:${few}`))} with ${few} idle tasks, ${fixed(middle(`${tool}:${many}`).rss, 0)} MiB${parts(middle(`${tool}:${many}`))} with ${many}.`);
	}

	setLoad(loadText(loads));
	const {value, runs: perRun} = perTask['hermes-delegate'];
	const theirs = perTask.mprocs;
	other.absolute({id: 'memory', figure: `memory ${few} vs ${many} idle tasks: RSS per added task`, target: 0.5, targetText: '≤ 0.5 MiB (issue 9)'}, {value, runs: perRun, text: `${fixed(value, 3)} MiB`, peer: theirs ? `mprocs: ${fixed(theirs.value, 3)} MiB` : mprocsName, digits: 3});
});

await workload('attach', async () => {
	const {tasks, lines} = size.attach;
	const result = await attachSnapshot(paths, size.attach);
	const ms = result.snapshots.map(snapshot => snapshot.ms);
	const frames = result.firstFrames.map(frame => frame.ms);
	setLoad(loadText([...result.snapshots, ...result.firstFrames].map(sample => sample.load)));
	cost.absolute(rows.attach, {value: median(ms), runs: ms, text: `median ${fixed(median(ms), 0)} ms (${ms.length} clients one after another, ${fixed(result.snapshots[0].bytes / 1024, 0)} KiB)`, digits: 0});
	other.absolute({id: 'attach', figure: `\`attach\` to ${tasks} tasks started → first frame`}, {value: median(frames), runs: frames, text: `median ${fixed(median(frames), 0)} ms (${frames.length})`, peer: `(a bare \`--version\`: median ${fixed(median(result.bareStarts), 0)} ms)`, digits: 0});
	const hello = median(result.snapshots.map(snapshot => snapshot.helloMs));
	notes.push(`attach: ${tasks} detached tasks that each said ${lines} lines and run on quietly; a client connects to host.sock, says hello and reads the snapshot (every pane's last 40 lines) whole and parses it (the host's hello, sent once its peer check has passed, came after a median ${fixed(hello, 0)} ms; each client's whole snapshot in order: ${ms.map(value => fixed(value, 0)).join(', ')} ms); then \`attach RUN\` in a pane, from its start to the first frame that counts all ${tasks} running. The host's RSS then: ${fixed(result.hostRss, 0)} MiB.`);
});

await workload('idle-host', async () => {
	const result = await idleHost(paths, size.idleHost);
	setLoad(loadText(result.loads));
	const windows = result.windows.map(share => share * 100);
	cost.absolute(rows.idle, {value: result.share * 100, runs: windows, text: `${fixed(result.share * 100, 2)} % (${fixed(result.cpu, 2)} CPU-s over ${fixed(result.seconds, 0)} s from ${result.warmupSeconds} s after start-up; RSS ${fixed(result.rss, 0)} MiB; spread = each ${size.idleHost.windowSeconds} s)`});
});

console.log(`\nhermes-delegate against its peers — ${tiny ? 'TINY sizes (proves the suite works; the figures mean nothing)' : `medians of ${runs} alternating runs`}, ${new Date().toISOString().slice(0, 16)}Z`);
for (const line of details) console.log(`  ${line}`);
const busiest = Math.max(...loadsSeen);
if (busiest > availableParallelism()) {
	console.log(`  THE MACHINE WAS BUSY: load average up to ${fixed(busiest)} on ${availableParallelism()} cores. A "met" below says only that these runs met the target; call a target met from a run on a machine doing nothing else`);
}

console.log(`  dashboards in a 200×50 tmux pane; CPU and peak RSS (VmHWM) from /proc of every process of the tool (hermes-delegate: the dashboard and its runner host, added up, the parts in brackets; mprocs: one process); beside peak RSS, each process's peak Pss (/proc/PID/smaps_rollup, sampled every 250 ms: pages the dashboard and its host share count once; pages shared with any other process, this suite's own node among them, are split with it too, so Pss is a lower bound of what the pair costs alone; the verdict is the RSS's); \`run\` CPU: the tool and every process it waited for (the shell's \`times\`); load = the 1-minute load average while the figure was taken`);
console.log('  runs (spread): the figure run by run (a ratio: each round\'s, both tools side by side); met = every run met the target, missed = none did, within the spread = the runs fall on both sides of it\n');
console.log("issue 39's Cost targets\n");
console.log(markdownTable(Table.header, cost.rows));
console.log('\nbeside them (issue 9\'s targets that stand, and figures for context)\n');
console.log(markdownTable(Table.header, other.rows));
if (notes.length > 0) console.log(`\n${notes.map(note => `- ${note}`).join('\n')}`);
console.log(`\n(${fixed((performance.now() - started) / 1000, 0)} s in all)`);
process.exitCode = failures > 0 ? 1 : 0;
