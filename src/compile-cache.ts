// Node's compile cache (Node 22.1 and later): V8's compiled code of each module of the bundle is
// kept on disk after the first start, so a later start compiles only what changed. `run` pays its
// start once per batch, and a short batch is mostly its start (bench/RESULTS.md, 2026-12-06,
// "`run`'s CPU against GNU parallel"). On Node 20, which has no such cache, nothing happens.
//
// Kept beside the probe's cache (core/hermes/probe.ts), in hermes-delegate's folder of the user's
// cache, not in Node's default of a folder shared by every program in the system's temporary folder.
// NODE_COMPILE_CACHE (another folder) and NODE_DISABLE_COMPILE_CACHE=1 (none) are Node's own
// switches and are obeyed. A folder that cannot be made only costs the cache, and says nothing.
import {mkdirSync} from 'node:fs';
import module from 'node:module';
import {homedir} from 'node:os';
import path from 'node:path';

/** Where the cache goes: `$XDG_CACHE_HOME/hermes-delegate/compile-cache`, else `~/.cache/hermes-delegate/compile-cache`. */
export function compileCacheDir(env: NodeJS.ProcessEnv): string {
	const base = env['XDG_CACHE_HOME'] && path.isAbsolute(env['XDG_CACHE_HOME']) ? env['XDG_CACHE_HOME'] : path.join(homedir(), '.cache');
	return path.join(base, 'hermes-delegate', 'compile-cache');
}

/**
 * Makes each missing folder of `dir` below `from`, one level at a time: Node's recursive mkdir (its
 * own, and the one enableCompileCache does) never returns under /proc, where a mkdir fails with
 * ENOENT however often it is retried. False when a level cannot be made.
 */
function madeFolders(from: string, dir: string): boolean {
	let folder = from;
	for (const part of path.relative(from, dir).split(path.sep)) {
		folder = path.join(folder, part);
		try {
			mkdirSync(folder, {mode: 0o700});
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
		}
	}

	return true;
}

export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
	const enable = (module as {enableCompileCache?: (dir?: string) => unknown}).enableCompileCache;
	if (enable === undefined) return;
	try {
		// With NODE_COMPILE_CACHE set Node has enabled it already, in that folder.
		if (env['NODE_COMPILE_CACHE']) {
			enable();
			return;
		}

		const dir = compileCacheDir(env);
		if (madeFolders(path.parse(dir).root, dir)) enable(dir);
	} catch {
		// Never a reason not to start (homedir() can throw without a home).
	}
}
