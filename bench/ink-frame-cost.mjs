// What Ink's Output costs a frame of the dashboard's slow trickle (its get(): the screen's rows
// from the frame's writes), as published, with this checkout's build edits
// (scripts/ink-cache-bounds.mjs) and, given BENCH_EDITS_BEFORE (another copy of that file), with
// those: a change's before and after in-process, without the run-to-run noise of a whole
// dashboard on a shared machine. The frames are made up to look like the dashboard's list layout
// at 200×50: a header, 22 task rows of five pieces each, the focused pane (border, title, route,
// "last output" line and 15 lines of output) and a footer; of each three frames, one is the
// clock's (the header, every row's elapsed time, the pane's badge and activity line) and two are
// the pane's output moving up a line. Numbers, not a test: `node bench/ink-frame-cost.mjs`.
// BENCH_FRAMES (600 a round), BENCH_RUNS (5 rounds, the variants alternating).
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {rolldown} from 'rolldown';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const frameCount = Number(env.BENCH_FRAMES ?? 600);
const runs = Number(env.BENCH_RUNS ?? 5);
const inkBuild = path.dirname(createRequire(import.meta.url).resolve('ink'));
// Inside the checkout (bench/.cache is git-ignored), so that the bundles find Ink's packages.
mkdirSync(path.join(here, '.cache'), {recursive: true});
const work = mkdtempSync(path.join(here, '.cache', 'ink-frame-cost-'));
process.on('exit', () => rmSync(work, {recursive: true, force: true}));

/** Ink's Output bundled with the edits of `editsFile` (none: as published). */
async function outputOf(name, editsFile) {
	const edits = editsFile === undefined ? undefined : await import(pathToFileURL(editsFile).href);
	const entry = path.join(work, `${name}-entry.mjs`);
	const others = (edits?.patchedFiles ?? []).filter(file => file !== 'output.js');
	writeFileSync(entry, [`export {default as Output} from ${JSON.stringify(path.join(inkBuild, 'output.js'))};`, ...others.map(file => `import ${JSON.stringify(path.join(inkBuild, file))};`)].join('\n'));
	const bundle = await rolldown({input: entry, platform: 'node', external: [/^node:/, /^[a-z@]/], plugins: edits ? [edits.boundInkCaches()] : [], logLevel: 'silent'});
	// A folder: the edited reconciler.js loads Ink's devtools as a chunk of their own.
	const file = path.join(work, name, 'entry.mjs');
	await bundle.write({dir: path.join(work, name), format: 'esm', entryFileNames: 'entry.mjs'});
	await bundle.close();
	return (await import(pathToFileURL(file).href)).Output;
}

const width = 200;
const height = 49;
/** Ink's Text colours its lines as Output writes them (a transformer, chalk): a new string each frame. */
const colour = code => ({transformers: code === undefined ? [] : [line => `\u001B[${code}m${line}\u001B[39m`]});
const bold = {transformers: [line => `\u001B[1m${line}\u001B[22m`]};

/** The writes of frame `n`: second `n / 3`, the pane's output moved up `n - second` lines. */
function frame(n) {
	const second = Math.floor(n / 3);
	const writes = [];
	const write = (x, y, text, options = colour()) => writes.push({x, y, text, options});
	write(0, 0, 'hermes-delegate', colour(35));
	write(15, 0, ` · ${Math.floor(second / 60)}m ${String(second % 60).padStart(2, '0')}s · model routes · concurrency 32 · run 20261206-181500-abcd`, colour(36));
	write(0, 1, '32 tasks', colour(36));
	write(8, 1, '  ● 32 running', colour(33));
	for (let row = 0; row < 22; row++) {
		const y = 2 + row;
		write(0, y, row === 0 ? '›' : ' ', row === 0 ? bold : colour());
		write(1, y, ` T${String(row + 1).padStart(2, '0')} `);
		write(7, y, `running ${second + 40 + row}s`, colour(33));
		write(23, y, `Summarise the change log of package ${row} and say what broke`, colour(37));
		write(90, y, `anthropic/claude-sonnet · profile coder-${row % 4}`, colour(90));
	}

	const top = 24;
	const pane = 24;
	writes.push({clip: {x1: 0, x2: width, y1: top, y2: top + pane}});
	write(0, top, `┏${'━'.repeat(width - 2)}┓`, colour(34));
	write(0, top + 1, Array.from({length: pane - 2}, () => '┃').join('\n'), colour(34));
	write(width - 1, top + 1, Array.from({length: pane - 2}, () => '┃').join('\n'), colour(34));
	write(0, top + pane - 1, `┗${'━'.repeat(width - 2)}┛`, colour(34));
	writes.push({clip: {x1: 2, x2: width - 2, y1: top + 1, y2: top + pane - 1}});
	write(2, top + 1, 'T01 Summarise the change log of package 0 and say what broke', bold);
	write(width - 16, top + 1, `running ${second + 40}s`, colour(33));
	write(2, top + 2, 'anthropic/claude-sonnet · profile coder-0 · reasoning medium', colour(90));
	write(2, top + 3, `last output ${n % 3 === 0 ? 1 : 0}s ago`, colour(90));
	const first = n - Math.floor(n / 3);
	write(2, top + 4, Array.from({length: 15}, (_, index) => `line ${first + index} of the agent's output: reading src/${first + index}.ts and thinking about it`).join('\n'));
	writes.push({unclip: true}, {unclip: true});
	write(0, height - 1, 'Tab focus · Enter zoom · c cancel · r route · / filter · ? help · q quit', colour(90));
	return writes;
}

const frames = Array.from({length: frameCount}, (_, n) => frame(n));

function draw(Output, writes) {
	const output = new Output({width, height});
	for (const entry of writes) {
		if (entry.clip) output.clip(entry.clip);
		else if (entry.unclip) output.unclip();
		else output.write(entry.x, entry.y, entry.text, entry.options);
	}

	return output.get().output;
}

const variants = [['published', await outputOf('published')]];
if (env.BENCH_EDITS_BEFORE) variants.push(['edits before', await outputOf('before', path.resolve(env.BENCH_EDITS_BEFORE))]);
variants.push(['this checkout', await outputOf('after', path.join(here, '..', 'scripts', 'ink-cache-bounds.mjs'))]);

// Every variant draws the same screens (the frame edits are tested to; checked here too).
for (const n of [0, 1, 2, 3]) {
	const texts = variants.map(([, Output]) => draw(Output, frames[n]));
	if (texts.some(text => text !== texts[0])) throw new Error(`frame ${n} differs between the variants`);
}

const times = new Map(variants.map(([name]) => [name, []]));
for (let run = 0; run < runs + 1; run++) {
	for (const [name, Output] of variants) {
		const start = performance.now();
		for (const writes of frames) draw(Output, writes);
		// The first round warms up every variant: not counted.
		if (run > 0) times.get(name).push((performance.now() - start) / frames.length);
	}
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`Ink's Output.get() for a frame of the slow trickle's list layout (${width}×${height}), ms a frame, median of ${runs} rounds of ${frameCount} frames (spread):`);
for (const [name, list] of times) {
	console.log(`  ${name.padEnd(14)} ${median(list).toFixed(3)} (${Math.min(...list).toFixed(3)}–${Math.max(...list).toFixed(3)})`);
}
