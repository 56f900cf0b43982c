// The tools hermes-delegate is compared with. mprocs comes from the npm registry into
// bench/.cache (installed on first use, no system change); GNU parallel and xargs are used where
// the machine has them. A missing one is reported with the reason, never left out silently.
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const mprocsVersion = process.env.BENCH_MPROCS_VERSION ?? '0.9.6';

function firstLine(file, args) {
	const result = spawnSync(file, args, {encoding: 'utf8'});
	return result.status === 0 ? (result.stdout || result.stderr).split('\n')[0].trim() : undefined;
}

function mprocsBinary(cache) {
	const folder = path.join(cache, 'node_modules', 'mprocs');
	if (!existsSync(path.join(folder, 'package.json'))) {
		return undefined;
	}

	const {version} = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
	// The package's cli.js is a Node wrapper that spawns the native binary: the suite runs the
	// binary itself, so that the process it measures is mprocs and nothing else.
	const target = {'linux-x64': 'linux-x86_64-musl', 'linux-arm64': 'linux-aarch64-musl', 'darwin-x64': 'darwin-x86_64', 'darwin-arm64': 'darwin-aarch64'}[`${process.platform}-${process.arch}`];
	const binary = target && path.join(folder, `mprocs-${version}-${target}`, 'mprocs');
	return version === mprocsVersion && binary && existsSync(binary) ? binary : undefined;
}

/** {mprocs, parallel, xargs}: each {path, version} or {skipped: why}. */
export function findBaselines(cache) {
	let mprocs = mprocsBinary(cache);
	let mprocsProblem = '';
	if (!mprocs) {
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const install = spawnSync(npm, ['install', '--prefix', cache, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `mprocs@${mprocsVersion}`], {encoding: 'utf8'});
		mprocs = mprocsBinary(cache);
		mprocsProblem = install.status === 0 ? `mprocs@${mprocsVersion} has no binary for ${process.platform}-${process.arch}` : `npm install mprocs@${mprocsVersion} failed: ${(install.stderr || '').trim().split('\n').at(-1)}`;
	}

	const parallelVersion = firstLine('parallel', ['--version']);
	const xargsVersion = firstLine('xargs', ['--version']);
	return {
		mprocs: mprocs ? {path: mprocs, version: firstLine(mprocs, ['--version']) ?? `mprocs ${mprocsVersion}`} : {skipped: `skipped: ${mprocsProblem}`},
		parallel: parallelVersion?.startsWith('GNU parallel') ? {path: 'parallel', version: parallelVersion} : {skipped: 'skipped: GNU parallel not installed (apt-get install parallel)'},
		xargs: xargsVersion ? {path: 'xargs', version: xargsVersion} : {skipped: 'skipped: xargs not installed (findutils)'},
	};
}

export function machineDetails(baselines, hermesDelegateVersion) {
	const cpus = os.cpus();
	const tool = (name, baseline) => `${name}: ${baseline.version ?? baseline.skipped}`;
	return [
		`${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, load average ${os.loadavg().map(load => load.toFixed(2)).join(' ')} at the start`,
		`${os.type()} ${os.release()}, node ${process.version}, hermes-delegate ${hermesDelegateVersion}, ${firstLine('tmux', ['-V']) ?? 'tmux missing'}`,
		[tool('mprocs', baselines.mprocs), tool('parallel', baselines.parallel), tool('xargs', baselines.xargs)].join(' · '),
	];
}
