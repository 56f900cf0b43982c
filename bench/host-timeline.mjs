// The runner host's CPU through a trickle, second by second: where its cost sits in time
// (the agents' start, the steady output, the batch's end) and how many read and write syscalls
// it makes in each part (/proc/<host>/io). Several builds alternate run by run.
//
// `node bench/host-timeline.mjs [cli.js …]` (default: this checkout's dist/cli.js), after a build.
// BENCH_RUNS (3), BENCH_KIND (trickle: 32 × 20 lines/s × 20 s; slow-trickle: 32 × 2 lines/s × 60 s),
// BENCH_STEP_MS (1000). Prints, per build, the medians of each phase: start-up (until the first
// agent's output is a second old), steady, end (from the first task's end until the host is idle).
import path from 'node:path';
import {spawn} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {goals, startDashboard, stopEverything} from './lib/dashboard.mjs';
import {countFiles, cpuSeconds, loadNow, sleep} from './lib/procs.mjs';
import {median} from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const clis = process.argv.length > 2 ? process.argv.slice(2).map(cli => path.resolve(cli)) : [path.join(here, '..', 'dist', 'cli.js')];
const runs = Number(env.BENCH_RUNS ?? 3);
const kind = env.BENCH_KIND ?? 'trickle';
const slow = kind === 'slow-trickle';
const tasks = Number(env.BENCH_TASKS ?? 32);
const seconds = Number(env.BENCH_TRICKLE_S ?? (slow ? 60 : 20));
const rate = Number(env.BENCH_TRICKLE_RATE ?? (slow ? 2 : 20));
const stepMs = Number(env.BENCH_STEP_MS ?? 1000);
const agent = path.join(here, 'agents', 'agent.sh');
process.on('exit', stopEverything);

function io(pid) {
	try {
		const text = readFileSync(`/proc/${pid}/io`, 'utf8');
		const field = name => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)?.[1] ?? 0);
		return {syscr: field('syscr'), syscw: field('syscw')};
	} catch {
		return {syscr: 0, syscw: 0};
	}
}

function sample(pids) {
	return pids.map(pid => {
		try {
			return {cpu: cpuSeconds(pid), ...io(pid)};
		} catch {
			return undefined;
		}
	});
}

async function once(cli) {
	const session = await startDashboard('hermes-delegate', {cli, agent}, goals('trickle', tasks), {env: {BENCH_TRICKLE_S: String(seconds), BENCH_TRICKLE_RATE: String(rate)}});
	let tracer;
	try {
		const [dashboard, host] = await session.processes();
		// BENCH_STRACE=<file>: every syscall of the host, timed, into <file> (for reading what a phase does).
		if (env.BENCH_PIDFILE) writeFileSync(env.BENCH_PIDFILE, String(host));
		tracer = env.BENCH_STRACE ? spawn('strace', ['-f', '-tt', '-o', env.BENCH_STRACE, '-p', String(host)], {stdio: 'ignore'}) : undefined;
		const samples = [];
		const loads = [loadNow()];
		let firstDone;
		let allDone;
		for (;;) {
			const at = (performance.now() - session.started) / 1000;
			const [d, h] = sample([dashboard, host]);
			const done = countFiles(path.join(session.state, 'done'));
			if (done > 0 && firstDone === undefined) firstDone = samples.length;
			if (done >= tasks && allDone === undefined) allDone = samples.length;
			samples.push({at, d, h, done});
			if (allDone !== undefined && samples.length - allDone > 3000 / stepMs) break;
			if (at > seconds + 120) throw new Error('the batch did not finish');
			await sleep(stepMs);
		}

		loads.push(loadNow());
		// Start-up: until 2 s after the start (the agents spawned, the first output); end: from a second before the first task's end.
		const startEnd = Math.round(2000 / stepMs);
		const endStart = Math.max(startEnd, firstDone - Math.round(1000 / stepMs));
		const last = samples.at(-1);
		const phase = (from, to, key) => ['d', 'h'].map(who => samples[to][who][key] - samples[from][who][key]);
		return {
			samples, loads,
			cpu: {startup: phase(0, startEnd, 'cpu'), steady: phase(startEnd, endStart, 'cpu'), end: phase(endStart, samples.length - 1, 'cpu'), total: [last.d.cpu, last.h.cpu]},
			reads: {startup: phase(0, startEnd, 'syscr'), steady: phase(startEnd, endStart, 'syscr'), end: phase(endStart, samples.length - 1, 'syscr')},
			writes: {startup: phase(0, startEnd, 'syscw'), steady: phase(startEnd, endStart, 'syscw'), end: phase(endStart, samples.length - 1, 'syscw')},
			steadySeconds: samples[endStart].at - samples[startEnd].at,
		};
	} finally {
		tracer?.kill('SIGINT');
		await session.stop();
	}
}

const fixed = (value, digits = 2) => value.toFixed(digits);
const pair = ([d, h]) => `${fixed(d + h)} (${fixed(d)} + ${fixed(h)})`;
const results = new Map(clis.map(cli => [cli, []]));
for (let run = 0; run < runs; run++) {
	for (const cli of clis) {
		const result = await once(cli);
		results.get(cli).push(result);
		const {cpu, reads, writes} = result;
		console.log(`${path.relative(process.cwd(), cli)} run ${run + 1}: start-up ${pair(cpu.startup)} · steady ${fixed(result.steadySeconds, 1)} s ${pair(cpu.steady)} · end ${pair(cpu.end)} · total ${pair(cpu.total)} CPU-s · host reads/writes start ${reads.startup[1]}/${writes.startup[1]} steady ${reads.steady[1]}/${writes.steady[1]} end ${reads.end[1]}/${writes.end[1]} · load ${result.loads.map(load => fixed(load, 1)).join('–')}`);
		if (env.BENCH_VERBOSE === '1') {
			for (let index = 1; index < result.samples.length; index++) {
				const [a, b] = [result.samples[index - 1], result.samples[index]];
				console.log(`  ${fixed(b.at, 1)} s  host ${fixed((b.h.cpu - a.h.cpu) * 1000, 0)} ms  dashboard ${fixed((b.d.cpu - a.d.cpu) * 1000, 0)} ms  host reads ${b.h.syscr - a.h.syscr} writes ${b.h.syscw - a.h.syscw}  done ${b.done}`);
			}
		}
	}
}

console.log(`\nmedians of ${runs} (CPU-s, dashboard + host), ${tasks} agents × ${rate} lines/s for ${seconds} s:`);
for (const [cli, list] of results) {
	const of = (group, key) => [0, 1].map(index => median(list.map(result => result[group][key][index])));
	console.log(`${path.relative(process.cwd(), cli)}: start-up ${pair(of('cpu', 'startup'))} · steady ${pair(of('cpu', 'steady'))} · end ${pair(of('cpu', 'end'))} · total ${pair(of('cpu', 'total'))} · host reads/writes start ${of('reads', 'startup')[1]}/${of('writes', 'startup')[1]} steady ${of('reads', 'steady')[1]}/${of('writes', 'steady')[1]} end ${of('reads', 'end')[1]}/${of('writes', 'end')[1]}`);
}
