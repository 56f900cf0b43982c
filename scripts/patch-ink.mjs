// Ink 6 keeps every distinct string it has ever measured or wrapped in two module-level caches
// with no bound (bounded upstream in Ink 8, which needs Node 22). A dashboard that shows endless
// fresh agent output would grow without limit: measured at ~24 MB/s under twelve floods. This
// bounds both caches. It runs after install; it is idempotent and edits only those two files.
import {readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const marker = '/* hermes-delegate: bounded cache */';
export const cacheLimit = 4000;

const edits = {
	'measure-text.js': [
		['    cache.set(text, dimensions);', `    ${marker} if (cache.size >= ${cacheLimit}) cache.clear();\n    cache.set(text, dimensions);`],
	],
	'wrap-text.js': [
		['const cache = {};', `${marker} let cache = {}; let cacheSize = 0;`],
		['    cache[cacheKey] = wrappedText;', `    if (++cacheSize > ${cacheLimit}) { cache = {}; cacheSize = 1; }\n    cache[cacheKey] = wrappedText;`],
	],
};

export function inkBuildDir() {
	const require = createRequire(import.meta.url);
	return path.dirname(require.resolve('ink'));
}

/** Applies the edits; returns what happened to each file. */
export function patchInk(buildDir = inkBuildDir()) {
	const outcome = {};
	for (const [file, replacements] of Object.entries(edits)) {
		const full = path.join(buildDir, file);
		let text = readFileSync(full, 'utf8');
		if (text.includes(marker)) {
			outcome[file] = 'already patched';
			continue;
		}

		const missing = replacements.filter(([find]) => !text.includes(find));
		if (missing.length > 0) {
			outcome[file] = 'not patched: this Ink version differs from the one the patch was written for';
			continue;
		}

		for (const [find, replace] of replacements) {
			text = text.replace(find, replace);
		}

		writeFileSync(full, text);
		outcome[file] = 'patched';
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
