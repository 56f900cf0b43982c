// Builds dist/ by bundling src/ and its dependencies with rolldown (the bundler under Vite 8).
// - Start time: one bundle instead of ~60 of our modules and the hundreds inside execa, zod, yaml
//   and Ink halves the CLI's start (~175 → ~95 ms here), which every `run` pays.
// - Ink's unbounded text caches are bounded in the bundle itself (scripts/patch-ink.mjs), so the
//   dashboard does not depend on an install script having run.
// - React is built for production (NODE_ENV), as the dashboard should run: not its dev checks.
// Type checking is tsc's job (`npm run typecheck`, and `npm run build` runs it first).
//
// Two entries: the CLI and the fake `hermes` (run directly by the demo and the tests).
// Left outside the bundle: write-file-atomic, CommonJS that reads its own __filename (an ES module
// bundle has none), and react-devtools-core, which Ink imports only when DEV=true and we do not ship.
import {chmodSync, readFileSync, renameSync, rmSync} from 'node:fs';
import path from 'node:path';
import {rolldown} from 'rolldown';
import {patchedFiles, patchInkSource} from './patch-ink.mjs';

// Built beside dist/ and swapped in at the end: a failed build leaves the previous dist/ whole,
// and a CLI started meanwhile (a test, a demo) never finds it half-written.
const outDir = 'dist.new';

/** Applies the cache bounds to Ink's files as they enter the bundle; fails the build if it cannot. */
function boundInkCaches() {
	const patched = new Set();
	return {
		name: 'bound-ink-caches',
		load(id) {
			const match = /[\\/]node_modules[\\/]ink[\\/]build[\\/]([^\\/]+)$/.exec(id);
			if (!match || !patchedFiles.includes(match[1])) return null;
			const text = patchInkSource(match[1], readFileSync(id, 'utf8'));
			if (text === undefined) {
				this.error(`ink/build/${match[1]} differs from the Ink the cache bounds were written for (scripts/patch-ink.mjs): update the edits for this Ink version`);
			}

			patched.add(match[1]);
			return text;
		},
		buildEnd() {
			const missing = patchedFiles.filter(file => !patched.has(file));
			if (missing.length > 0) {
				this.error(`ink/build/${missing.join(', ')} never entered the bundle: Ink was restructured; update scripts/patch-ink.mjs`);
			}
		},
	};
}

rmSync(outDir, {recursive: true, force: true});
const bundle = await rolldown({
	input: {'cli': 'src/cli.ts', 'fake-agent/hermes': 'src/fake-agent/hermes.ts'},
	platform: 'node',
	external: [/^node:/, /^write-file-atomic$/, 'react-devtools-core'],
	tsconfig: 'tsconfig.json',
	transform: {define: {'process.env.NODE_ENV': '"production"'}},
	plugins: [boundInkCaches()],
	logLevel: 'warn',
	// An import rolldown cannot resolve would be left as a bare import of a package the installed
	// tool does not have (all but write-file-atomic are development dependencies): fail instead.
	onLog(level, log, handler) {
		handler(log.code === 'UNRESOLVED_IMPORT' ? 'error' : level, log);
	},
});
await bundle.write({
	dir: outDir,
	format: 'esm',
	// For working on the code (node --enable-source-maps); package.json leaves them out of the package.
	sourcemap: true,
	// src/package-files.ts finds the package root one folder up: shared chunks must sit in dist/.
	chunkFileNames: 'shared-[hash].js',
});
await bundle.close();

// Both entries are executed directly (the fake agent stands in for `hermes`, which is always
// exec'd, never `node hermes.js`), and bundlers do not set the executable bit.
for (const file of ['cli.js', 'fake-agent/hermes.js']) {
	chmodSync(path.join(outDir, file), 0o755);
}

rmSync('dist.old', {recursive: true, force: true});
try {
	renameSync('dist', 'dist.old');
} catch (error) {
	if (error.code !== 'ENOENT') throw error;
}

renameSync(outDir, 'dist');
rmSync('dist.old', {recursive: true, force: true});
