// Bytes the dashboard writes to its terminal (numbers, not a test): `hermes-delegate tui` over 32
// trickling agents in a 200×50 tmux pane (bench/lib/dashboard.mjs), everything the pane receives
// over a window counted through `tmux pipe-pane`. Prints bytes a second, frames a second (each of
// Ink's frames opens a synchronized update, ESC [ ? 2026 h), bytes a frame, and the dashboard
// process's CPU over the window (the host's is not counted: it draws nothing), per run.
//
// Settings (environment): BENCH_TASKS (32), BENCH_TRICKLE_RATE (20 lines a second per agent; 2
// for the slow trickle), BENCH_TRICKLE_VARIED=1 (each line unlike the one before, as a real
// agent's: the stand-in's lines differ only in a step number, which a writer of changed cells
// sends as a few digits), BENCH_SECONDS (10, the window), BENCH_RUNS (3), BENCH_CLI (dist/cli.js
// of this checkout), BENCH_CLI_BEFORE (another build's cli.js: measured alternating with
// BENCH_CLI, run by run, for a before/after on one machine). `node bench/terminal-bytes.mjs`
// after `npm run build`.
import {readFileSync, rmSync, statSync, existsSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {goals, startDashboard, stopEverything} from './lib/dashboard.mjs';
import {countFiles, cpuSecondsOf, sleep, waitFor} from './lib/procs.mjs';
import {median} from './lib/stats.mjs';

const env = process.env;
if (process.argv.includes('--help')) {
	process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport ')[0].replaceAll(/^\/\/ ?/gm, '') + '\n');
	process.exit(0);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const tasks = Number(env.BENCH_TASKS ?? 32);
const rate = Number(env.BENCH_TRICKLE_RATE ?? 20);
const seconds = Number(env.BENCH_SECONDS ?? 10);
const runs = Number(env.BENCH_RUNS ?? 3);
const builds = {after: env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js')};
if (env.BENCH_CLI_BEFORE) builds.before = env.BENCH_CLI_BEFORE;
for (const cli of Object.values(builds)) {
	if (!existsSync(cli)) {
		process.stderr.write(`bench: no ${cli}: build first (npm run build)\n`);
		process.exit(2);
	}
}

const frameMarker = Buffer.from('\u001B[?2026h');
const count = (buffer, marker) => {
	let n = 0;
	for (let at = buffer.indexOf(marker); at !== -1; at = buffer.indexOf(marker, at + 1)) n++;
	return n;
};

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		stopEverything();
		process.exit(130);
	});
}

async function measure(cli) {
	const paths = {cli, agent: path.join(here, 'agents', 'agent.sh')};
	const session = await startDashboard('hermes-delegate', paths, goals('trickle', tasks), {env: {BENCH_TRICKLE_RATE: String(rate), BENCH_TRICKLE_S: String(seconds + 30), BENCH_TRICKLE_VARIED: env.BENCH_TRICKLE_VARIED === '1' ? '1' : '0'}});
	const file = path.join(tmpdir(), `hd-bytes-${process.pid}-${Date.now()}`);
	try {
		await waitFor(`${tasks} agents to start`, () => session.assertRunning() && countFiles(path.join(session.state, 'pid')) >= tasks, 60_000);
		// The first frames (every pane filling) are not the steady state being measured.
		await sleep(3000);
		const [dashboard] = await session.processes();
		session.pipeOutput(file);
		const started = performance.now();
		const cpu0 = cpuSecondsOf([dashboard]);
		await sleep(seconds * 1000);
		session.pipeOutput(undefined);
		const elapsed = (performance.now() - started) / 1000;
		const cpu = (cpuSecondsOf([dashboard]) - cpu0) / elapsed;
		await sleep(200);
		const buffer = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
		const frames = count(buffer, frameMarker);
		return {bytesPerSecond: statSync(file, {throwIfNoEntry: false})?.size / elapsed || 0, framesPerSecond: frames / elapsed, bytesPerFrame: frames ? buffer.length / frames : 0, cpu, load: loadavg()[0]};
	} finally {
		rmSync(file, {force: true});
		await session.stop();
	}
}

const results = Object.fromEntries(Object.keys(builds).map(name => [name, []]));
for (let run = 0; run < runs; run++) {
	const order = run % 2 ? Object.keys(builds).reverse() : Object.keys(builds);
	for (const name of order) {
		const result = await measure(builds[name]);
		results[name].push(result);
		process.stdout.write(`${name} run ${run + 1}: ${(result.bytesPerSecond / 1000).toFixed(1)} KB/s, ${result.framesPerSecond.toFixed(1)} frames/s, ${Math.round(result.bytesPerFrame)} B/frame, dashboard CPU ${(result.cpu * 100).toFixed(1)} % of a core (load ${result.load.toFixed(2)})\n`);
	}
}

for (const [name, list] of Object.entries(results)) {
	process.stdout.write(`${name}: median ${(median(list.map(r => r.bytesPerSecond)) / 1000).toFixed(1)} KB/s, ${median(list.map(r => r.framesPerSecond)).toFixed(1)} frames/s, ${Math.round(median(list.map(r => r.bytesPerFrame)))} B/frame, dashboard CPU ${(median(list.map(r => r.cpu)) * 100).toFixed(1)} %; ${tasks} agents × ${rate} ${env.BENCH_TRICKLE_VARIED === '1' ? 'varied ' : ''}lines/s, 200×50, ${seconds} s windows, load ${list.map(r => r.load.toFixed(2)).join(' ')}\n`);
}

stopEverything();
