// How close `hermes-delegate run` is to what a Node process can do at all: the two headless
// workloads of the suite (300 trivial tasks at -j 8; 16 floods of 100,000 lines at -j 16) for
// hermes-delegate, xargs, GNU parallel and the smallest Node runner (agents/node-floor.mjs: spawn
// and read the pipes, and for the flood a log file per task, nothing else), alternating, medians
// of wall seconds. Where the floor itself misses a target, the target is out of reach for a Node
// runner on this machine. With a C compiler (`cc`) it also measures that floor with its forking
// done by a small native process (agents/spawn-helper.c, agents/helper-floor.mjs: a log file per
// task in both workloads): what a spawn helper would buy. Numbers, not a test.
//
// `node bench/headless-floor.mjs` (after a build); BENCH_RUNS (5), BENCH_ONLY=quick or flood.
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {newState} from './lib/dashboard.mjs';
import {countFiles} from './lib/procs.mjs';
import {markdownTable, median} from './lib/stats.mjs';
import {headless} from './lib/workloads.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const paths = {cli: process.env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};
const runs = Number(process.env.BENCH_RUNS ?? 5);
const cases = [
	{name: 'quick', kind: 'trivial', count: 300, concurrency: 8, env: {}},
	{name: 'flood', kind: 'flood', count: 16, concurrency: 16, env: {BENCH_FLOOD_LINES: '100000'}},
].filter(({name}) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY === name);

/**
 * Wall seconds of one floor runner (a script in agents/) over the same agents: `argsFor(state)`
 * are its arguments after the script, `state` the batch's folder (its logs go under it).
 */
function floorRun(name, script, {kind, count, env}, argsFor) {
	const state = newState();
	const goals = Array.from({length: count}, (_, i) => `${kind}-${i}`);
	const args = [path.join(here, 'agents', script), ...argsFor(state)];
	const started = performance.now();
	const result = spawnSync(process.execPath, args, {env: {...process.env, ...env, BENCH_STATE: state, GOALS: goals.join('\n')}, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8'});
	const wall = (performance.now() - started) / 1000;
	const finished = countFiles(path.join(state, 'done'));
	rmSync(state, {recursive: true, force: true});
	if (result.status !== 0 || finished !== count) {
		throw new Error(`${name} ${kind}: exit ${result.status}, ${finished}/${count} agents finished; ${result.stderr.slice(-300)}`);
	}

	return wall;
}

/** The node floor: node-floor.mjs, a log file per agent for the flood only. */
const nodeFloor = workload => floorRun('node floor', 'node-floor.mjs', workload, state => [paths.agent, String(workload.concurrency), ...(workload.kind === 'flood' ? [path.join(state, 'logs')] : [])]);

/** The helper floor: helper-floor.mjs driving the compiled spawn helper, a log file per agent. */
const helperFloor = (binary, workload) => floorRun('helper floor', 'helper-floor.mjs', workload, state => [binary, paths.agent, String(workload.concurrency), path.join(state, 'logs')]);

/** The spawn helper compiled into a temporary folder, or why it could not be. */
function compileHelper() {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'hd-spawn-helper-'));
	const binary = path.join(folder, 'spawn-helper');
	const result = spawnSync('cc', ['-O2', '-o', binary, path.join(here, 'agents', 'spawn-helper.c')], {encoding: 'utf8'});
	process.on('exit', () => rmSync(folder, {recursive: true, force: true}));
	return result.status === 0 ? {binary} : {skipped: result.error ? `no C compiler (${result.error.code})` : result.stderr.trim().split('\n')[0]};
}

const helper = compileHelper();
if (helper.skipped) {
	console.log(`helper floor: skipped, ${helper.skipped}`);
}

console.log(`${os.cpus().length} cores, load average ${os.loadavg().map(load => load.toFixed(2)).join(' ')} at the start, node ${process.version}`);
for (const workload of cases) {
	const tools = {
		'hermes-delegate': () => headless('hermes-delegate', paths, workload.kind, workload.count, workload.concurrency, workload.env).wall,
		'node floor': () => nodeFloor(workload),
		...(helper.binary ? {'helper floor': () => helperFloor(helper.binary, workload)} : {}),
		xargs: () => headless('xargs', paths, workload.kind, workload.count, workload.concurrency, workload.env).wall,
		parallel: () => headless('parallel', paths, workload.kind, workload.count, workload.concurrency, workload.env).wall,
	};
	const walls = Object.fromEntries(Object.keys(tools).map(name => [name, []]));
	for (let run = 0; run < runs; run++) {
		const order = run % 2 === 0 ? Object.keys(tools) : Object.keys(tools).reverse();
		for (const name of order) {
			walls[name].push(tools[name]());
		}
	}

	const xargs = median(walls.xargs);
	const parallel = median(walls.parallel);
	console.log(`\n${workload.name}: ${workload.count} ${workload.kind} tasks at -j ${workload.concurrency}, medians of ${runs}`);
	console.log(markdownTable(['tool', 'wall', '× xargs', '× parallel', 'all runs'], Object.entries(walls).map(([name, values]) => {
		const wall = median(values);
		return [name, `${wall.toFixed(2)} s`, `${(wall / xargs).toFixed(2)}×`, `${(wall / parallel).toFixed(2)}×`, values.map(value => value.toFixed(2)).join(' ')];
	})));
}
