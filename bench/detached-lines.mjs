// What a line handed to the screen keeps alive (numbers, not a test): V8 may let a slice share
// memory with the string it was cut from, so a 40-character line cut from a 1 MiB block of output
// could keep the whole block. merged-lines.ts hands out copies (detached) and reuses the copies
// of its last read; this measures the heap after a full GC for 200 such lines, kept three ways.
// Run: `node bench/detached-lines.mjs` (it bundles src/core/output/merged-lines.ts itself).
//
// It was a test until issue 23 (test/core/output/detached-lines.test.ts, bound: < 20 MiB): how V8
// lays out strings is an implementation detail, so it is measured here instead of asserted.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import {rolldown} from 'rolldown';

const root = fileURLToPath(new URL('../', import.meta.url));
const modulesDir = mkdtempSync(path.join(tmpdir(), 'detached-lines-'));
process.on('exit', () => rmSync(modulesDir, {recursive: true, force: true}));
const bundle = await rolldown({input: {'merged-lines': 'src/core/output/merged-lines.ts'}, cwd: root, platform: 'node', logLevel: 'warn'});
await bundle.write({dir: modulesDir, format: 'esm'});
await bundle.close();
const {detached, MergedLines} = await import(pathToFileURL(path.join(modulesDir, 'merged-lines.js')).href);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const lines = 200;
const blockBytes = 1024 * 1024;

function heapAfterGc() {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

/** Heap growth (MiB) while `keep(index)` runs for every line and its results stay reachable. */
function grownBy(keep) {
	const before = heapAfterGc();
	const kept = [];
	for (let index = 0; index < lines; index++) kept.push(keep(index));
	const grown = heapAfterGc() - before;
	if (kept.length !== lines) throw new Error('lost a line');
	return grown / 1024 / 1024;
}

const freshBlock = index => `${String(index).padStart(6, '0')}${'y'.repeat(blockBytes)}`;
const merged = new MergedLines(2, () => []);
const cases = [
	['plain slice (what detached() prevents)', index => freshBlock(index).slice(0, 40)],
	['detached(slice)', index => detached(freshBlock(index).slice(0, 40))],
	['MergedLines, the same line read twice', index => {
		const line = `${String(index).padStart(6, '0')} a line of forty characters or so`;
		merged.add({text: `${'y'.repeat(blockBytes)}\n${line}`, count: 2, crlf: false});
		return [merged.lines(1), merged.lines(1)];
	}],
];

console.log(`${lines} lines, each cut from its own ${blockBytes / 1024 / 1024} MiB block; heap growth after a full GC:`);
for (const [name, keep] of cases) console.log(`  ${name.padEnd(42)} ${grownBy(keep).toFixed(1).padStart(7)} MiB`);
