// Ink 6 keeps every distinct string it has ever measured or wrapped in two module-level caches
// with no bound (bounded upstream in Ink 8, which needs Node 22). A dashboard that shows endless
// fresh agent output would grow without limit: measured at ~24 MB/s under twelve floods. These
// edits bound both caches. They are applied only as Ink enters the bundle (scripts/build.mjs), so
// what users run is bounded whatever their npm does with install scripts, and node_modules/ink
// stays as the lockfile says. The build fails when Ink's files differ from the ones these edits
// were written for. `npm run bench:ink-cache` measures the bound.
import {readFileSync} from 'node:fs';

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

/** A rolldown plugin that applies the bounds to Ink's files as they enter a bundle; fails the build if it cannot. */
export function boundInkCaches() {
	const patched = new Set();
	return {
		name: 'bound-ink-caches',
		load(id) {
			const match = /[\\/]node_modules[\\/]ink[\\/]build[\\/]([^\\/]+)$/.exec(id);
			if (!match || !patchedFiles.includes(match[1])) return null;
			const text = patchInkSource(match[1], readFileSync(id, 'utf8'));
			if (text === undefined) {
				this.error(`ink/build/${match[1]} differs from the Ink the cache bounds were written for (scripts/ink-cache-bounds.mjs): update the edits for this Ink version`);
			}

			patched.add(match[1]);
			return text;
		},
		buildEnd(error) {
			// A build that already failed (in load above, say) keeps its own message.
			if (error) return;
			const missing = patchedFiles.filter(file => !patched.has(file));
			if (missing.length > 0) {
				this.error(`ink/build/${missing.join(', ')} never entered the bundle: Ink was restructured; update scripts/ink-cache-bounds.mjs`);
			}
		},
	};
}
