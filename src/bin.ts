#!/usr/bin/env node
// The executable (dist/cli.js). It checks the Node version before loading anything else: the CLI
// and its libraries live in other chunks of the bundle, imported only once the check has passed,
// so an old Node gets a message, not a crash in a library. Keep this file free of imports other
// than node-support.ts, and of syntax an old Node cannot parse; the young generation's cap
// (young-generation.ts) and the compile cache (compile-cache.ts) use only node: modules an old
// Node has.
import {unsupportedNode} from './node-support.js';

const problem = unsupportedNode(process.versions.node);
if (problem === undefined) {
	const args = process.argv.slice(2);
	// Node 22 and later keep the compiled bundle on disk (compile-cache.ts): enabled before anything
	// of the bundle loads, so all of it is cached. Without it everything works as before: a chunk
	// that cannot be opened (a tiny `ulimit -n`) only costs the cache, and the error report below.
	// Not in the runner host: Node writes the cache as a process exits, and a host may end after
	// its foreground (an early host nobody adopted, after `tui --help`), writing into a cache
	// folder that whoever ran the foreground may be removing; its start overlaps the foreground's.
	if (args[0] !== '__host') {
		try {
			(await import('./compile-cache.js')).enableCompileCache();
		} catch {}
	}

	// The runner host of `tui`, `demo` and `run --detach` starts first, so that its start overlaps this one's.
	if (process.argv[1] !== undefined && args[0] !== '__host') {
		const early = await import('./early-host.js');
		if (early.wantsHost(args)) early.startEarlyHost(process.argv[1]);
	}

	// Before the CLI loads: loading it is what first grows the young generation.
	(await import('./young-generation.js')).capYoungGeneration();
	try {
		// The runner host (client/launch.ts starts it so) loads only what it runs: host-process.ts.
		if (process.argv.length === 3 && process.argv[2] === '__host') await import('./host-process.js');
		else await import('./cli.js');
	} catch (error) {
		// Loading the bundle opens its chunks: under a tiny `ulimit -n` that fails before any of our
		// error reporting exists, and Node would print its stack and exit 1.
		const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
		if (code !== 'EMFILE' && code !== 'ENFILE') throw error;
		process.stderr.write(`hermes-delegate: too few open files allowed to load hermes-delegate (${code}: ${code === 'EMFILE' ? 'the ulimit -n of this process' : 'the whole system'} is used up)\n  fix: raise the open-files limit, e.g. \`ulimit -n 1024\`, then run it again\n`);
		process.exitCode = 2; // nothing was started (core/errors.ts exitCodes.usage)
	}
} else {
	process.stderr.write(`${problem}\n`);
	process.exitCode = 2; // as for every refusal before anything started (core/errors.ts exitCodes.usage)
}
