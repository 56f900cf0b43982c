// Issue 39's Cost rows 7a and 7b for a before/after: `run`'s CPU (the whole process tree, the
// shell's `times`, as the suite measures it) for two builds and GNU parallel, the three
// alternating run by run, with the load beside every figure. Each round gives each build's
// ratio to the parallel run of the same round; the table prints medians and the rounds' range.
// Beside it, each build's own part (the hermes-delegate process alone, user + system, read at its
// exit by own-cpu.cjs): the agents' share and other processes' noise left out, it moves less
// from run to run on a shared machine than the tree's. Numbers, not a test.
//
// `BENCH_CLI_BEFORE=/other/dist/cli.js node bench/run-cpu-ab.mjs` (after a build). BENCH_CLI
// (this checkout's dist/cli.js), BENCH_RUNS (5), BENCH_ONLY=quick or flood. Both builds run on the
// node that runs this script (`/path/to/node24 bench/run-cpu-ab.mjs` for another one).
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {loadNow} from './lib/procs.mjs';
import {markdownTable, median} from './lib/stats.mjs';
import {headless} from './lib/workloads.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const agent = path.join(here, 'agents', 'agent.sh');
const after = process.env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js');
const before = process.env.BENCH_CLI_BEFORE;
const runs = Number(process.env.BENCH_RUNS ?? 5);
if (before === undefined) {
	process.stderr.write('run-cpu-ab: set BENCH_CLI_BEFORE to the other build\'s cli.js\n');
	process.exit(2);
}

if (spawnSync('parallel', ['--version'], {stdio: 'ignore'}).status !== 0) {
	process.stderr.write('run-cpu-ab: GNU parallel is not installed (apt-get install parallel)\n');
	process.exit(2);
}

const cases = [
	{name: 'quick', id: '7a', kind: 'trivial', count: 300, concurrency: 8, env: {}},
	{name: 'flood', id: '7b', kind: 'flood', count: 16, concurrency: 16, env: {BENCH_FLOOD_LINES: '100000'}},
].filter(({name}) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY === name);

const ownFolder = mkdtempSync(path.join(os.tmpdir(), 'hd-own-cpu-'));
process.on('exit', () => rmSync(ownFolder, {recursive: true, force: true}));
let ownRuns = 0;
/** One hermes-delegate batch: the tree's figures from headless(), and `own` (CPU seconds, peak RSS) from own-cpu.cjs. */
function ours(cli, workload) {
	const file = path.join(ownFolder, `${++ownRuns}.jsonl`);
	const result = headless('hermes-delegate', {cli, agent}, workload.kind, workload.count, workload.concurrency, {...workload.env, BENCH_OWN_CPU: file, NODE_OPTIONS: `--require ${JSON.stringify(path.join(here, 'own-cpu.cjs'))}`});
	const own = JSON.parse(readFileSync(file, 'utf8').trim().split('\n')[0]);
	return {...result, own: own.user + own.system, ownUser: own.user, ownRss: own.maxRssMiB};
}

const tools = [
	{name: 'before', run: workload => ours(before, workload)},
	{name: 'after', run: workload => ours(after, workload)},
	{name: 'parallel', run: workload => headless('parallel', {cli: after, agent}, workload.kind, workload.count, workload.concurrency, workload.env)},
];

const fixed = value => value.toFixed(2);
const range = values => `${fixed(Math.min(...values))}–${fixed(Math.max(...values))}`;
process.stdout.write(`node ${process.version}; before ${before}; after ${after}; ${runs} rounds\n`);
const rows = [];
for (const workload of cases) {
	const results = {before: [], after: [], parallel: []};
	for (let round = 0; round < runs; round++) {
		// The order turns each round, so that no build always follows the same one.
		const order = tools.map((_, i) => tools[(i + round) % tools.length]);
		for (const tool of order) results[tool.name].push(tool.run(workload));
		const own = name => (results[name].at(-1).own === undefined ? '' : ` (own ${fixed(results[name].at(-1).own)})`);
		process.stdout.write(`${workload.name} round ${round + 1}: ${tools.map(({name}) => `${name} ${fixed(results[name].at(-1).cpu)} s${own(name)}`).join(', ')} (load ${loadNow()})\n`);
	}

	const loads = Object.values(results).flat().map(result => result.load);
	for (const name of ['before', 'after']) {
		const ratios = results[name].map((result, i) => result.cpu / results.parallel[i].cpu);
		const owns = results[name].map(r => r.own);
		rows.push([`${workload.id} ${workload.name}`, name, `${fixed(median(results[name].map(r => r.cpu)))} s`, `${fixed(median(results.parallel.map(r => r.cpu)))} s`, `${fixed(median(ratios))}× (${range(ratios)}×)`, `${fixed(median(owns))} s (${range(owns)}; user ${fixed(median(results[name].map(r => r.ownUser)))})`, `${median(results[name].map(r => r.ownRss)).toFixed(0)} MiB`, `${fixed(median(results[name].map(r => r.wall)))} s`, `${fixed(Math.min(...loads))}–${fixed(Math.max(...loads))}`]);
	}
}

process.stdout.write(`${markdownTable(['workload', 'build', 'CPU (tree)', 'parallel CPU', 'ratio (rounds)', 'hermes-delegate alone', 'its peak RSS', 'wall', 'load'], rows)}\n`);
