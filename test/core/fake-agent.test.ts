// The fake agent stands in for `hermes` in the demo and in launcher tests, so its command line
// must be as strict as Hermes's: a launcher bug must fail here the way it would fail for real.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {signalGroup} from '../../src/core/process-group.js';
import {fakeAgentArgs, killStartedAgents, runFakeAgent, startFakeAgent} from '../helpers/processes.js';
import {waitFor} from '../helpers/wait-for.js';

const quick = '[fake:duration=0]';

describe('fake hermes command line', () => {
	it.each([
		['no arguments', []],
		['chat without -q', ['chat']],
		['an unknown flag', fakeAgentArgs(quick, '--bogus')],
		['a chat flag before chat', ['-m', 'some/model', ...fakeAgentArgs(quick)]],
		['an invalid reasoning effort', fakeAgentArgs(quick, '--reasoning', 'extreme')],
		['an invalid profile name', ['-p', 'Bad Name!', ...fakeAgentArgs(quick)]],
		['a flag value that is missing', fakeAgentArgs(quick, '-m')],
		['a separate query that starts with "-"', ['chat', '-q', `--help me ${quick}`]],
		['a value attached to a switch', fakeAgentArgs(quick, '-Qx')],
		['a chat flag attached before chat', [`-q${quick}`, 'chat']],
	])('rejects %s with a usage error and exit 2', async (_name, args) => {
		const run = await runFakeAgent(args);

		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/^usage: hermes/);
		expect(run.stderr).toMatch(/hermes: error: /);
		expect(run.stdout).toBe('');
	});

	it.each([
		['before chat', ['-p', 'coder', ...fakeAgentArgs(`[fake:echo-args] ${quick}`)]],
		['after chat', ['chat', '-p', 'coder', '-q', `[fake:echo-args] ${quick}`]],
		['as --profile=NAME at the end', [...fakeAgentArgs(`[fake:echo-args] ${quick}`), '--profile=coder']],
	])('accepts the profile %s', async (_name, args) => {
		const run = await runFakeAgent(args);

		expect(run.exitCode).toBe(0);
		const lines = run.stdout.split('\n');
		expect(lines[0]).toBe(`ARGV ${JSON.stringify(args)}`);
		expect(lines[1]).toContain('profile coder');
	});

	// argparse takes a short option's value attached (`-qVALUE`, also `-q=VALUE`); the launcher
	// relies on it for prompts that start with "-".
	it.each([
		['-qVALUE', ['chat', `-q--help me fix the build [fake:echo-args] ${quick}`, '-mgoogle/gemini-3-flash-preview', '-tweb'], '--help me fix the build'],
		['-q=VALUE', ['chat', `-q=fix the build [fake:echo-args] ${quick}`, '-m=some/model', '-t=web'], 'fix the build'],
	])('accepts values attached to short options (%s)', async (_form, args, goal) => {
		const run = await runFakeAgent(['-pcoder', ...args]);

		expect(run.exitCode).toBe(0);
		const lines = run.stdout.trimEnd().split('\n');
		expect(lines[0]).toBe(`ARGV ${JSON.stringify(['-pcoder', ...args])}`);
		expect(lines[1]).toMatch(/^fake hermes \[model (google\/gemini-3-flash-preview|some\/model), profile coder, toolsets web\]$/);
		expect(lines.at(-1)).toBe(`Fake answer: ${goal}`);
	});

	it('names the model, provider and reasoning effort it was given', async () => {
		const run = await runFakeAgent(
			fakeAgentArgs(quick, '-m', 'google/gemini-3-flash-preview', '--provider', 'openrouter', '--reasoning', 'high', '-t', 'web', '--yolo', '--max-turns', '20', '--source', 'tool'),
		);

		expect(run.exitCode).toBe(0);
		expect(run.stdout.split('\n')[0]).toContain('[model google/gemini-3-flash-preview via openrouter, reasoning high');
	});

	it('appends its argv to FAKE_HERMES_ARGV_FILE on every run, even a refused one', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'fake-agent-'));
		try {
			const file = join(dir, 'argv.jsonl');
			const env = {...process.env, FAKE_HERMES_ARGV_FILE: file};
			const first = fakeAgentArgs(quick, '-Q');
			await runFakeAgent(first, {env});
			await runFakeAgent(['--bogus'], {env});

			const recorded = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
			expect(recorded).toEqual([first, ['--bogus']]);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe('fake hermes behaviour', () => {
	it('streams steps and ends with the answer on its last line', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`Capital of France? [fake:duration=0] [fake:steps=4] [fake:answer=Paris.]`));

		expect(run.exitCode).toBe(0);
		const lines = run.stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(1 + 4 + 1);
		expect(lines.slice(1, 5).every((line) => /^(▸|✓| {2}↳)/.test(line))).toBe(true);
		expect(lines.at(-1)).toBe('Paris.');
	});

	it('prints only the answer when quiet', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:duration=0] [fake:answer=Paris.]`, '-Q'));

		expect(run.stdout).toBe('Paris.\n');
	});

	it('fails with exit 1 and a provider error on stderr', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:fail] ${quick}`));

		expect(run.exitCode).toBe(1);
		expect(run.stderr).toMatch(/^Error: provider returned 429/m);
	});

	it('exits with the code it is told to', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:exit=7] ${quick}`));

		expect(run.exitCode).toBe(7);
	});

	it('prints exactly the number of lines asked for, in order', async () => {
		const run = await runFakeAgent(fakeAgentArgs('[fake:lines=1000]'));

		expect(run.exitCode).toBe(0);
		const lines = run.stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(1000);
		expect(lines.every((line, index) => line.startsWith(`line ${String(index + 1).padStart(8, '0')} `))).toBe(true);
	});

	it('prints exactly the number of bytes asked for, in lines of the width asked for', async () => {
		const run = await runFakeAgent(fakeAgentArgs('[fake:bytes=100000] [fake:line-bytes=50]'));

		expect(Buffer.byteLength(run.stdout)).toBe(100_000);
		expect(run.stdout.split('\n').slice(0, -1).every((line) => line.length === 49)).toBe(true);
	});

	it('prints hostile terminal sequences among coloured text', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:escapes] ${quick}`, '-Q'));

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain('\u001B]52;c;'); // clipboard
		expect(run.stdout).toContain('\u001B]0;'); // window title
		expect(run.stdout).toContain('\u001B[2J'); // clear screen
		expect(run.stdout).toContain('\u001B[?1049h'); // alternate screen
		expect(run.stdout).toContain('\u001B[31m'); // colour
	});

	// [fake:steps=2] alone would answer after two steps: five show it waits for the file instead.
	const stepsUntil = (file: string) => `Wait for it [fake:until-file=${file}] [fake:steps=2] [fake:duration=0.2] [fake:answer=Done.]`;
	const isStep = (line: string) => /^(▸|✓| {2}↳)/.test(line);

	it('until-file: streams steps for as long as the file is missing, then answers and exits 0', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'fake-agent-'));
		const file = join(dir, 'go');
		onTestFinished(() => {
			killStartedAgents();
			rmSync(dir, {recursive: true, force: true});
		});
		const agent = await startFakeAgent(stepsUntil(file));
		let exited = false;
		void agent.process.exited.then(() => {
			exited = true;
		});
		await waitFor(() => exited || agent.stdout.lines().filter(isStep).length >= 5, {message: 'five step lines'});

		expect(exited).toBe(false);
		expect(agent.stdout.lines().slice(1).every(isStep)).toBe(true);
		writeFileSync(file, '');
		const exit = await agent.process.exited;
		await agent.process.closed;

		expect(exit).toEqual({exitCode: 0, signal: null});
		expect(agent.stdout.lines().at(-1)).toBe('Done.');
	});

	it('until-file: SIGTERM still ends it', async () => {
		onTestFinished(killStartedAgents);
		const agent = await startFakeAgent(stepsUntil(join(tmpdir(), 'never-created-by-anyone')));
		await waitFor(() => agent.stdout.lines().includes('Done.') || agent.stdout.lines().filter(isStep).length >= 3, {message: 'three step lines'});

		signalGroup(agent.process.pid, 'SIGTERM');

		expect(await agent.process.exited).toEqual({exitCode: null, signal: 'SIGTERM'});
		expect(agent.stdout.lines()).not.toContain('Done.');
	});

	it('reads stdin without hanging when it is /dev/null', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:stdin] ${quick}`, '-Q'));

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain('stdin: 0 bytes\n');
	});
});
