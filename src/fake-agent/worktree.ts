// `-w` as recorded (flag-worktree-git, flag-worktree-nogit): outside a git repository Hermes prints
// a red refusal and exits 0; inside one it makes `.worktrees/hermes-<8 hex>` on a new branch, runs
// there, then removes both, leaving an untracked `.gitignore` holding `.worktrees/`. The lines are
// green or red even with NO_COLOR on a pipe.
import {execFile} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {appendFileSync, existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {promisify} from 'node:util';

const run = promisify(execFile);
const green = (text: string) => `\u001B[32m${text}\u001B[0m`;
const red = (text: string) => `\u001B[31m${text}\u001B[0m`;

export type Worktree = {kind: 'made'; root: string; path: string; branch: string; stdout: string} | {kind: 'refused'; stdout: string};

export async function startWorktree(cwd: string): Promise<Worktree> {
	let root: string;
	try {
		root = (await run('git', ['rev-parse', '--show-toplevel'], {cwd})).stdout.trim();
	} catch {
		return {kind: 'refused', stdout: `${red('✗ --worktree requires being inside a git repository.')}\n  cd into your project repo first, then run hermes -w\n`};
	}

	const name = `hermes-${randomBytes(4).toString('hex')}`;
	const path = join(root, '.worktrees', name);
	const branch = `hermes/${name}`;
	const ignore = join(root, '.gitignore');
	if (!existsSync(ignore) || !readFileSync(ignore, 'utf8').split('\n').includes('.worktrees/')) appendFileSync(ignore, '.worktrees/\n');
	await run('git', ['worktree', 'add', '-q', '-b', branch, path, 'HEAD'], {cwd: root});
	// The fake never reaches a remote, so the base is always the local HEAD.
	const stdout = `${green('✓ Worktree created:')} ${path}\n  Branch: ${branch}\n  Base:   HEAD (local — could not reach remote)\n`;
	return {kind: 'made', root, path, branch, stdout};
}

export async function endWorktree(worktree: Worktree): Promise<string> {
	if (worktree.kind !== 'made') return '';
	await run('git', ['worktree', 'remove', '--force', worktree.path], {cwd: worktree.root});
	await run('git', ['branch', '-D', worktree.branch], {cwd: worktree.root});
	return `${green(`✓ Worktree cleaned up: ${worktree.path}`)}\n`;
}
