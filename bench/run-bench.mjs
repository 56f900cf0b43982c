// Benchmarks (numbers, not tests): hermes-delegate's headless runner against the classic
// parallel runners on the same commands. Run with `npm run bench`; results are printed and
// appended to bench/RESULTS.md by hand when they matter.
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli.js');
const trivial = path.join(here, 'trivial-agent.sh');
const pythonAgent = path.join(here, 'python-agent.sh');
const flood = path.join(here, 'flood-agent.sh');
const repeats = Number(process.env.BENCH_REPEATS ?? 3);

function has(command) {
	return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** Wall time (ms) and peak RSS (KiB) of one command, via GNU time. */
function measure(file, args, options = {}) {
	const started = process.hrtime.bigint();
	const result = spawnSync('/usr/bin/time', ['-f', '%M', file, ...args], {...options, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024});
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	if (result.status !== 0 && result.status !== 1) {
		throw new Error(`${file} ${args.join(' ')} failed (${result.status}): ${result.stderr.slice(-500)}`);
	}

	const rss = Number(result.stderr.trim().split('\n').at(-1));
	return {ms, rssKiB: rss};
}

function best(runs) {
	return runs.reduce((a, b) => (a.ms <= b.ms ? a : b));
}

function bench(label, fn) {
	const runs = Array.from({length: repeats}, fn);
	const result = best(runs);
	console.log(`${label.padEnd(44)} ${result.ms.toFixed(0).padStart(7)} ms   peak RSS ${(result.rssKiB / 1024).toFixed(1)} MiB`);
	return result;
}

function tasksFile(count, goal) {
	const dir = mkdtempSync(path.join(tmpdir(), 'hd-bench-'));
	const file = path.join(dir, 'tasks.json');
	writeFileSync(file, JSON.stringify(Array.from({length: count}, (_, i) => ({goal: `${goal} ${i}`}))));
	return {dir, file};
}

function hermesDelegate(tasks, concurrency, bin, home) {
	return measure(process.execPath, [cli, 'run', tasks, '-j', String(concurrency), '--hermes-bin', bin], {env: {...process.env, HERMES_HOME: home}});
}

console.log(`node ${process.version}, ${repeats} repeats each, best run shown\n`);

// 1. 300 trivial tasks at -j 8: scheduling + spawn overhead against xargs -P 8.
{
	const {dir, file} = tasksFile(300, 'trivial');
	const goals = Array.from({length: 300}, (_, i) => `trivial ${i}`).join('\n');
	const ours = bench('hermes-delegate run: 300 trivial, -j 8', () => hermesDelegate(file, 8, trivial, dir));
	const xargs = bench('xargs -P 8: 300 trivial', () => measure('sh', ['-c', `printf '%s\\n' "$GOALS" | xargs -P 8 -I{} ${trivial} chat -q {} > /dev/null`], {env: {...process.env, GOALS: goals}}));
	console.log(`  ratio hermes-delegate / xargs: ${(ours.ms / xargs.ms).toFixed(2)}× (target ≤ 1.5×)\n`);
	rmSync(dir, {recursive: true, force: true});
}

// 1b. The same with the floor cost of a real agent process (a bare Python start, as Hermes is Python).
{
	const {dir, file} = tasksFile(300, 'trivial');
	const goals = Array.from({length: 300}, (_, i) => `trivial ${i}`).join('\n');
	const ours = bench('hermes-delegate run: 300 python starts, -j 8', () => hermesDelegate(file, 8, pythonAgent, dir));
	const xargs = bench('xargs -P 8: 300 python starts', () => measure('sh', ['-c', `printf '%s\\n' "$GOALS" | xargs -P 8 -I{} ${pythonAgent} chat -q {} > /dev/null`], {env: {...process.env, GOALS: goals}}));
	console.log(`  ratio hermes-delegate / xargs: ${(ours.ms / xargs.ms).toFixed(2)}× (target ≤ 1.5×)\n`);
	rmSync(dir, {recursive: true, force: true});
}

// 2. 16 tasks × 100k lines at -j 16: draining floods against GNU parallel -j 16.
{
	const {dir, file} = tasksFile(16, 'flood');
	const ours = bench('hermes-delegate run: 16 × 100k lines, -j 16', () => hermesDelegate(file, 16, flood, dir));
	const peer = has('parallel') ? 'parallel' : 'xargs';
	const theirs = peer === 'parallel'
		? bench('GNU parallel -j 16: 16 × 100k lines', () => measure('sh', ['-c', `seq 16 | parallel -j 16 ${flood} chat -q flood {} > /dev/null`]))
		: bench('xargs -P 16 (GNU parallel not installed)', () => measure('sh', ['-c', `seq 16 | xargs -P 16 -I{} ${flood} chat -q flood {} > /dev/null`]));
	console.log(`  ratio hermes-delegate / ${peer}: ${(ours.ms / theirs.ms).toFixed(2)}× (target ≤ 1.0×)\n`);
	rmSync(dir, {recursive: true, force: true});
}

