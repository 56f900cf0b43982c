// `hermes-delegate completion bash|zsh|fish`: the script asks the built CLI at
// each Tab (`__complete -- WORDS…`), which answers from commander's own definitions and from the
// runs on disk: commands, options, option values, live run ids and a run's task ids. The bash
// script is run in a real bash, as a user's shell runs it.
import {execFileSync, spawnSync} from 'node:child_process';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {cliPath, makeHome, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';

function home(): TestHome {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

async function completions(test: TestHome, ...words: string[]): Promise<string[]> {
	const result = await runCli(test, ['__complete', '--', ...words]);
	expect(result.exitCode, result.stderr).toBe(0);
	return result.stdout.split('\n').filter(Boolean);
}

describe('__complete', () => {
	it('completes commands (no hidden ones), subcommands, options and fixed values', async () => {
		const test = home();
		const commands = await completions(test, '');
		expect(commands).toEqual(expect.arrayContaining(['run', 'tui', 'demo', 'config', 'attach', 'cancel', 'completion']));
		expect(commands.filter(name => name.startsWith('_') || name === 'help')).toEqual([]);
		expect(await completions(test, 'run', '--dr')).toEqual(['--dry-run']);
		expect(await completions(test, 'config', 's')).toEqual(['show', 'set-mode']);
		expect(await completions(test, 'config', 'set-mode', '')).toEqual(['model_map', 'profile_routes', 'default']);
		expect(await completions(test, 'tui', '--theme', '')).toEqual(['dark', 'light', 'no-color']);
		expect(await completions(test, 'tui', '-j', '4', '--th')).toEqual(['--theme']);
		expect(await completions(test, 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
	});

	it('completes a live run\'s id for attach and cancel, and its task ids for cancel and logs', async () => {
		const test = home();
		const finished = JSON.parse((await runCli(test, ['run', tasksJson({goal: 'done', context: '[fake:duration=0.1]'})])).stdout) as {run_id: string};
		const started = await runCli(test, ['run', '--detach', tasksJson({name: 'stuck', goal: 'Never stop', context: '[fake:forever] [fake:ready]'}, {goal: 'second', context: '[fake:forever]'})]);
		expect(started.exitCode, started.stderr).toBe(0);
		const live = started.stdout.trim();
		onTestFinished(async () => {
			await runCli(test, ['cancel', live, '--kill']);
		});

		expect(await completions(test, 'attach', '')).toEqual([live]);
		expect(await completions(test, 'cancel', '')).toEqual([live]);
		expect(await completions(test, 'wait', '')).toEqual([live, finished.run_id]);
		expect(await completions(test, 'cancel', live, '')).toEqual(['t01', 't02']);
		expect(await completions(test, 'cancel', live, 't01', 't')).toEqual(['t01', 't02']);
		expect(await completions(test, 'logs', finished.run_id, '')).toEqual(['t01']);
	});
});

const installed = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

/** A folder whose bin/hermes-delegate runs the built CLI, for shells that call it by name. */
function withCommand(): {bin: string; dir: string} {
	const dir = mkdtempSync(path.join(tmpdir(), 'hd-completion-'));
	onTestFinished(() => rmSync(dir, {recursive: true, force: true}));
	const bin = path.join(dir, 'bin');
	mkdirSync(bin);
	writeFileSync(path.join(bin, 'hermes-delegate'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} "$@"\n`);
	chmodSync(path.join(bin, 'hermes-delegate'), 0o755);
	return {bin, dir};
}

describe('completion zsh and fish (where installed)', () => {
	it.runIf(installed('zsh'))('zsh: the function offers the candidates, and files when there are none', async () => {
		const test = home();
		const {bin, dir} = withCommand();
		writeFileSync(path.join(dir, 'hd.zsh'), (await runCli(test, ['completion', 'zsh'])).stdout);
		// compadd and _files belong to zsh's completion system, which needs a terminal: stand-ins print what they are given.
		const program = `compdef() { print compdef $@ }
compadd() { [[ $1 == -a ]] && print -l -- \${(P)2} }
_files() { print FILES }
source ${dir}/hd.zsh
words=(hermes-delegate config s); CURRENT=3; _hermes_delegate
words=(hermes-delegate run --fail); CURRENT=3; _hermes_delegate
words=(hermes-delegate run ta); CURRENT=3; _hermes_delegate`;
		const output = execFileSync('zsh', ['-f', '-c', program], {encoding: 'utf8', env: {...process.env, PATH: `${bin}:${process.env['PATH']}`, HERMES_HOME: test.dir, HERMES_DELEGATE_DEMO_HOME: test.dir}});
		expect(output.split('\n')).toEqual(['compdef _hermes_delegate hermes-delegate', 'show', 'set-mode', '--fail-fast', 'FILES', '']);
	});

	it.runIf(installed('fish'))('fish: complete -C offers the candidates, and files when there are none', async () => {
		const test = home();
		const {bin, dir} = withCommand();
		writeFileSync(path.join(dir, 'hd.fish'), (await runCli(test, ['completion', 'fish'])).stdout);
		writeFileSync(path.join(dir, 'tasks.yaml'), '- goal: x\n');
		const output = execFileSync('fish', ['--no-config', '-c', `source ${dir}/hd.fish; complete -C 'hermes-delegate config s'; complete -C 'hermes-delegate run --fail'; complete -C 'hermes-delegate run ta'`], {cwd: dir, encoding: 'utf8', env: {...process.env, PATH: `${bin}:${process.env['PATH']}`, HERMES_HOME: test.dir, HERMES_DELEGATE_DEMO_HOME: test.dir}});
		expect(output.split('\n').map(line => line.split('\t')[0])).toEqual(['set-mode', 'show', '--fail-fast', 'tasks.yaml', '']);
	});
});

describe('completion bash', () => {
	it('gives bash the candidates for the word under the cursor', async () => {
		const test = home();
		const script = (await runCli(test, ['completion', 'bash'])).stdout;
		// The script calls `hermes-delegate`: a function standing in for the installed command.
		const program = `hermes-delegate() { ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} "$@"; }
${script}
COMP_WORDS=(hermes-delegate config s); COMP_CWORD=2; _hermes_delegate; printf '%s\\n' "\${COMPREPLY[@]}"
COMP_WORDS=(hermes-delegate run --fail); COMP_CWORD=2; _hermes_delegate; printf '%s\\n' "\${COMPREPLY[@]}"
complete -p hermes-delegate`;
		const output = execFileSync('bash', ['-c', program], {encoding: 'utf8', env: {...process.env, HERMES_HOME: test.dir, HERMES_DELEGATE_DEMO_HOME: test.dir}});
		expect(output.split('\n')).toEqual(['show', 'set-mode', '--fail-fast', 'complete -o default -F _hermes_delegate hermes-delegate', '']);
	});

	it('refuses a shell it has no script for, exit 2', async () => {
		const test = home();
		const result = await runCli(test, ['completion', 'csh']);
		expect(result.exitCode).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toContain('Allowed choices are bash, zsh, fish');
	});
});
