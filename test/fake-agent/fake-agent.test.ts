// The fake agent stands in for `hermes` in the demo and in launcher tests, so its command line
// and its output must be Hermes's, per release: a launcher bug must fail here the way it would
// fail for real (observed behaviour: docs/hermes-releases.md).
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, it, onTestFinished} from 'vitest';
import {signalGroup} from '../../src/core/process/group.js';
import {StreamJsonDecoder} from '../../src/core/hermes/stream-json/decoder.js';
import {fakeAgentArgs, fakeAgentPath, killStartedAgents, runFakeAgent, startFakeAgent} from '../helpers/processes.js';
import {waitFor} from '../helpers/wait-for.js';

const quick = '[fake:duration=0]';
const as = (version: string) => ({env: {...process.env, FAKE_HERMES_VERSION: version}});
const sessionLine = /^\nsession_id: (\d{8}_\d{6}_[0-9a-f]{6})\n$/;

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), 'fake-agent-'));
	onTestFinished(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

type Event = Record<string, unknown> & {type: string};
const events = (stdout: string) => stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Event);

describe('fake hermes: each release answers the launcher\'s probes like the real one', () => {
	it.each([
		['0.19.0', 'Hermes Agent v0.19.0 (2026.7.20)'],
		['0.20.0', 'Hermes Agent v0.20.0 (2026.8.3)'],
		['0.20.6', 'Hermes Agent v0.20.6 (2026.8.27)'],
	])('--version as %s', async (version, firstLine) => {
		const run = await runFakeAgent(['--version'], as(version));

		expect(run.exitCode).toBe(0);
		expect(run.stdout.split('\n')[0]).toBe(firstLine);
		expect(run.stdout).toMatch(/^Install directory: /m);
	});

	it('is 0.20.6 unless told otherwise, and refuses a release it cannot be', async () => {
		expect((await runFakeAgent(['-V'])).stdout).toMatch(/^Hermes Agent v0\.20\.6 /);
		const wrong = await runFakeAgent(['--version'], as('0.18.0'));
		expect(wrong.exitCode).toBe(2);
		expect(wrong.stderr).toContain('FAKE_HERMES_VERSION=0.18.0 is not one of 0.19.0, 0.20.0, 0.20.6');
	});

	it.each([
		['0.19.0', [], ['--reasoning', '--format', '--query-file', '--run-budget']],
		['0.20.0', ['--reasoning LEVEL'], ['--format', '--query-file', '--run-budget']],
		['0.20.6', ['--reasoning LEVEL', '--format {text,stream-json}', '--query-file PATH', '--run-budget SECONDS'], []],
	])('chat --help as %s lists exactly its flags', async (version, listed, absent) => {
		const run = await runFakeAgent(['chat', '--help'], as(version));

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toMatch(/^usage: hermes chat \[-h\]/);
		for (const flag of ['-q QUERY, --query QUERY', '-Q, --quiet', '--max-turns N', '--source SOURCE', '-s SKILLS, --skills SKILLS', '--worktree, -w', ...listed]) {
			expect(run.stdout).toContain(`  ${flag}`);
		}

		for (const flag of absent) expect(run.stdout).not.toContain(flag);
	});
});

describe('fake hermes: command line', () => {
	it.each([
		['0.19.0', ['--reasoning', 'high'], 'unrecognized arguments: --reasoning high'],
		['0.19.0', ['--format', 'stream-json'], 'unrecognized arguments: --format stream-json'],
		['0.20.0', ['--format', 'stream-json'], 'unrecognized arguments: --format stream-json'],
		['0.20.0', ['--run-budget', '60'], 'unrecognized arguments: --run-budget 60'],
		['0.20.0', ['--query-file', '/dev/null'], 'unrecognized arguments: --query-file /dev/null'],
	])('as %s refuses %j as its argparse does', async (version, flags, message) => {
		const run = await runFakeAgent(fakeAgentArgs(quick, '-Q', ...flags), as(version));

		expect(run.exitCode).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(/^usage: hermes \[-h\] \[--version\]/);
		expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`hermes: error: ${message}`);
	});

	it.each([
		['no arguments', [], 'hermes: error: '],
		['chat without -q', ['chat'], 'hermes chat: error: '],
		['an unknown flag', fakeAgentArgs(quick, '--bogus'), 'hermes: error: unrecognized arguments: --bogus'],
		['a chat flag attached before chat', [`-q${quick}`, 'chat'], 'hermes: error: unrecognized arguments: -q'],
		['an invalid profile name', ['-p', 'Bad Name!', ...fakeAgentArgs(quick)], "hermes: error: argument command: invalid choice: 'Bad Name!'"],
		['-pNAME, which Hermes does not read as a profile', ['-pcoder', ...fakeAgentArgs(quick)], 'hermes: error: unrecognized arguments: -pcoder'],
		['a flag value that is missing', fakeAgentArgs(quick, '-m'), 'hermes chat: error: argument -m/--model: expected one argument'],
		['a separate value that starts with "-"', ['chat', '-q', '--help-me'], 'hermes chat: error: argument -q/--query: expected one argument'],
		['a value attached to a switch', fakeAgentArgs(quick, '-Qx'), "hermes chat: error: argument -Q/--quiet: ignored explicit argument 'x'"],
		['a --max-turns that is no integer', fakeAgentArgs(quick, '--max-turns', '2.5'), "hermes chat: error: argument --max-turns: invalid int value: '2.5'"],
		['an unknown --format', fakeAgentArgs(quick, '--format', 'json'), "hermes chat: error: argument --format: invalid choice: 'json' (choose from 'text', 'stream-json')"],
		['-q together with --query-file', fakeAgentArgs(quick, '--query-file', '/dev/null'), 'hermes chat: error: argument --query-file: not allowed with argument -q/--query'],
		['a --run-budget that is no number', fakeAgentArgs(quick, '--run-budget', 'soon'), "hermes chat: error: argument --run-budget: invalid float value: 'soon'"],
		['a prefix of two flags', fakeAgentArgs(quick, '--t', 'web'), 'hermes: error: ambiguous option: --t could match'],
	])('refuses %s with a usage error and exit 2', async (_name, args, message) => {
		const run = await runFakeAgent(args);

		expect(run.exitCode).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(/^usage: hermes/);
		expect(run.stderr).toContain(message);
	});

	it('refuses stream-json without a query the way upstream does: one line, no usage', async () => {
		const run = await runFakeAgent(['chat', '--format', 'stream-json']);

		expect(run.exitCode).toBe(2);
		expect(run.stderr).toBe('Error: --format stream-json requires -q/--query.\n');
	});

	it.each([
		['-p before chat', ['-p', 'coder', ...fakeAgentArgs(`[fake:echo-args] ${quick}`, '-Q')]],
		['-p after chat', ['chat', '-p', 'coder', '-q', `[fake:echo-args] ${quick}`, '-Q']],
		['--profile=NAME at the end', [...fakeAgentArgs(`[fake:echo-args] ${quick}`, '-Q'), '--profile=coder']],
		['-p default', ['-p', 'default', ...fakeAgentArgs(`[fake:echo-args] ${quick}`, '-Q')]],
		['chat flags before chat', ['-m', 'some/model', '--provider', 'openrouter', '-t', 'web', '-s', 'a', ...fakeAgentArgs(`[fake:echo-args] ${quick}`, '-Q')]],
		['-qVALUE and -mVALUE', ['chat', `-q--help me [fake:echo-args] ${quick}`, '-mgoogle/gemini-3-flash-preview', '-tweb', '-Q']],
		['-q=VALUE', ['chat', `-q=fix it [fake:echo-args] ${quick}`, '-m=some/model', '-Q']],
		['a separate value with a space that starts with "-"', ['chat', '-q', `--help me [fake:echo-args] ${quick}`, '-Q']],
		['a unique prefix of a long flag', [...fakeAgentArgs(`[fake:echo-args] ${quick}`, '-Q'), '--max-t', '3', '--sour', 'tool']],
		['every flag the launcher passes', fakeAgentArgs(`[fake:echo-args] ${quick}`, '-Q', '-m', 'm', '--provider', 'p', '--reasoning', 'high', '-t', 'web,terminal', '-s', 'a', '-s', 'b', '--max-turns', '20', '-w', '--yolo', '--source', 'tool', '--run-budget', '90')],
		['a reasoning level Hermes does not know (it ignores it)', fakeAgentArgs(`[fake:echo-args] ${quick}`, '-Q', '--reasoning', 'extreme')],
	])('accepts %s', async (_name, args) => {
		const run = await runFakeAgent(args);

		expect(run.stderr).toMatch(sessionLine);
		expect(run.exitCode).toBe(0);
		expect(run.stdout.split('\n')[0]).toBe(`ARGV ${JSON.stringify(args)}`);
	});

	it('appends its argv to FAKE_HERMES_ARGV_FILE on every run, even a refused one', async () => {
		const file = join(tempDir(), 'argv.jsonl');
		const env = {...process.env, FAKE_HERMES_ARGV_FILE: file};
		const first = fakeAgentArgs(quick, '-Q');
		await runFakeAgent(first, {env});
		await runFakeAgent(['--bogus'], {env});

		const recorded = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
		expect(recorded).toEqual([first, ['--bogus']]);
	});
});

describe('fake hermes: text mode (no -Q)', () => {
	// Rich's lines (the rule, tool lines, the panel, the retry log) end in \r\n, the others in \n
	// (shared/hermes-agent/recorded, chat-text-success); 0.19.0 indents the reply, 0.20.x does not.
	it.each([
		['0.19.0', '    Paris.'],
		['0.20.6', 'Paris.'],
	])('as %s shows the banner, a progress line per tool call, the answer boxed and the session footer', async (version, body) => {
		const run = await runFakeAgent(fakeAgentArgs(`Capital of France? ${quick} [fake:steps=4] [fake:answer=Paris.]`), as(version));

		expect(run.exitCode).toBe(0);
		expect(run.stderr).toBe('');
		const lines = run.stdout.trimEnd().split('\n');
		expect(lines.slice(0, 4)).toEqual([`Query: Capital of France? ${quick} [fake:steps=4] [fake:answer=Paris.]`, 'Initializing agent...\r', `${'─'.repeat(40)}\r`, '']);
		expect(lines.slice(4, 8).every((line) => /^ {2}┊ \S+ .*\s\d+\.\ds\r$/u.test(line))).toBe(true);
		expect(lines.slice(8, 12)).toEqual(['\r', `╭─ ⚕ Hermes ${'─'.repeat(67)}╮\r`, `${body}\r`, `╰${'─'.repeat(78)}╯\r`]);
		expect(lines[13]).toBe('Resume this session with:');
		expect(lines.at(-3)).toMatch(/^Session: {8}\d{8}_\d{6}_[0-9a-f]{6}$/);
		expect(lines.at(-1)).toBe('Messages:       10 (1 user, 8 tool calls)');
	});

	it('on a failed model call prints the retries and the error in the panel, and exits 0 as Hermes does', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:fail] ${quick}`), as('0.19.0'));

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain('⚠️  API call failed (attempt 3/3): RateLimitError [HTTP 429]\r\n');
		expect(run.stdout).toContain('❌ API failed after 3 retries — HTTP 429: rate limited\r\n');
		expect(run.stdout).toMatch(/^ {5}API call failed after 3 retries: HTTP 429: rate limited +\r$/m);
		expect(run.stdout).toContain('Resume this session with:');
	});
});

describe('fake hermes: recorded answers (FAKE_HERMES_SCRIPT)', () => {
	it.each([
		['{"answers": [{"bogus": 1}]}', 'answers[0]: needs one of "reply", "tool_call", "status" or "connection": "refused"'],
		['{"answers": [{"status": 200}]}', 'answers[0].status: must be an HTTP error status (400-599)'],
		['{"answers": {}}', 'answers: must be a list of answers'],
		['not json', '(file): cannot be read as JSON'],
	])('refuses a bad script %s, naming the file and the field, exit 2', async (text, message) => {
		const file = join(tempDir(), 'script.json');
		writeFileSync(file, text);
		const run = await runFakeAgent(fakeAgentArgs('Say hello.', '-Q'), {env: {...process.env, FAKE_HERMES_SCRIPT: file}});

		expect(run.exitCode).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toContain(`fake hermes: ${file}: ${message}`);
	});
});

describe('fake hermes: -Q', () => {
	it.each(['0.19.0', '0.20.0', '0.20.6'])('as %s prints only the answer, and the session on stderr', async (version) => {
		const run = await runFakeAgent(fakeAgentArgs(`${quick} [fake:answer=Paris.]`, '-Q'), as(version));

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe('Paris.\n');
		expect(run.stderr).toMatch(sessionLine);
	});

	it('on a failed model call prints the error on stdout and exits 1', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:fail=HTTP 500: mock internal server error] ${quick}`, '-Q'));

		expect(run.exitCode).toBe(1);
		expect(run.stdout).toBe('API call failed after 3 retries: HTTP 500: mock internal server error\n');
		expect(run.stderr).toMatch(sessionLine);
	});

	it('exits with the code it is told to', async () => {
		expect((await runFakeAgent(fakeAgentArgs(`[fake:exit=7] ${quick}`, '-Q'))).exitCode).toBe(7);
	});
});

describe('fake hermes: --format stream-json', () => {
	it('writes init, a tool_use and tool_result per step, the answer as deltas, then the result', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`Capital? ${quick} [fake:steps=3] [fake:answer=Paris is the capital of France.]`, '--format', 'stream-json', '-m', 'some/model'));

		expect(run.exitCode).toBe(0);
		const all = events(run.stdout);
		expect(all.every((event) => Number.isInteger(event['timestamp']))).toBe(true);
		const types = all.map((event) => event.type);
		expect(types.slice(0, 7)).toEqual(['system', 'tool_use', 'tool_result', 'tool_use', 'tool_result', 'tool_use', 'tool_result']);
		expect(types.slice(7, -1).length).toBeGreaterThan(1);
		expect(types.slice(7, -1).every((type) => type === 'text')).toBe(true);
		expect(types.at(-1)).toBe('result');
		const [init, result] = [all[0]!, all.at(-1)!];
		expect(init).toMatchObject({subtype: 'init', model: 'some/model'});
		for (let step = 1; step < 7; step += 2) {
			expect(all[step]).toMatchObject({name: expect.any(String), input: expect.any(Object)});
			// As every stored Hermes: no tool_call_id on either event.
			expect(all[step]).not.toHaveProperty('tool_call_id');
			expect(all[step + 1]).not.toHaveProperty('tool_call_id');
			expect(all[step + 1]).toMatchObject({name: all[step]!['name'], output: expect.any(String), duration_ms: expect.any(Number), is_error: false});
		}

		expect(all.filter((event) => event.type === 'text').map((event) => event['text']).join('')).toBe('Paris is the capital of France.');
		expect(result).toMatchObject({session_id: init['session_id'], exit_code: 0, text: 'Paris is the capital of France.', duration_ms: expect.any(Number)});
		expect(result['tokens']).toEqual({input: expect.any(Number), output: expect.any(Number), total: expect.any(Number), cache_read: 0, cache_write: 0});
		expect(result).not.toHaveProperty('error');
		expect(run.stderr).toBe(`\nsession_id: ${String(init['session_id'])}\n`);
		// Python's json.dumps spacing, as Hermes writes it.
		expect(run.stdout.split('\n')[0]).toMatch(/^\{"type": "system", "subtype": "init", "model": "some\/model", "session_id": "/);
	});

	it('reports a failed run in the result and exits with its exit_code', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:fail] ${quick}`, '--format', 'stream-json'));

		expect(run.exitCode).toBe(1);
		expect(events(run.stdout).at(-1)).toMatchObject({type: 'result', exit_code: 1, text: 'API call failed after 3 retries: HTTP 429: rate limited', error: 'HTTP 429: rate limited'});
	});

	it('says what the directives ask: another model used, token counts, a failing tool, an exit code', async () => {
		const run = await runFakeAgent(
			fakeAgentArgs(`${quick} [fake:steps=2] [fake:model-used=other/model] [fake:tokens=1500,42] [fake:tool-error=2] [fake:exit=3]`, '--format', 'stream-json', '-m', 'asked/model'),
		);

		expect(run.exitCode).toBe(3);
		const all = events(run.stdout);
		expect(all[0]).toMatchObject({model: 'other/model'});
		expect(all.filter((event) => event.type === 'tool_result').map((event) => event['is_error'])).toEqual([false, true]);
		expect(all.at(-1)).toMatchObject({exit_code: 3, tokens: {input: 1500, output: 42, total: 1542, cache_read: 0, cache_write: 0}});
	});

	it('is what the decoder reads: its answer, session and tool calls', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`${quick} [fake:steps=2] [fake:answer=Done.]`, '--format', 'stream-json'));
		const decoder = new StreamJsonDecoder();
		decoder.push(Buffer.from(run.stdout));
		decoder.end();
		const summary = decoder.summary();

		expect(summary).toMatchObject({answer: {text: 'Done.', truncated: false}, result: {exitCode: 0, error: null}, plainLines: 0});
		expect(summary.toolCalls.map((call) => call.is_error)).toEqual([false, false]);
		expect(run.stderr).toBe(`\nsession_id: ${summary.sessionId}\n`);
	});

	it('keeps printing its test devices as plain lines, between init and result', async () => {
		const run = await runFakeAgent(fakeAgentArgs('[fake:lines=3] [fake:ready]', '--format', 'stream-json'));
		const lines = run.stdout.trimEnd().split('\n');

		expect(lines).toHaveLength(6);
		expect(JSON.parse(lines[0]!)).toMatchObject({type: 'system'});
		expect(lines.slice(1, 5)).toEqual(['READY', expect.stringMatching(/^line 00000001 /), expect.stringMatching(/^line 00000002 /), expect.stringMatching(/^line 00000003 /)]);
		expect(JSON.parse(lines[5]!)).toMatchObject({type: 'result', exit_code: 0});
	});
});

describe('fake hermes: --query-file', () => {
	it('reads the query from a file, quotes and all', async () => {
		const file = join(tempDir(), 'prompt.txt');
		writeFileSync(file, `Say "$(rm -rf /)" \`back\` ${quick} [fake:echo-args]`);
		const run = await runFakeAgent(['chat', '--query-file', file, '--format', 'stream-json']);

		expect(run.exitCode).toBe(0);
		expect(events(run.stdout.split('\n').slice(1).join('\n')).at(-1)).toMatchObject({text: 'Fake answer: Say "$(rm -rf /)" `back`'});
	});

	it('reads it from stdin for "-"', async () => {
		const run = await execa(fakeAgentPath, ['chat', '--query-file', '-', '-Q'], {input: `From stdin ${quick} [fake:answer=Got it.]`, reject: false});

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe('Got it.');
	});
});

describe('fake hermes: test devices', () => {
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

	it('until-file beside lines stops them once its file exists', async () => {
		const stop = join(tempDir(), 'stop');
		onTestFinished(killStartedAgents);
		// 10^9 lines of 64 bytes would take minutes: it ends within the test only by until-file.
		const agent = await startFakeAgent(`[fake:until-file=${stop}] [fake:lines=1000000000]`);
		await waitFor(() => agent.stdout.text.length > 1_000_000, {message: 'the flood past 1 MB'});
		writeFileSync(stop, '');
		expect(await agent.process.exited).toEqual({exitCode: 0, signal: null});
	});

	it('after-file: nothing is printed while the file is missing', async () => {
		const go = join(tempDir(), 'go');
		onTestFinished(killStartedAgents);
		const agent = await startFakeAgent(`[fake:after-file=${go}] [fake:lines=3] [fake:chatter=0.02]`);
		await waitFor(() => agent.stderr.lines().filter(line => line.startsWith('chatter')).length >= 5, {message: 'five chatter lines: the fake is running'});
		expect(agent.stdout.text).toBe('');
		writeFileSync(go, '');
		expect(await agent.process.exited).toEqual({exitCode: 0, signal: null});
		await agent.process.closed;
		expect(agent.stdout.lines().filter(Boolean)).toHaveLength(3);
	});

	it('prints hostile terminal sequences among coloured text', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:escapes] ${quick}`, '-Q'));

		expect(run.exitCode).toBe(0);
		for (const sequence of ['\u001B]52;c;', '\u001B]0;', '\u001B[2J', '\u001B[?1049h', '\u001B[31m']) expect(run.stdout).toContain(sequence);
	});

	it('reads stdin without hanging when it is /dev/null', async () => {
		const run = await runFakeAgent(fakeAgentArgs(`[fake:stdin] ${quick}`, '-Q'));

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain('stdin: 0 bytes\n');
	});
});

describe('fake hermes: ending', () => {
	// [fake:steps=2] alone would answer after two steps: five show it waits for the file instead.
	const stepsUntil = (file: string) => `Wait for it [fake:until-file=${file}] [fake:steps=2] [fake:duration=0.2] [fake:answer=Done.]`;
	const isStep = (line: string) => line.startsWith('  ┊ ');

	it('until-file: makes tool calls for as long as the file is missing, then answers and exits 0', async () => {
		const file = join(tempDir(), 'go');
		onTestFinished(killStartedAgents);
		const agent = await startFakeAgent(stepsUntil(file), '-Q', '--format', 'text');
		const text = await startFakeAgent(stepsUntil(file));
		await waitFor(() => text.stdout.lines().filter(isStep).length >= 5, {message: 'five tool call lines'});

		writeFileSync(file, '');
		expect(await agent.process.exited).toEqual({exitCode: 0, signal: null});
		expect(await text.process.exited).toEqual({exitCode: 0, signal: null});
		await agent.process.closed;
		expect(agent.stdout.text).toBe('Done.\n');
	});

	it.each(['SIGTERM', 'SIGINT'] as const)('%s: dies by SIGINT after a Python traceback, as Hermes does', async (signal) => {
		onTestFinished(killStartedAgents);
		const agent = await startFakeAgent('[fake:forever] [fake:ready] [fake:duration=0.1]', '--format', 'stream-json');
		await waitFor(() => agent.stdout.lines().includes('READY'), {message: 'READY'});

		signalGroup(agent.process.pid, signal);

		expect(await agent.process.exited).toEqual({exitCode: null, signal: 'SIGINT'});
		await agent.process.closed;
		// Python's layout: frames of a File line, the code line, maybe a caret line; KeyboardInterrupt last.
		expect(agent.stderr.text).toMatch(/^Traceback \(most recent call last\):\n( {2}File "[^"]+", line \d+, in \S+\n( {4}.*\n)?( +[~^]+\n)?)+KeyboardInterrupt\n$/);
	});

	it('[fake:term-exit]: SIGTERM mid-conversation ends with exit 130 and a result saying so', async () => {
		onTestFinished(killStartedAgents);
		const agent = await startFakeAgent('[fake:forever] [fake:ready] [fake:term-exit]', '--format', 'stream-json');
		await waitFor(() => agent.stdout.lines().includes('READY'), {message: 'READY'});

		signalGroup(agent.process.pid, 'SIGTERM');

		expect(await agent.process.exited).toEqual({exitCode: 130, signal: null});
		await agent.process.closed;
		expect(JSON.parse(agent.stdout.lines().at(-1)!)).toMatchObject({type: 'result', exit_code: 130});
		expect(agent.stderr.text).toMatch(sessionLine);
	});

	it('[fake:ignore-term]: goes on after SIGTERM', async () => {
		onTestFinished(killStartedAgents);
		const agent = await startFakeAgent('[fake:ignore-term] [fake:ready] [fake:duration=0.1]');
		await waitFor(() => agent.stdout.lines().includes('READY'), {message: 'READY'});

		signalGroup(agent.process.pid, 'SIGTERM');
		await waitFor(() => agent.stderr.text.includes('ignoring SIGTERM'), {message: 'the SIGTERM to arrive'});
		const stepsBefore = agent.stdout.lines().filter(isStep).length;
		await waitFor(() => agent.stdout.lines().filter(isStep).length > stepsBefore, {message: 'a tool call after SIGTERM'});

		signalGroup(agent.process.pid, 'SIGKILL');
		expect(await agent.process.exited).toEqual({exitCode: null, signal: 'SIGKILL'});
	});
});

describe('fake hermes: --cli and --tui', () => {
	it('accepts both on every release; --tui opens a TUI that finds no terminal and exits 0 having done nothing', async () => {
		for (const version of ['0.19.0', '0.20.0', '0.20.6']) {
			expect((await runFakeAgent(fakeAgentArgs(`${quick} [fake:answer=Paris.]`, '-Q', '--cli'), as(version))).stdout).toBe('Paris.\n');
		}

		const tui = await runFakeAgent(fakeAgentArgs(`${quick} [fake:answer=Paris.]`, '-Q', '--tui'));
		expect(tui).toMatchObject({exitCode: 0, stdout: 'hermes-tui: no TTY\n'});
	});
});

describe('fake hermes: the user\'s own home', () => {
	it('never writes a session into $HOME/.hermes, even when HERMES_HOME names it (as hermes-delegate now always does)', async () => {
		const dir = tempDir();
		const {mkdirSync, existsSync} = await import('node:fs');
		mkdirSync(join(dir, '.hermes'));
		mkdirSync(join(dir, 'elsewhere'));
		const run = (home: string) => runFakeAgent(fakeAgentArgs(`${quick} [fake:answer=Paris.]`, '-Q'), {env: {...process.env, HOME: dir, HERMES_HOME: home}});
		expect((await run(join(dir, '.hermes'))).exitCode).toBe(0);
		expect(existsSync(join(dir, '.hermes', 'state.db'))).toBe(false);
		expect((await run(join(dir, 'elsewhere'))).exitCode).toBe(0);
		expect(existsSync(join(dir, 'elsewhere', 'state.db'))).toBe(true);
	});
});
