// "Today's" dashboard of issue 24, built to be measured beside the current one: the last commit
// of main before the runner host landed (679ad87's first parent), whose `tui` ran the batch in the
// dashboard's own process. Issue 24 asks the host's figures to stay within 10 % of that one's;
// measuring both in the same suite run, alternating, makes the comparison hold on any machine
// (the recorded figures of session 19 were taken on another machine with other neighbours).
//
// Built once into bench/.cache/in-process-<commit>/ (git-ignored) from `git archive` of that
// commit, bundled by its own scripts/build.mjs with this checkout's node_modules (linked entry
// by entry; the same versions of everything it bundles, except p-limit, which main has dropped
// since and which is installed beside it from the npm registry, as mprocs is). No type check:
// that commit's own CI did it. Never part of what users get: the suite alone runs it.
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readdirSync, rmSync, symlinkSync} from 'node:fs';
import path from 'node:path';

export const inProcessCommit = '1b62c5b2e9792f4f02b7917e23de711fb6a95b10';
const extraPackages = ['p-limit@7.3.3'];

function run(file, args, options) {
	const result = spawnSync(file, args, {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options});
	if (result.status !== 0) {
		throw new Error(`${file} ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
	}

	return result.stdout;
}

/** dist/cli.js of the in-process build ({cli}), built now if it is not yet; or {skipped: why}. */
export function inProcessBuild(repo, cacheFolder) {
	const cache = path.resolve(cacheFolder);
	const folder = path.join(cache, `in-process-${inProcessCommit.slice(0, 7)}`);
	const cli = path.join(folder, 'dist', 'cli.js');
	if (existsSync(cli)) {
		return {cli, commit: inProcessCommit};
	}

	try {
		rmSync(folder, {recursive: true, force: true});
		mkdirSync(folder, {recursive: true});
		// The source only: no .git of its own, nothing it could commit.
		const archive = path.join(cache, 'in-process.tar');
		run('git', ['-C', repo, 'archive', '--format=tar', '-o', archive, inProcessCommit, 'src', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'LICENSE', 'themes']);
		run('tar', ['-xf', archive, '-C', folder]);
		rmSync(archive);
		const extras = path.join(cache, 'in-process-deps');
		if (!existsSync(path.join(extras, 'node_modules', 'p-limit'))) {
			const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
			run(npm, ['install', '--prefix', extras, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ...extraPackages]);
		}

		const modules = path.join(folder, 'node_modules');
		mkdirSync(modules);
		for (const source of [path.resolve(repo, 'node_modules'), path.join(extras, 'node_modules')]) {
			for (const name of readdirSync(source)) {
				if (name.startsWith('.') || existsSync(path.join(modules, name))) continue;
				symlinkSync(path.join(source, name), path.join(modules, name));
			}
		}

		run(process.execPath, ['scripts/build.mjs'], {cwd: folder});
		return {cli, commit: inProcessCommit};
	} catch (error) {
		rmSync(folder, {recursive: true, force: true});
		return {skipped: `skipped: building ${inProcessCommit.slice(0, 7)} failed: ${error.message}`};
	}
}
