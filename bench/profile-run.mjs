// Where `hermes-delegate run`'s own time goes in the suite's headless workloads (input for
// optimising, not a figure to compare): the batch under `node --cpu-prof`, its top functions and
// modules by self time mapped back to src/ and the bundled packages, and the process's own CPU
// (user, system) and its garbage collections from `--trace-gc`-free counters (resourceUsage is
// read by the profile's length; the GC share is the profile's "(garbage collector)").
//
// `node bench/profile-run.mjs` (after a build). BENCH_KIND (flood, or quick: 300 trivial at -j 8),
// BENCH_CLI (dist/cli.js), BENCH_TOP (12), BENCH_KEEP=1 keeps the .cpuprofile.
import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {summarise} from './cpu-profile.mjs';
import {loadNow} from './lib/procs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const kind = env.BENCH_KIND ?? 'flood';
const workloads = {flood: {goal: 'flood', count: 16, jobs: 16}, quick: {goal: 'trivial', count: 300, jobs: 8}};
const workload = workloads[kind];
if (workload === undefined) {
	console.error(`bench: BENCH_KIND=${JSON.stringify(kind)} is not flood or quick`);
	process.exit(2);
}

const cli = env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js');
const top = Number(env.BENCH_TOP ?? 12);
const state = mkdtempSync(path.join(tmpdir(), 'hd-profile-run-'));
const profiles = path.join(state, 'profiles');
for (const folder of ['pid', 'done', 'profiles']) mkdirSync(path.join(state, folder));
const tasks = path.join(state, 'tasks.json');
writeFileSync(tasks, JSON.stringify(Array.from({length: workload.count}, (_, i) => ({goal: `${workload.goal}-${i}`}))));
process.on('exit', () => {
	if (env.BENCH_KEEP === '1') console.log(`kept: ${profiles}`);
	else rmSync(state, {recursive: true, force: true});
});

const load = loadNow();
const started = performance.now();
const result = spawnSync('sh', ['-c', `"$NODE" --cpu-prof --cpu-prof-dir="$PROFILES" "$CLI" run "$TASKS" -j ${workload.jobs} --hermes-bin "$AGENT" > /dev/null; status=$?; times >&2; exit $status`], {
	env: {...env, NODE: process.execPath, PROFILES: profiles, CLI: cli, TASKS: tasks, AGENT: path.join(here, 'agents', 'agent.sh'), BENCH_STATE: state, HERMES_HOME: state, XDG_CACHE_HOME: path.join(state, 'cache'), BENCH_FLOOD_LINES: env.BENCH_FLOOD_LINES ?? '100000'},
	stdio: ['ignore', 'ignore', 'pipe'],
	encoding: 'utf8',
});
const wall = (performance.now() - started) / 1000;
if (result.status !== 0) {
	console.error(`bench: run exited ${result.status}: ${result.stderr.slice(-500)}`);
	process.exit(1);
}

console.log(`${kind}: wall ${wall.toFixed(2)} s, times (user system) of the tree: ${result.stderr.trim().split('\n').at(-1)}; load ${load}; node ${process.version}`);
for (const name of readdirSync(profiles)) {
	const {total, functions, modules} = summarise(JSON.parse(readFileSync(path.join(profiles, name), 'utf8')), top);
	const line = ([key, ms]) => `  ${ms.toFixed(0).padStart(6)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`;
	console.log(`\n${(total / 1000).toFixed(2)} s profiled (the main thread's self time, VM entries in parentheses)`);
	console.log(`\nby module:\n${modules.map(line).join('\n')}`);
	console.log(`\nby function:\n${functions.map(line).join('\n')}`);
}
