// Builds dist/ by bundling src/ and its dependencies with rolldown (the bundler under Vite 8).
// - Start time: one bundle instead of ~60 of our modules and the hundreds inside execa, zod, yaml
//   and Ink halves the CLI's start (~175 → ~95 ms here), which every `run` pays.
// - Ink's unbounded text caches are bounded in the bundle itself (scripts/ink-cache-bounds.mjs),
//   and only there: node_modules/ink stays as the lockfile says. Yoga's WebAssembly is decoded
//   without `fetch` (scripts/ink-yoga-load.mjs), which would load Node's HTTP client at start;
//   string-width counts more than ASCII by length (scripts/ink-string-width.mjs).
// - React is built for production (NODE_ENV), as the dashboard should run: not its dev checks.
// Type checking is tsc's job (`npm run typecheck`, and `npm run build` runs it first).
//
// Two entries: the CLI and the fake `hermes` (run directly by the demo and the tests). The CLI's
// entry is src/bin.ts, which checks the Node version before it imports the rest (src/cli.ts).
// Beside the code, dist/ gets THIRD-PARTY-LICENSES.txt (the notices of every bundled package) and
// build-stamp (what it was built from: scripts/build-if-changed.mjs).
// Left outside the bundle: write-file-atomic, CommonJS that reads its own __filename (an ES module
// bundle has none), react-devtools-core, which Ink imports only when DEV=true and we do not ship, and
// better-sqlite3 (the state.db reader), a native addon: its .node file is built for this machine at
// install time and found by `bindings` beside its own package.json, so it cannot live in a bundle.
import {execFileSync} from 'node:child_process';
import {chmodSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {rolldown} from 'rolldown';
import {buildInputsHash, stampFile} from './build-inputs.mjs';
import {boundInkCaches} from './ink-cache-bounds.mjs';
import {stringWidthNarrowRun} from './ink-string-width.mjs';
import {yogaWithoutFetch} from './ink-yoga-load.mjs';
import {licensesFile, thirdPartyLicenses} from './third-party-licenses.mjs';

// Built beside dist/ and swapped in at the end: a failed build leaves the previous dist/ whole,
// and a CLI started meanwhile (a test, a demo) never finds it half-written.
const outDir = 'dist.new';

/**
 * The commit dist/ is built from, for `--version`: `abc1234def`, `+changes` when
 * tracked files differ from it; '' outside a git checkout (a build from the package's own files).
 * build-if-changed rebuilds when a build input changes, not at every commit: the commit shown is
 * the one of the last build.
 */
function gitCommit() {
	const git = args => execFileSync('git', args, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']}).trim();
	try {
		const commit = git(['rev-parse', '--short=10', 'HEAD']);
		return git(['status', '--porcelain', '--untracked-files=no']) === '' ? commit : `${commit}+changes`;
	} catch {
		return '';
	}
}

// Hashed before bundling: a source edited during the build makes the next check rebuild.
const inputsHash = buildInputsHash();
rmSync(outDir, {recursive: true, force: true});
const bundle = await rolldown({
	input: {'cli': 'src/bin.ts', 'fake-agent/hermes': 'src/fake-agent/hermes.ts'},
	platform: 'node',
	external: [/^node:/, /^write-file-atomic$/, /^better-sqlite3$/, 'react-devtools-core'],
	tsconfig: 'tsconfig.json',
	transform: {define: {'process.env.NODE_ENV': '"production"', '__HERMES_DELEGATE_COMMIT__': JSON.stringify(gitCommit())}},
	plugins: [boundInkCaches(), yogaWithoutFetch(), stringWidthNarrowRun()],
	logLevel: 'warn',
	// An import rolldown cannot resolve would be left as a bare import of a package the installed
	// tool may not have (or have in another version than the one bundled): fail instead.
	onLog(level, log, handler) {
		handler(log.code === 'UNRESOLVED_IMPORT' ? 'error' : level, log);
	},
});
const {output} = await bundle.write({
	dir: outDir,
	format: 'esm',
	// Escaped to ASCII: Node keeps each module's source for as long as the process runs (functions are
	// compiled when first called), and V8 stores a source with a single character past U+00FF (an
	// ellipsis, a box-drawing line) as two bytes per character: 3 of the bundle's 3.5 MB were such
	// chunks, about 1.5 MB more held by the dashboard and 1 MB by the runner host (bench/RESULTS.md).
	charset: 'ascii',
	// JSDoc is for reading src/, and held with the source in memory just the same; legal comments stay.
	comments: {legal: true, annotation: true, jsdoc: false},
	// For working on the code (node --enable-source-maps); package.json leaves them out of the package.
	sourcemap: true,
	// src/package-files.ts finds the package root one folder up: shared chunks must sit in dist/.
	chunkFileNames: 'shared-[hash].js',
});
await bundle.close();
writeFileSync(path.join(outDir, licensesFile), thirdPartyLicenses(output));
writeFileSync(path.join(outDir, stampFile), `${inputsHash}\n`);

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
