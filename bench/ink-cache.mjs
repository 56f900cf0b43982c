// Benchmark (numbers, not a test): how much heap Ink's text caches keep after drawing 40,000
// distinct 2 KB lines, with the cache bounds of scripts/ink-cache-bounds.mjs (as bundled into dist/)
// and without them (Ink as published). Each variant is bundled from node_modules/ink the way the
// build does it and measured in its own Node process. `npm run bench:ink-cache`; takes ~30 s.
// BENCH_INK8=1 adds Ink 8.0.0 as published (installed from the npm registry into bench/.cache/ink8),
// which bounds these caches itself (issue 40: what of scripts/ink-cache-bounds.mjs a move to Ink 8
// would still need); Ink 8 needs Node 22, so run it so: BENCH_NODE=/path/to/node for the measuring
// processes, else this Node.
import {execFileSync, spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {rolldown} from 'rolldown';
import {boundInkCaches, cacheLimit, marker} from '../scripts/ink-cache-bounds.mjs';

const lines = Number(process.env.BENCH_LINES ?? 40_000);
const inkBuild = path.dirname(createRequire(import.meta.url).resolve('ink'));
if (readFileSync(path.join(inkBuild, 'measure-text.js'), 'utf8').includes(marker)) {
	console.error('node_modules/ink was patched in place by an older `prepare`, so both variants would be bounded: run `npm ci` first');
	process.exit(1);
}

const work = mkdtempSync(path.join(tmpdir(), 'hd-ink-cache-'));

/** Ink 8.0.0's build folder, installed once into bench/.cache/ink8 (git-ignored). */
function ink8Build() {
	const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '.cache', 'ink8');
	const build = path.join(dir, 'node_modules', 'ink', 'build');
	if (!existsSync(path.join(build, 'measure-text.js'))) {
		mkdirSync(dir, {recursive: true});
		writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n');
		execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', 'ink@8.0.0', 'react@19.3.1'], {cwd: dir, stdio: 'ignore'});
	}

	return build;
}

/** Ink's measureText and wrapText in one file, with or without the bounds. */
async function bundleInk(name, plugins, from = inkBuild) {
	const inkBuild = from;
	const entry = path.join(work, `${name}-entry.mjs`);
	writeFileSync(entry, [
		`export {default as measureText} from ${JSON.stringify(path.join(inkBuild, 'measure-text.js'))};`,
		`export {default as wrapText} from ${JSON.stringify(path.join(inkBuild, 'wrap-text.js'))};`,
		// The other edited files enter the bundle too, as in the real build (the plugin checks that).
		...['output.js', 'render-node-to-output.js', 'dom.js', 'reconciler.js', 'components/Text.js'].map(other => `import ${JSON.stringify(path.join(inkBuild, other))};`),
	].join('\n'));
	const bundle = await rolldown({input: entry, platform: 'node', external: [/^node:/], plugins, logLevel: 'silent'});
	// A folder: reconciler.js loads Ink's devtools as a chunk of their own.
	const file = path.join(work, name, 'entry.mjs');
	await bundle.write({dir: path.join(work, name), format: 'esm', entryFileNames: 'entry.mjs'});
	await bundle.close();
	return file;
}

// Runs in a fresh process so that neither variant's heap colours the other's.
const measure = `
const {measureText, wrapText} = await import(process.argv[1]);
const lines = Number(process.argv[2]);
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const before = heap();
const started = performance.now();
for (let index = 0; index < lines; index++) {
	const line = String(index).padStart(8, '0') + ' ' + 'x'.repeat(2000);
	measureText(line);
	wrapText(line, 80, 'truncate');
}
const ms = performance.now() - started;
console.log(JSON.stringify({kept: heap() - before, ms}));
`;

try {
	const variants = [
		['bounded (dist/)', await bundleInk('bounded', [boundInkCaches()])],
		['unbounded (Ink as published)', await bundleInk('unbounded', [])],
		...(process.env['BENCH_INK8'] === '1' ? [['Ink 8.0.0 as published', await bundleInk('ink8', [], ink8Build())]] : []),
	];
	console.log(`Ink 6 text caches after ${lines.toLocaleString('en')} distinct 2 KB lines (bound: ${cacheLimit} entries per cache)`);
	for (const [label, file] of variants) {
		const run = spawnSync(process.env['BENCH_NODE'] ?? process.execPath, ['--expose-gc', '--input-type=module', '-e', measure, file, String(lines)], {encoding: 'utf8'});
		if (run.status !== 0) throw new Error(`${label}: ${run.stderr}`);
		const {kept, ms} = JSON.parse(run.stdout);
		console.log(`  ${label.padEnd(30)} heap kept ${(kept / 1024 / 1024).toFixed(1).padStart(6)} MB   ${Math.round(ms)} ms`);
	}
} finally {
	rmSync(work, {recursive: true, force: true});
}
