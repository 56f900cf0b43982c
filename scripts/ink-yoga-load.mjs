// An edit to yoga-layout (Ink's layout engine) applied only as it enters the bundle
// (scripts/build.mjs), as the Ink edits are (scripts/ink-cache-bounds.mjs).
//
// yoga-layout ships its WebAssembly as a base64 `data:` URL inside its JavaScript. Emscripten's
// loader reads it with `fetch` whenever the global exists, and Node has had one since 18: the
// dashboard's start then loads Node's whole HTTP client (undici, compiled at first use) to
// decode a string it holds already. The loader's own fallback, used where `fetch` is missing,
// decodes the base64 in place; the edit makes it the only path. Nothing else of the dashboard
// uses `fetch`, so undici is never loaded (bench/RESULTS.md, 2026-12-06).
import {readFileSync} from 'node:fs';

export const yogaFile = 'yoga-wasm-base64-esm.js';

// The loader's `getBinaryPromise`: fetch when it exists, else the synchronous decode.
const find = 'function ya(){return w||"function"!=typeof fetch?';
const replace = 'function ya(){return true?';

/**
 * yoga-layout's loader without `fetch`; `undefined` if this yoga-layout differs from the one the
 * edit was written for.
 */
export function patchYogaSource(text) {
	if (!text.includes(find)) return undefined;
	return text.replace(find, replace);
}

/** A rolldown plugin that applies the edit as yoga-layout enters a bundle; fails the build if it cannot. */
export function yogaWithoutFetch() {
	let patched = false;
	return {
		name: 'yoga-without-fetch',
		load(id) {
			if (!/[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/.test(id)) return null;
			const text = patchYogaSource(readFileSync(id, 'utf8'));
			if (text === undefined) {
				this.error(`yoga-layout's ${yogaFile} differs from the one scripts/ink-yoga-load.mjs was written for: update the edit for this version`);
			}

			patched = true;
			return text;
		},
		buildEnd(error) {
			if (error || patched) return;
			this.error(`yoga-layout's ${yogaFile} never entered the bundle: update scripts/ink-yoga-load.mjs`);
		},
	};
}
