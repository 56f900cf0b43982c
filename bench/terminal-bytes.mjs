// Bytes the dashboard writes to its terminal (numbers, not a test): `hermes-delegate tui` over 32
// trickling agents in a 200×50 tmux pane, everything the pane receives over a window counted
// through `tmux pipe-pane` (bench/lib/terminal-bytes.mjs, which the suite's `bytes` workload
// uses too). Prints bytes a second, frames a second (each of Ink's frames opens a synchronized
// update, ESC [ ? 2026 h), bytes a frame, and the dashboard process's CPU over the window (the
// host's is not counted: it draws nothing), per run.
//
// Settings (environment): BENCH_TASKS (32), BENCH_TRICKLE_RATE (20 lines a second per agent; 2
// for the slow trickle), BENCH_TRICKLE_VARIED=1 (each line unlike the one before, as a real
// agent's: the stand-in's lines differ only in a step number, which a writer of changed cells
// sends as a few digits), BENCH_SECONDS (10, the window), BENCH_RUNS (3), BENCH_CLI (dist/cli.js
// of this checkout), BENCH_CLI_BEFORE (another build's cli.js: measured alternating with
// BENCH_CLI, run by run, for a before/after on one machine). `node bench/terminal-bytes.mjs`
// after `npm run build`.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {stopEverything} from './lib/dashboard.mjs';
import {median} from './lib/stats.mjs';
import {terminalBytes} from './lib/terminal-bytes.mjs';

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

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		stopEverything();
		process.exit(130);
	});
}

const measure = cli => terminalBytes('hermes-delegate', {cli, agent: path.join(here, 'agents', 'agent.sh')}, {tasks, rate, seconds, varied: env.BENCH_TRICKLE_VARIED === '1'});

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
