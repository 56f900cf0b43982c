// What the dashboard and its runner host cost while a long batch's output is slow: the suite's
// slow trickle (32 agents at 2 lines/s), with each process's CPU split into its start-up (until
// BENCH_FLOOR_FROM seconds), the steady window after it (BENCH_FLOOR_WINDOW seconds: the floor,
// what runs with the clock) and the rest (the batch's end, until both processes have left).
// Several builds alternate run by run, so that a before and an after share the machine's load.
//
// `node bench/floor.mjs [cli.js …]` (default: this checkout's dist/cli.js), after a build.
// BENCH_RUNS (3), BENCH_TRICKLE_S (60), BENCH_TRICKLE_RATE (2), BENCH_TASKS (32),
// BENCH_FLOOR_FROM (10), BENCH_FLOOR_WINDOW (40). Prints one line per run and the medians.
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {goals, startDashboard, stopEverything} from './lib/dashboard.mjs';
import {countFiles, cpuSecondsOf, loadNow, sleep, waitFor} from './lib/procs.mjs';
import {median} from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const clis = process.argv.length > 2 ? process.argv.slice(2).map(cli => path.resolve(cli)) : [path.join(here, '..', 'dist', 'cli.js')];
const runs = Number(env.BENCH_RUNS ?? 3);
const tasks = Number(env.BENCH_TASKS ?? 32);
const seconds = Number(env.BENCH_TRICKLE_S ?? 60);
const rate = Number(env.BENCH_TRICKLE_RATE ?? 2);
const from = Number(env.BENCH_FLOOR_FROM ?? 10);
const window = Number(env.BENCH_FLOOR_WINDOW ?? 40);
const agent = path.join(here, 'agents', 'agent.sh');
process.on('exit', stopEverything);

async function once(cli) {
	const session = await startDashboard('hermes-delegate', {cli, agent}, goals('trickle', tasks), {env: {BENCH_TRICKLE_S: String(seconds), BENCH_TRICKLE_RATE: String(rate)}});
	try {
		const [dashboard, host] = await session.processes();
		const cpu = () => [cpuSecondsOf([dashboard]), cpuSecondsOf([host])];
		const loads = [loadNow()];
		await sleep(Math.max(0, from * 1000 - (performance.now() - session.started)));
		const start = cpu();
		await sleep(window * 1000);
		const end = cpu();
		loads.push(loadNow());
		await waitFor('the batch to finish', () => session.assertRunning() && countFiles(path.join(session.state, 'done')) >= tasks, 600_000, 10);
		await sleep(1000);
		const total = cpu();
		return {startup: start, steady: end.map((value, index) => value - start[index]), rest: total.map((value, index) => value - end[index]), total, loads};
	} finally {
		await session.stop();
	}
}

const fixed = (value, digits = 2) => value.toFixed(digits);
const pair = ([dashboard, host]) => `${fixed(dashboard + host)} (${fixed(dashboard)} + ${fixed(host)})`;
const results = new Map(clis.map(cli => [cli, []]));
for (let run = 0; run < runs; run++) {
	for (const cli of clis) {
		const result = await once(cli);
		results.get(cli).push(result);
		console.log(`${path.relative(process.cwd(), cli)} run ${run + 1}: start-up ${pair(result.startup)} · steady ${window} s ${pair(result.steady)} · end ${pair(result.rest)} · total ${pair(result.total)} CPU-s · load ${result.loads.map(load => fixed(load, 1)).join('–')}`);
	}
}

console.log(`\nmedians of ${runs} (CPU-s, dashboard + host), ${tasks} agents × ${rate} lines/s for ${seconds} s; steady = from ${from} s for ${window} s:`);
for (const [cli, list] of results) {
	const of = key => [0, 1].map(index => median(list.map(result => result[key][index])));
	const steady = of('steady');
	console.log(`${path.relative(process.cwd(), cli)}: start-up ${pair(of('startup'))} · steady ${pair(steady)} = ${fixed(((steady[0] + steady[1]) / window) * 100, 1)} % of a core · end ${pair(of('rest'))} · total ${pair(of('total'))}`);
}
