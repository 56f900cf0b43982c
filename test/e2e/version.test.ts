// `--version` says the version and, for a build from a git checkout, the commit it was built from
// (scripts/build.mjs puts it into the bundle), so a report names what ran.
import {execFileSync, spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/run-cli.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const {version} = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string};
const inGit = spawnSync('git', ['rev-parse', '--git-dir'], {cwd: repoRoot}).status === 0;

describe('--version', () => {
	const printed = execFileSync(process.execPath, [cliPath, '--version'], {encoding: 'utf8'}).trim();

	it('says the package\'s version first', () => {
		expect(printed.split(' ')[0]).toBe(version);
	});

	it.runIf(inGit)('names a commit of this repository when built from a git checkout', () => {
		const commit = /^\S+ \(git ([\da-f]{10})(\+changes)?\)$/.exec(printed)?.[1];
		expect(commit, printed).toBeDefined();
		expect(spawnSync('git', ['cat-file', '-e', `${commit!}^{commit}`], {cwd: repoRoot}).status).toBe(0);
	});
});
