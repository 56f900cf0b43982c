// Ink 6 keeps every distinct string it has ever measured or wrapped in two module-level caches
// with no bound (bounded upstream in Ink 8, which needs Node 22). A dashboard that shows endless
// fresh agent output would grow without limit: measured at ~24 MB/s under twelve floods. These
// edits bound both caches. They are applied twice:
// - by scripts/build.mjs to the Ink it bundles into dist/ — what users run, whatever their npm
//   does with install scripts (npm 11 skips them for global installs);
// - by this script, run on its own (`prepare`), to node_modules/ink itself, which the tests and
//   anything else that runs src/ load. Idempotent; it edits only those two files.
import {readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const marker = '/* hermes-delegate: bounded cache */';
export const cacheLimit = 4000;

export const patchedFiles = ['measure-text.js', 'wrap-text.js'];

const edits = {
	'measure-text.js': [
		['    cache.set(text, dimensions);', `    ${marker} if (cache.size >= ${cacheLimit}) cache.clear();\n    cache.set(text, dimensions);`],
	],
	'wrap-text.js': [
		['const cache = {};', `${marker} let cache = {}; let cacheSize = 0;`],
		['    cache[cacheKey] = wrappedText;', `    if (++cacheSize > ${cacheLimit}) { cache = {}; cacheSize = 1; }\n    cache[cacheKey] = wrappedText;`],
	],
};

/**
 * The source of ink/build/<file> with its cache bounded. `text` is unchanged if it is already
 * patched or not one of the patched files; `undefined` if this Ink differs from the one the edits
 * were written for.
 */
export function patchInkSource(file, text) {
	const replacements = edits[file];
	if (replacements === undefined || text.includes(marker)) return text;
	if (replacements.some(([find]) => !text.includes(find))) return undefined;
	return replacements.reduce((patched, [find, replace]) => patched.replace(find, replace), text);
}

export function inkBuildDir() {
	const require = createRequire(import.meta.url);
	return path.dirname(require.resolve('ink'));
}

/** Patches node_modules/ink in place; returns what happened to each file. */
export function patchInk(buildDir = inkBuildDir()) {
	const outcome = {};
	for (const file of patchedFiles) {
		const full = path.join(buildDir, file);
		const text = readFileSync(full, 'utf8');
		const patched = patchInkSource(file, text);
		if (patched === undefined) {
			outcome[file] = 'not patched: this Ink version differs from the one the patch was written for';
		} else if (patched === text) {
			outcome[file] = 'already patched';
		} else {
			writeFileSync(full, patched);
			outcome[file] = 'patched';
		}
	}

	return outcome;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const outcome = patchInk();
	const failed = Object.entries(outcome).filter(([, what]) => what.startsWith('not'));
	for (const [file, what] of failed) {
		console.warn(`hermes-delegate: ink/build/${file}: ${what}; its text caches stay unbounded (memory grows under heavy output)`);
	}
}
