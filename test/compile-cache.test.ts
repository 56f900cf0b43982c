// The CLI keeps Node's compile cache in hermes-delegate's folder of the user's cache
// (src/compile-cache.ts) where the Node has one (22.1 and later), and writes nothing where it has
// none (Node 20). Run on the built CLI, on whichever Node runs the tests: CI runs them on 20, 22
// and 24.
import module from 'node:module';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {compileCacheDir} from '../src/compile-cache.js';
import {cliPath, makeHome, type TestHome} from './helpers/run-cli.js';
import {waitFor} from './helpers/wait-for.js';

const nodeHasCache = typeof (module as {enableCompileCache?: unknown}).enableCompileCache === 'function';

let home: TestHome | undefined;
afterEach(() => home?.remove());

/** Every file under `folder`, relative to it. */
function filesUnder(folder: string): string[] {
	return existsSync(folder) ? readdirSync(folder, {recursive: true, withFileTypes: true}).filter(entry => entry.isFile()).map(entry => path.relative(folder, path.join(entry.parentPath, entry.name))) : [];
}

async function version(env: NodeJS.ProcessEnv): Promise<void> {
	const result = await execa(process.execPath, [cliPath, '--version'], {env: {PATH: process.env['PATH'], ...env}, extendEnv: false, reject: false});
	expect(result.exitCode, result.stderr).toBe(0);
}

describe('the compile cache', () => {
	it('lives under XDG_CACHE_HOME when that is an absolute path, else under ~/.cache', () => {
		expect(compileCacheDir({XDG_CACHE_HOME: '/x/cache'})).toBe('/x/cache/hermes-delegate/compile-cache');
		expect(compileCacheDir({XDG_CACHE_HOME: 'relative/cache'})).toBe(path.join(homedir(), '.cache', 'hermes-delegate', 'compile-cache'));
		expect(compileCacheDir({})).toBe(path.join(homedir(), '.cache', 'hermes-delegate', 'compile-cache'));
	});

	it(`is written by the CLI's first start ${nodeHasCache ? '' : '(nothing: this Node has no compile cache) '}on Node ${process.versions.node}`, async () => {
		home = makeHome();
		const cache = path.join(home.dir, '.cache');
		await version({HOME: home.dir, XDG_CACHE_HOME: cache});
		const files = filesUnder(compileCacheDir({XDG_CACHE_HOME: cache}));
		if (nodeHasCache) expect(files.length).toBeGreaterThan(0);
		else expect(files).toEqual([]);
		// Nothing of it anywhere else in the cache folder.
		expect(filesUnder(cache).filter(file => !file.startsWith(path.join('hermes-delegate', 'compile-cache')))).toEqual([]);
	});

	it('is not written with NODE_DISABLE_COMPILE_CACHE=1, and goes where NODE_COMPILE_CACHE says', async () => {
		home = makeHome();
		const cache = path.join(home.dir, '.cache');
		await version({HOME: home.dir, XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1'});
		expect(filesUnder(cache)).toEqual([]);
		const elsewhere = path.join(home.dir, 'elsewhere');
		await version({HOME: home.dir, XDG_CACHE_HOME: cache, NODE_COMPILE_CACHE: elsewhere});
		expect(filesUnder(cache)).toEqual([]);
		expect(filesUnder(elsewhere).length > 0).toBe(nodeHasCache);
	});

	it('costs only the cache where its folder cannot be made, /proc included (where a recursive mkdir never returns)', async () => {
		home = makeHome();
		for (const base of ['/proc/hermes-delegate-test', '/dev/null/cache', path.join(home.dir, 'file')]) {
			if (base.startsWith(home.dir)) writeFileSync(base, '');
			const result = await execa(process.execPath, [cliPath, '--version'], {env: {PATH: process.env['PATH'], HOME: home.dir, XDG_CACHE_HOME: base}, extendEnv: false, reject: false, timeout: 15_000});
			expect(result.timedOut, base).toBe(false);
			expect(result.exitCode, result.stderr).toBe(0);
			expect(result.stderr).toBe('');
		}
	});

	it('is written by the foreground only, not by the runner host it started (which may end after it)', async () => {
		home = makeHome();
		const cache = path.join(home.dir, '.cache');
		// `tui --help` starts an early runner host, which ends, unadopted, once the foreground has.
		const result = await execa(process.execPath, [cliPath, 'tui', '--help'], {env: {PATH: process.env['PATH'], HOME: home.dir, XDG_CACHE_HOME: cache}, extendEnv: false, reject: false});
		expect(result.exitCode, result.stderr).toBe(0);
		const byForeground = filesUnder(cache);
		await waitFor(() => earlyHostsOf(home!.dir).length === 0, {message: 'the unadopted runner host to end'});
		expect(filesUnder(cache)).toEqual(byForeground);
	});
});

/** Runner hosts (`__host`) of this checkout's CLI running with HOME=`dir`. */
function earlyHostsOf(dir: string): number[] {
	return readdirSync('/proc').filter(entry => /^\d+$/.test(entry)).filter(pid => {
		try {
			const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
			return argv.includes(cliPath) && argv.includes('__host') && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HOME=${dir}`);
		} catch {
			return false; // gone, or not ours to read
		}
	}).map(Number);
}

