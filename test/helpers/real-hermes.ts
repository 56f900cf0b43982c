// Where a real `hermes` is for the tests in test/hermes/, or why they skip. Two sources:
// HERMES_REAL_BIN (one binary of yours: its `--version` says which release it is), or what
// `npm run hermes:install` put in .cache/hermes/<version>/. Hermes cannot be installed on most
// machines here (no package index has it), CI included, so a missing release is a skip with one
// line saying why, in CI too; the fake agent is held against the recorded runs instead
// (test/contract/).
import {execFileSync} from 'node:child_process';
import {accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {execa} from 'execa';
import {signalGroup} from '../../src/core/process/group.js';

export const realHermesVersions = ['0.19.0', '0.20.0'] as const;
export type RealHermesVersion = (typeof realHermesVersions)[number];

export type RealHermes = {version: RealHermesVersion; bin: string; skip?: undefined} | {version: RealHermesVersion; bin?: undefined; skip: string};

const cacheDir = fileURLToPath(new URL('../../.cache/hermes/', import.meta.url));

/** The release a binary says it is (`Hermes Agent vX.Y.Z (…)`), asked in a throw-away home. */
function releaseOf(bin: string): string | undefined {
	const home = mkdtempSync(path.join(tmpdir(), 'hermes-version-'));
	try {
		const said = execFileSync(bin, ['--version'], {env: {...process.env, HERMES_HOME: home}, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000});
		return /^Hermes Agent v(\d+\.\d+\.\d+)\b/m.exec(said)?.[1];
	} catch {
		return undefined;
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
}

let fromEnvironment: {bin: string; release: string | undefined} | undefined;

/** The real `hermes` of VERSION, or why there is none (with what to do about it). */
export function realHermes(version: RealHermesVersion): RealHermes {
	const named = process.env['HERMES_REAL_BIN'];
	if (named !== undefined && named !== '') {
		fromEnvironment ??= {bin: named, release: releaseOf(named)};
		if (fromEnvironment.release === version) return {version, bin: named};
		const said = fromEnvironment.release === undefined ? 'does not answer `--version` as Hermes does' : `is ${fromEnvironment.release}`;
		return {version, skip: `real Hermes ${version}: HERMES_REAL_BIN=${named} ${said}`};
	}

	const bin = path.join(cacheDir, version, 'bin', 'hermes');
	try {
		accessSync(bin, constants.X_OK);
		return {version, bin};
	} catch {
		const reasonFile = path.join(cacheDir, `${version}.skip`);
		const why = existsSync(reasonFile) ? readFileSync(reasonFile, 'utf8').trim() : `${bin} does not exist`;
		return {version, skip: `real Hermes ${version} is not installed (${why}); set HERMES_REAL_BIN to a hermes binary, or run \`npm run hermes:install\` where a package index has it`};
	}
}

/** Every release, for `describe.each`; logs each skip once so a skipped run says why. */
export function realHermesReleases(): RealHermes[] {
	return realHermesVersions.map(version => {
		const found = realHermes(version);
		if (found.skip !== undefined) console.warn(`skipping tests against ${found.skip}`);
		return found;
	});
}

export type HermesRun = {exitCode: number | undefined; signal: string | undefined; stdout: string; stderr: string};

const startedGroups = new Set<number>();

/**
 * Starts the real `hermes ARGS` in its own process group (as hermes-delegate does), stdin on
 * /dev/null, with exactly ENV. `signal` sends a signal to its whole group.
 */
export function startHermes(bin: string, args: readonly string[], env: Record<string, string>) {
	const child = execa(bin, args, {env, extendEnv: false, stdin: 'ignore', reject: false, stripFinalNewline: false, detached: true});
	if (child.pid !== undefined) startedGroups.add(child.pid);
	const done: Promise<HermesRun> = child.then(result => {
		if (child.pid !== undefined) startedGroups.delete(child.pid);
		return {exitCode: result.exitCode, signal: result.signal, stdout: String(result.stdout), stderr: String(result.stderr)};
	});
	return {
		done,
		signal(name: NodeJS.Signals) {
			if (child.pid !== undefined) signalGroup(child.pid, name);
		},
	};
}

/** Runs the real `hermes ARGS` to completion. */
export async function runHermes(bin: string, args: readonly string[], env: Record<string, string>): Promise<HermesRun> {
	return startHermes(bin, args, env).done;
}

/** For afterAll: SIGKILL the group of any hermes a failed test left running. */
export function killStartedHermes(): void {
	for (const pgid of startedGroups) signalGroup(pgid, 'SIGKILL');
	startedGroups.clear();
}

/**
 * Live (not zombie) processes anywhere on the machine whose argv matches: for tools a subagent
 * started, which Hermes puts in a session of their own, out of reach of its process group.
 */
export function livingProcesses(match: (argv: string[]) => boolean): number[] {
	const found: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
			const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
			if (match(argv)) found.push(Number(entry));
		} catch {
			// It ended while we looked.
		}
	}

	return found;
}
