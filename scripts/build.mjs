// Builds dist/ by bundling src/ with rolldown (the bundler under Vite 8). One bundle instead of
// ~60 of our modules and the hundreds inside execa, zod and yaml halves the CLI's start time
// (~175 → ~95 ms here), which every `run` and every test of the CLI pays. Type checking is tsc's
// job (`npm run typecheck`); this only transforms.
//
// Two entries, as before: the CLI and the fake `hermes` (run directly by the demo and the tests).
// Some packages stay outside the bundle, loaded from node_modules as before: Ink, patched there by
// scripts/patch-ink.mjs; React, of which one copy must serve Ink and our components alike; and
// write-file-atomic, CommonJS that reads its own __filename, which an ES module bundle lacks.
import {chmodSync, renameSync, rmSync} from 'node:fs';
import {rolldown} from 'rolldown';

// Built beside dist/ and swapped in at the end: a failed build leaves the previous dist/ whole,
// and a CLI started meanwhile (a test, a demo) never finds it half-written.
const outDir = 'dist.new';
const external = [/^node:/, /^ink(\/|$)/, /^react(\/|$)/, /^write-file-atomic$/];

rmSync(outDir, {recursive: true, force: true});
const bundle = await rolldown({
	input: {'cli': 'src/cli.ts', 'fake-agent/hermes': 'src/fake-agent/hermes.ts'},
	platform: 'node',
	external,
	tsconfig: 'tsconfig.json',
	logLevel: 'warn',
});
await bundle.write({
	dir: outDir,
	format: 'esm',
	sourcemap: true,
	// src/package-files.ts finds the package root one folder up: shared chunks must sit in dist/.
	chunkFileNames: 'shared-[hash].js',
});
await bundle.close();

// Both entries are executed directly (the fake agent stands in for `hermes`, which is always
// exec'd, never `node hermes.js`), and bundlers do not set the executable bit.
for (const file of [`${outDir}/cli.js`, `${outDir}/fake-agent/hermes.js`]) {
	chmodSync(file, 0o755);
}

rmSync('dist.old', {recursive: true, force: true});
try {
	renameSync('dist', 'dist.old');
} catch (error) {
	if (error.code !== 'ENOENT') throw error;
}

renameSync(outDir, 'dist');
rmSync('dist.old', {recursive: true, force: true});
