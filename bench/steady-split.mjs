// The dashboard's steady cost in the slow trickle, split the ways /proc can split it: user and
// system time, read and write syscalls, context switches, for each build given, alternating run
// by run. What floor.mjs's steady window is made of (a frame's JavaScript, or the kernel's work
// for its writes), for judging a change to how frames reach the terminal.
//
// Prints each run's dashboard threads too (main, and the rest: V8's collector and compiler).
// `node bench/steady-split.mjs [cli.js …]` (default: this checkout's dist/cli.js). BENCH_RUNS (2),
// BENCH_TASKS (32), BENCH_TRICKLE_S (60), BENCH_TRICKLE_RATE (2), BENCH_FLOOR_FROM (10),
// BENCH_FLOOR_WINDOW (30).
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {goals, startDashboard, stopEverything} from './lib/dashboard.mjs';
import {loadNow, sleep} from './lib/procs.mjs';
import {median} from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const clis = process.argv.length > 2 ? process.argv.slice(2).map(cli => path.resolve(cli)) : [path.join(here, '..', 'dist', 'cli.js')];
const runs = Number(env.BENCH_RUNS ?? 2);
const tasks = Number(env.BENCH_TASKS ?? 32);
const seconds = Number(env.BENCH_TRICKLE_S ?? 60);
const rate = Number(env.BENCH_TRICKLE_RATE ?? 2);
const from = Number(env.BENCH_FLOOR_FROM ?? 10);
const window = Number(env.BENCH_FLOOR_WINDOW ?? 30);
const agent = path.join(here, 'agents', 'agent.sh');
const ticks = 100;
process.on('exit', stopEverything);

/** utime, stime (s), syscr, syscw, voluntary and involuntary context switches of one process. */
function sample(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const io = Object.fromEntries(readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n').map(line => line.split(': ')).map(([key, value]) => [key, Number(value)]));
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const field = name => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
	return [Number(fields[11]) / ticks, Number(fields[12]) / ticks, io.syscr, io.syscw, field('voluntary_ctxt_switches'), field('nonvoluntary_ctxt_switches')];
}

/** CPU seconds of each thread of a process: 'main', or its name and id. */
function threads(pid) {
	const byName = new Map();
	for (const id of readdirSync(`/proc/${pid}/task`)) {
		try {
			const stat = readFileSync(`/proc/${pid}/task/${id}/stat`, 'utf8');
			const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			// V8's and libuv's threads all carry Node's name: each is told apart by its id.
			byName.set(id === String(pid) ? 'main' : `${name}:${id}`, (Number(fields[11]) + Number(fields[12])) / ticks);
		} catch {}
	}

	return byName;
}

async function once(cli) {
	const session = await startDashboard('hermes-delegate', {cli, agent}, goals('trickle', tasks), {env: {BENCH_TRICKLE_S: String(seconds), BENCH_TRICKLE_RATE: String(rate)}});
	try {
		const [dashboard] = await session.processes();
		const load = [loadNow()];
		await sleep(Math.max(0, from * 1000 - (performance.now() - session.started)));
		const start = sample(dashboard);
		const threadsBefore = threads(dashboard);
		await sleep(window * 1000);
		const end = sample(dashboard);
		const threadsAfter = threads(dashboard);
		console.log(`  by thread: ${[...threadsAfter].map(([name, value]) => [name, value - (threadsBefore.get(name) ?? 0)]).filter(([, value]) => value >= 0.01).map(([name, value]) => `${name} ${value.toFixed(2)}`).join(' · ')}`);
		load.push(loadNow());
		return {split: end.map((value, index) => value - start[index]), load};
	} finally {
		await session.stop();
	}
}

const names = ['user s', 'system s', 'read calls', 'write calls', 'voluntary switches', 'involuntary'];
const results = new Map(clis.map(cli => [cli, []]));
for (let run = 0; run < runs; run++) {
	for (const cli of clis) {
		const result = await once(cli);
		results.get(cli).push(result);
		console.log(`${path.relative(process.cwd(), cli)} run ${run + 1}: ${result.split.map((value, index) => `${names[index]} ${Number.isInteger(value) ? value : value.toFixed(2)}`).join(' · ')} · load ${result.load.map(load => load.toFixed(1)).join('–')}`);
	}
}

console.log(`\nthe dashboard over ${window} s from ${from} s, medians of ${runs}:`);
for (const [cli, list] of results) {
	console.log(`${path.relative(process.cwd(), cli)}: ${names.map((name, index) => `${name} ${median(list.map(result => result.split[index])).toFixed(index < 2 ? 2 : 0)}`).join(' · ')}`);
}
