// The comparative benchmark suite (issue 9): every workload runs for hermes-delegate and its
// baseline in the same invocation, alternating, and one table of medians and ratios against
// the targets is printed with the machine's details. Numbers, not tests: a missed target is
// reported, not failed; the exit code is 1 only when a workload could not be measured.
//
// `npm run bench` (≈ 12 min with BENCH_SOAK_S=120), `npm run bench -- --tiny` (a few seconds).
// Environment: BENCH_RUNS (3), BENCH_SCALE (1: sizes of the issue; 0.1 for a quick look),
// BENCH_SOAK_S (600), BENCH_ONLY=flood,keys (a subset), BENCH_TINY=1 (= --tiny),
// BENCH_MPROCS_VERSION (0.9.6), BENCH_CLI (dist/cli.js of this checkout).
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {findBaselines, machineDetails} from './lib/baselines.mjs';
import {stopEverything} from './lib/dashboard.mjs';
import {markdownTable, median, percentile} from './lib/stats.mjs';
import {cancel, headless, idleMemory, keysUnderLoad, sizes, soak, watchBatch} from './lib/workloads.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const workloadNames = ['flood', 'trickle', 'soak', 'keys', 'cancel', 'headless-quick', 'headless-flood', 'memory'];

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

const size = sizes({tiny, scale: setting('BENCH_SCALE', 1), soakSeconds: setting('BENCH_SOAK_S', undefined)});
const paths = {cli: env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};

const rows = [];
const notes = [];
let failures = 0;

const fixed = (value, digits = 2) => value.toFixed(digits);
const ratioText = ratio => `${fixed(ratio)}×`;

/** One figure compared with a baseline: `target` is the highest ratio that meets it. */
function compared(workload, figure, ours, baselineName, theirs, target, unit) {
	if (theirs === undefined) {
		rows.push([workload, figure, `${ours.text} ${unit}`, baselineName, '—', target ? `≤ ${target}×` : '—', 'no baseline']);
		return;
	}

	const ratio = ours.value / theirs.value;
	rows.push([workload, figure, `${ours.text} ${unit}`, `${baselineName}: ${theirs.text} ${unit}`, ratioText(ratio), target === undefined ? '—' : `≤ ${target}×`, target === undefined ? '' : ratio <= target ? 'met' : '**missed**']);
}

/** One figure against an absolute target (no baseline named for it in the issue). */
function absolute(workload, figure, text, limitText, met) {
	rows.push([workload, figure, text, '(none: absolute target)', '—', limitText, met ? 'met' : '**missed**']);
}

const figure = (values, digits) => {
	const value = median(values);
	return {value, text: fixed(value, digits)};
};

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

async function workload(name, body) {
	if (only && !only.has(name)) {
		return;
	}

	const started = performance.now();
	process.stderr.write(`… ${name}`);
	try {
		await body();
		process.stderr.write(` (${fixed((performance.now() - started) / 1000, 0)} s)\n`);
	} catch (error) {
		failures++;
		process.stderr.write(` failed\n`);
		rows.push([name, 'failed', error.message.split('\n')[0], '', '', '', '**failed**']);
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

const baselines = findBaselines(path.join(here, '.cache'));
const {version} = JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
const details = machineDetails(baselines, version);
const mprocs = baselines.mprocs.path;
const dashboardTools = mprocs ? ['hermes-delegate', 'mprocs'] : ['hermes-delegate'];
const mprocsName = mprocs ? 'mprocs' : `mprocs ${baselines.mprocs.skipped}`;
const mprocsPaths = {...paths, mprocs};
const started = performance.now();

await workload('flood', async () => {
	const {tasks, lines} = size.flood;
	const results = await alternate(dashboardTools, tool => watchBatch(tool, mprocsPaths, 'flood', tasks, {BENCH_FLOOD_LINES: String(lines)}));
	const label = `1 flood ${tasks}×${lines} lines`;
	const of = (tool, key, digits) => results[tool] && figure(results[tool].map(result => result[key]), digits);
	compared(label, 'wall', of('hermes-delegate', 'wall', 2), mprocsName, of('mprocs', 'wall', 2), 0.1, 's');
	compared(label, 'CPU', of('hermes-delegate', 'cpu', 2), mprocsName, of('mprocs', 'cpu', 2), 0.1, 's');
	compared(label, 'peak RSS', of('hermes-delegate', 'rss', 0), mprocsName, of('mprocs', 'rss', 0), 1, 'MiB');
});

await workload('trickle', async () => {
	const {tasks, seconds} = size.trickle;
	const results = await alternate(dashboardTools, tool => watchBatch(tool, mprocsPaths, 'trickle', tasks, {BENCH_TRICKLE_S: String(seconds)}));
	const label = `2 trickle ${tasks}×20/s×${seconds}s`;
	const of = (tool, key, digits) => results[tool] && figure(results[tool].map(result => result[key]), digits);
	compared(label, 'CPU', of('hermes-delegate', 'cpu', 2), mprocsName, of('mprocs', 'cpu', 2), 0.5, 's');
	compared(label, 'peak RSS', of('hermes-delegate', 'rss', 0), mprocsName, of('mprocs', 'rss', 0), 1, 'MiB');
});

await workload('soak', async () => {
	const result = await soak(paths, size.soak);
	const label = `3 soak ${size.soak.tasks}×20/s×${size.soak.seconds}s`;
	absolute(label, `RSS growth after ${result.from} s`, `${fixed(result.growth * 100, 1)} % (${fixed(result.startLevel, 0)} → ${fixed(result.endLevel, 0)} MiB)`, '≤ 10 %', result.growth <= 0.1);
	notes.push(`soak (1 run): RSS MiB every ${size.soak.every} s: ${result.samples.map(sample => fixed(sample.rss, 0)).join(' ')}; ${fixed(result.cpuShare * 100, 0)}% of a core on average; peak ${fixed(result.peak, 0)} MiB.`);
	notes.push(`soak: growth compares the median RSS of the ${result.window} s from ${result.from} s with that of the last ${result.window} s (RSS is a sawtooth); the single samples at ${result.from} s and at the end give ${fixed(result.pointGrowth * 100, 1)} %.`);
});

await workload('keys', async () => {
	const results = await alternate(dashboardTools, tool => keysUnderLoad(tool, mprocsPaths, size.keys));
	const summary = (tool, instrument) => {
		const latencies = results[tool].flatMap(result => result[instrument]);
		const timeouts = results[tool].reduce((sum, result) => sum + result[instrument === 'latencies' ? 'timeouts' : 'spawnedTimeouts'], 0);
		if (latencies.length === 0) {
			return {p95: Infinity, text: `no press shown within ${size.keys.timeoutMs / 1000} s (${timeouts} tried)`};
		}

		const [p50, p95, max] = [percentile(latencies, 50), percentile(latencies, 95), Math.max(...latencies)];
		return {p95, text: `p50 ${fixed(p50, 0)} / p95 ${fixed(p95, 0)} / max ${fixed(max, 0)} ms (${latencies.length} presses${timeouts ? `, ${timeouts} not shown within ${size.keys.timeoutMs / 1000} s` : ''})`};
	};

	for (const [instrument, label] of [['latencies', 'focus key → frame'], ['spawnedLatencies', 'the same, a tmux process per command']]) {
		const ours = summary('hermes-delegate', instrument);
		const theirs = results.mprocs && summary('mprocs', instrument);
		const baseline = theirs ? `mprocs (j): ${theirs.text}` : mprocsName;
		const primary = instrument === 'latencies';
		rows.push([`4 keys during a flood of ${size.keys.tasks}`, label, ours.text, baseline, theirs && Number.isFinite(theirs.p95) ? ratioText(ours.p95 / theirs.p95) : '—', primary ? 'p95 ≤ 50 ms' : '—', primary ? (ours.p95 <= 50 ? 'met' : '**missed**') : '']);
	}

	notes.push('keys: latency is key sent → the screen shows the focus moved (Tab in hermes-delegate, j in mprocs), the two instruments alternating press by press: a tmux control-mode client kept open (send-keys and capture-pane as commands; ~0.5 ms a capture), and a tmux process spawned for each send-keys and each capture (5–11 ms apiece on a loaded machine, included in its figure).');
});

await workload('cancel', async () => {
	const grace = size.cancelGrace;
	const limit = grace * 1000 + 100;
	for (const kind of ['term', 'termignore']) {
		const times = (await alternate(['hermes-delegate'], () => cancel(paths, kind, grace)))['hermes-delegate'];
		const label = kind === 'term' ? 'exits on SIGTERM' : 'ignores SIGTERM';
		absolute(`5 cancel, agent ${label}`, `c, y → group gone (grace ${grace} s)`, `${fixed(median(times), 0)} ms (max ${fixed(Math.max(...times), 0)})`, `≤ ${limit} ms`, median(times) <= limit);
	}
});

await workload('headless-quick', async () => {
	const {tasks} = size.quick;
	const peers = ['xargs', 'parallel'].filter(peer => baselines[peer].path);
	const results = await alternate(['hermes-delegate', ...peers], tool => headless(tool, paths, 'trivial', tasks, 8));
	const label = `6 headless ${tasks} trivial, -j 8`;
	const ours = figure(results['hermes-delegate'], 2);
	compared(label, 'wall', ours, baselines.xargs.path ? 'xargs -P 8' : `xargs ${baselines.xargs.skipped}`, results.xargs && figure(results.xargs, 2), 1.5, 's');
	compared(label, 'wall', ours, baselines.parallel.path ? 'parallel -j 8' : `parallel ${baselines.parallel.skipped}`, results.parallel && figure(results.parallel, 2), undefined, 's');
});

await workload('headless-flood', async () => {
	const {tasks, lines} = size.headlessFlood;
	const peers = ['parallel', 'xargs'].filter(peer => baselines[peer].path);
	const results = await alternate(['hermes-delegate', ...peers], tool => headless(tool, paths, 'flood', tasks, tasks, {BENCH_FLOOD_LINES: String(lines)}));
	const label = `7 headless flood ${tasks}×${lines}, -j ${tasks}`;
	const ours = figure(results['hermes-delegate'], 2);
	compared(label, 'wall', ours, baselines.parallel.path ? `parallel -j ${tasks}` : `parallel ${baselines.parallel.skipped}`, results.parallel && figure(results.parallel, 2), 1, 's');
	compared(label, 'wall', ours, `xargs -P ${tasks}`, results.xargs && figure(results.xargs, 2), undefined, 's');
});

await workload('memory', async () => {
	const {few, many, settleMs} = size.memory;
	const perTask = {};
	for (const tool of dashboardTools) {
		const results = await alternate([`${tool}:${few}`, `${tool}:${many}`], key => idleMemory(tool, mprocsPaths, Number(key.split(':')[1]), settleMs));
		const [rssFew, rssMany] = [median(results[`${tool}:${few}`]), median(results[`${tool}:${many}`])];
		perTask[tool] = (rssMany - rssFew) / (many - few);
		notes.push(`memory, ${tool}: RSS ${fixed(rssFew, 0)} MiB with ${few} idle tasks, ${fixed(rssMany, 0)} MiB with ${many}.`);
	}

	const ours = perTask['hermes-delegate'];
	const theirs = perTask.mprocs;
	rows.push([`8 memory ${few} vs ${many} idle tasks`, 'RSS per added task', `${fixed(ours, 3)} MiB`, theirs === undefined ? mprocsName : `mprocs: ${fixed(theirs, 3)} MiB`, theirs === undefined ? '—' : ratioText(ours / theirs), '≤ 0.5 MiB', ours <= 0.5 ? 'met' : '**missed**']);
});

console.log(`\nhermes-delegate against its peers — ${tiny ? 'TINY sizes (proves the suite works; the figures mean nothing)' : `medians of ${runs} alternating runs`}, ${new Date().toISOString().slice(0, 16)}Z`);
for (const line of details) {
	console.log(`  ${line}`);
}

console.log(`  dashboards in a ${'200×50'} tmux pane; CPU and peak RSS (VmHWM) of the dashboard process alone, from /proc; wall = start → every agent finished (each touches a file)\n`);
console.log(markdownTable(['workload', 'figure', 'hermes-delegate', 'baseline', 'ratio', 'target', 'result'], rows));
if (notes.length > 0) {
	console.log(`\n${notes.map(note => `- ${note}`).join('\n')}`);
}

console.log(`\n(${fixed((performance.now() - started) / 1000, 0)} s in all)`);
process.exitCode = failures > 0 ? 1 : 0;
