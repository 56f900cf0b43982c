// Display-tail cost under a flood (numbers, not a test): 16 tasks × 100k lines of ~80
// characters, pushed in 64 KiB chunks as a pipe would deliver them. Compares OutputTail and
// TaskOutput (stdout + stderr merged) with the floor: decoding and sanitising alone.
// Run: `node bench/tail-bench.mjs` (it bundles the three modules it measures from src/ itself).
//
// Each case runs in a fresh process and reports its first run as well as its best: a real
// flood is one cold run, and V8 needs several runs to reach its optimised steady state.
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {StringDecoder} from 'node:string_decoder';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {rolldown} from 'rolldown';

// dist/ is one bundle with no per-module files: bundle the measured modules once, into a folder
// the per-case processes below are handed.
const root = fileURLToPath(new URL('../', import.meta.url));
let modulesDir = process.env.TAIL_BENCH_MODULES;
if (modulesDir === undefined) {
	modulesDir = mkdtempSync(path.join(tmpdir(), 'tail-bench-'));
	process.on('exit', () => rmSync(modulesDir, {recursive: true, force: true}));
	const bundle = await rolldown({
		input: {'output-tail': 'src/core/output/output-tail.ts', 'task-output': 'src/core/output/task-output.ts', 'sanitize': 'src/core/output/sanitize.ts'},
		cwd: root,
		platform: 'node',
		logLevel: 'warn',
	});
	await bundle.write({dir: modulesDir, format: 'esm'});
	await bundle.close();
}

const load = async file => import(pathToFileURL(path.join(modulesDir, file)).href);
const {OutputTail} = await load('output-tail.js');
const {TaskOutput} = await load('task-output.js');
const {TerminalSanitizer} = await load('sanitize.js');

const totalLines = 1_600_000;
const repeats = Number(process.env.BENCH_REPEATS ?? 5);
const line = '▸ step output line from a busy subagent, roughly agent-shaped text 0123456789\n';
// 64 KiB reads cut lines (and the 3-byte '▸') anywhere, as a pipe does: the stream is cut
// into chunks once, and the chunks are pushed round and round, which continues it seamlessly
// because it holds a whole number of chunks.
const chunkSize = 65536;
const stream = Buffer.from(line.repeat(chunkSize));
const cycle = Array.from({length: stream.length / chunkSize}, (_, k) => stream.subarray(k * chunkSize, (k + 1) * chunkSize));
const chunks = Math.ceil((totalLines * Buffer.byteLength(line)) / chunkSize);
const chunkAt = k => cycle[k % cycle.length];
// A chunk of stderr every this many stdout chunks: warnings interleaved with the flood.
const stderrEvery = 8;
const stderrChunk = Buffer.from('warning: provider slow, retrying in 2s\n'.repeat(20));

const only = process.argv[2];
const cases = [];

function best(name, run) {
	cases.push(name);
	if (name !== only) {
		return;
	}
	let first = 0;
	let fastest = Number.POSITIVE_INFINITY;
	let detail = '';
	for (let k = 0; k < repeats; k++) {
		const started = performance.now();
		detail = run();
		const ms = performance.now() - started;
		first ||= ms;
		fastest = Math.min(fastest, ms);
	}
	console.log(`${name.padEnd(30)} ${first.toFixed(0).padStart(6)} ms ${fastest.toFixed(0).padStart(6)} ms  ${detail}`);
}

best('decode + sanitize (floor)', () => {
	const decoder = new StringDecoder('utf8');
	const sanitizer = new TerminalSanitizer();
	let length = 0;
	for (let k = 0; k < chunks; k++) {
		length += sanitizer.push(decoder.write(chunkAt(k))).length;
	}
	return `${length} chars`;
});

best('decode + count newlines', () => {
	const decoder = new StringDecoder('utf8');
	let count = 0;
	for (let k = 0; k < chunks; k++) {
		const text = decoder.write(chunkAt(k));
		let at = -1;
		while ((at = text.indexOf('\n', at + 1)) !== -1) {
			count++;
		}
	}
	return `${count} lines`;
});

best('OutputTail', () => {
	const tail = new OutputTail();
	for (let k = 0; k < chunks; k++) {
		tail.push(chunkAt(k));
	}
	return `${tail.totalLines} lines, kept ${tail.lines().length}`;
});

best('TaskOutput (stdout + stderr)', () => {
	const output = new TaskOutput();
	for (let k = 0; k < chunks; k++) {
		output.pushStdout(chunkAt(k));
		if (k % stderrEvery === 0) {
			output.pushStderr(stderrChunk);
		}
	}
	output.end();
	return `${output.display.totalLines} lines, kept ${output.display.lines().length}`;
});

// What a dashboard adds on top: panes read ~40 lines at ~12 Hz. One read per 5 chunks
// is far more often than that for this much output.
best('TaskOutput + pane reads', () => {
	const output = new TaskOutput();
	let read = 0;
	for (let k = 0; k < chunks; k++) {
		output.pushStdout(chunkAt(k));
		if (k % 5 === 0) {
			read += output.display.lines(40).length;
		}
	}
	return `${read} lines read`;
});

if (only === undefined) {
	console.log(`${chunks} chunks of ${chunkSize} bytes (${((chunks * chunkSize) / 1e6).toFixed(0)} MB), ${repeats} runs per case`);
	console.log(`${'case'.padEnd(30)} ${'first'.padStart(9)} ${'best'.padStart(9)}`);
	for (const name of cases) {
		process.stdout.write(execFileSync(process.execPath, [fileURLToPath(import.meta.url), name], {encoding: 'utf8', env: {...process.env, TAIL_BENCH_MODULES: modulesDir}}));
	}
}
