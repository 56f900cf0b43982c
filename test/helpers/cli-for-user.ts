// The built CLI as another user can run it. Some tests run it as nobody (root may read and write
// anywhere, so only another user meets "permission denied"), but a checkout inside a folder only
// root may enter (a clone in `mktemp -d`, 0700) is closed to nobody. Then the CLI runs from a
// copy of what it needs, in a folder anyone may read: dist/ (the CLI and the fake agent),
// package.json, themes/, and the packages left outside the bundle (package.json's dependencies:
// better-sqlite3, which `run` loads with spend, and write-file-atomic) with theirs.
import {spawnSync} from 'node:child_process';
import {chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cliPath} from './run-cli.js';
import {fakeAgentPath} from './processes.js';

export type CliForUser = {cli: string; fakeAgent: string; remove(): void};

export function cliForUser(uid: number, gid: number = uid): CliForUser {
	const reachable = spawnSync('test', ['-r', cliPath, '-a', '-x', fakeAgentPath], {uid, gid}).status === 0;
	if (reachable) {
		return {cli: cliPath, fakeAgent: fakeAgentPath, remove() {}};
	}

	const root = path.resolve(path.dirname(cliPath), '..');
	const copy = mkdtempSync(path.join(tmpdir(), 'hd-cli-for-user-'));
	chmodSync(copy, 0o755);
	for (const part of ['dist', 'package.json', 'themes', ...runtimePackages(root).map(name => path.join('node_modules', name))]) {
		cpSync(path.join(root, part), path.join(copy, part), {recursive: true});
	}

	return {
		cli: path.join(copy, path.relative(root, cliPath)),
		fakeAgent: path.join(copy, path.relative(root, fakeAgentPath)),
		remove() {
			rmSync(copy, {recursive: true, force: true});
		},
	};
}

/** package.json's dependencies and, through node_modules/, everything they depend on. */
function runtimePackages(root: string): string[] {
	const dependenciesOf = (file: string): string[] => Object.keys((JSON.parse(readFileSync(file, 'utf8')) as {dependencies?: Record<string, string>}).dependencies ?? {});
	const found = new Set<string>();
	const pending = dependenciesOf(path.join(root, 'package.json'));
	for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
		const manifest = path.join(root, 'node_modules', name, 'package.json');
		if (found.has(name) || !existsSync(manifest)) continue;
		found.add(name);
		pending.push(...dependenciesOf(manifest));
	}

	return [...found];
}
