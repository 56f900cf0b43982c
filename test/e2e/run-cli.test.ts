// The built CLI, end to end: what `run` prints and exits with, the ways tasks can be given,
// Ctrl-C during a runaway, a reader that goes away, the demo's home, `config --show` keeping
// secrets out, and every command's --help.
import {once} from 'node:events';
import {existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {describe, expect, it, onTestFinished} from 'vitest';
import {demoHomePath} from '../../src/core/input/demo.js';
import {listGroupMembers, signalGroup} from '../../src/core/process/group.js';
import type {BatchReport} from '../../src/core/types.js';
import {collect, fakeAgentPath, isProcessRunning} from '../helpers/processes.js';
import {makeHome, recordedGroups, runCli, spawnCli, startCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor, waitForLine} from '../helpers/wait-for.js';

const quick = '[fake:duration=0.2]';
type OnFinished = (cleanup: () => void) => void;

/** A home removed when the test ends; concurrent tests pass their own context's onTestFinished. */
function home(config?: string, onFinished: OnFinished = onTestFinished): TestHome {
	const created = makeHome(config);
	onFinished(() => created.remove());
	return created;
}

const twoTasks = tasksJson(
	{goal: 'What is the capital of France?', characteristic: 'quick', context: `${quick} [fake:answer=Paris.]`},
	{goal: 'Explain recursion', option: 'deep', context: `${quick} [fake:answer=It calls itself.]`},
);

function lastLine(text: string): string | undefined {
	return text.split('\n').at(-1);
}

describe('run', () => {
	it('prints the JSON results and exits 0 when every task succeeds', async () => {
		const test = home();
		const run = await runCli(test, ['run', twoTasks]);

		expect(run.exitCode).toBe(0);
		const report = JSON.parse(run.stdout) as BatchReport;
		expect(report.summary).toBe('2/2 tasks succeeded');
		expect(report.interrupted).toBe(false);
		expect(test.runs()).toEqual([report.run_id]);
		expect(report.results.map(result => result.goal)).toEqual(['What is the capital of France?', 'Explain recursion']);
		expect(report.results[1]).toMatchObject({
			status: 'succeeded',
			success: true,
			exit_code: 0,
			model: 'claude-opus-5',
			route: {name: 'deep', kind: 'model', provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high', refused: false},
		});
		expect(report.results.map(result => lastLine(result.result))).toEqual(['Paris.', 'It calls itself.']);
		for (const result of report.results) {
			expect(result.duration_ms).toBeTypeOf('number');
			expect(readFileSync(result.log!, 'utf8')).toContain(result.result);
		}

		expect(JSON.parse(readFileSync(report.results_file, 'utf8'))).toEqual(report);
		expect(run.stderr).toContain('2/2 tasks succeeded');
	});

	it('gives each task in results.json the spend of its session row in state.db, and sums them', async () => {
		const test = home();
		const run = await runCli(test, ['run', twoTasks]);
		expect(run.exitCode).toBe(0);
		const report = JSON.parse(readFileSync((JSON.parse(run.stdout) as BatchReport).results_file, 'utf8')) as BatchReport;
		const db = new Database(path.join(test.dir, 'state.db'), {readonly: true, fileMustExist: true});
		onTestFinished(() => {
			db.close();
		});
		for (const result of report.results) {
			const row = db.prepare('SELECT * FROM sessions WHERE id = ?').get(result.session_id) as Record<string, unknown>;
			expect(result.spend).toEqual({
				input_tokens: row['input_tokens'], output_tokens: row['output_tokens'], cache_read_tokens: row['cache_read_tokens'],
				cache_write_tokens: row['cache_write_tokens'], reasoning_tokens: row['reasoning_tokens'], api_calls: row['api_call_count'],
				tool_calls: row['tool_call_count'], cost_usd: row['estimated_cost_usd'], cost_status: row['cost_status'],
				model: row['model'], billing_provider: row['billing_provider'],
			});
			expect(result.spend!.input_tokens).toBeGreaterThan(0);
		}

		const [first, second] = report.results.map(result => result.spend!);
		expect(report.spend!.total).toMatchObject({input_tokens: first!.input_tokens! + second!.input_tokens!, attempts: 2, unknown_attempts: 0});
		expect(Object.keys(report.spend!.by_model).sort()).toEqual([first!.model, second!.model].sort());
	});

	it('exits 1 when any task fails, and says which', async () => {
		const test = home();
		const run = await runCli(test, ['run', tasksJson({goal: 'fine', context: quick}, {goal: 'broken', context: `${quick} [fake:fail]`})]);

		expect(run.exitCode).toBe(1);
		const report = JSON.parse(run.stdout) as BatchReport;
		expect(report.summary).toBe('1/2 tasks succeeded (1 failed)');
		expect(report.results[1]).toMatchObject({status: 'failed', success: false, exit_code: 1});
		expect(report.results[1]?.error).toContain('429');
	});

	it('--jsonl prints one JSON event per line, ending with batch.finished', async () => {
		const test = home();
		const run = await runCli(test, ['run', twoTasks, '--jsonl']);

		expect(run.exitCode).toBe(0);
		const events = run.stdout.split('\n').map(line => JSON.parse(line) as {type: string; id?: string});
		expect(events[0]?.type).toBe('batch.planned');
		expect(events.at(-1)).toMatchObject({type: 'batch.finished', report: {summary: '2/2 tasks succeeded'}});
		for (const id of ['t01', 't02']) {
			// stream-json telemetry (model, tool calls, tokens) arrives between start and finish, and
			// the live spend from state.db (task.spend) whenever a visit found the row changed.
			const types = events.filter(event => event.id === id).map(event => event.type);
			expect(types[0]).toBe('task.started');
			expect(types.at(-1)).toBe('task.finished');
			expect(types.slice(1, -1)).toContain('task.telemetry');
			expect(types.slice(1, -1).filter(type => type !== 'task.telemetry' && type !== 'task.spend')).toEqual([]);
		}
	});

	it('every event type --jsonl prints is documented in docs/run-and-tui.md\'s `run --jsonl` row', async () => {
		const test = home();
		const run = await runCli(test, ['run', twoTasks, '--jsonl']);
		const types = new Set(run.stdout.split('\n').map(line => (JSON.parse(line) as {type: string}).type));
		const page = readFileSync(new URL('../../docs/run-and-tui.md', import.meta.url), 'utf8');
		const row = page.split('\n').find(line => line.startsWith('| `run --jsonl` |'));
		expect(row).toBeDefined();
		expect([...types].filter(type => !row!.includes(`\`${type}\``))).toEqual([]);
	});

	it('--dry-run prints the plan and starts nothing', async () => {
		const test = home();
		const run = await runCli(test, ['run', twoTasks, '--dry-run']);

		expect(run.exitCode).toBe(0);
		const plan = JSON.parse(run.stdout) as {mode: string; hermes_bin: unknown; tasks: Array<{id: string; route: {name: string}; argv: string[]}>};
		expect(plan.mode).toBe('model_map');
		expect(plan.tasks.map(task => [task.id, task.route.name])).toEqual([['t01', 'fast'], ['t02', 'deep']]);
		expect(plan.tasks[1]?.argv).toEqual(expect.arrayContaining(['chat', '-q', '-m', 'claude-opus-5', '--reasoning', 'high']));
		expect(plan.hermes_bin).toEqual({path: fakeAgentPath, ok: true});
		expect(test.agentRuns()).toEqual([]);
		expect(test.runs()).toEqual([]);
	});

	it('runs a goal that starts with "-", which argparse would otherwise take for an option', async () => {
		const test = home();
		const goal = '--help me fix the build';
		const run = await runCli(test, ['run', tasksJson({goal, context: `${quick} [fake:answer=Fixed.]`})]);

		expect(run.exitCode).toBe(0);
		const report = JSON.parse(run.stdout) as BatchReport;
		expect(report.results[0]).toMatchObject({goal, status: 'succeeded'});
		expect(lastLine(report.results[0]!.result)).toBe('Fixed.');
		expect(test.agentRuns()[0]).toContain(`-q${goal}\n\nContext:\n${quick} [fake:answer=Fixed.]`);
	});

	it('prints every distinct route warning once on stderr', async () => {
		const test = home(`delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: local
          description: A local model server.
          provider: openrouter
          base_url: http://localhost:8080/v1
          model: qwen
`);
		const run = await runCli(test, ['run', tasksJson({goal: 'one', option: 'local', context: quick}, {goal: 'two', option: 'local', context: quick})]);

		expect(run.exitCode).toBe(0);
		const warnings = run.stderr.split('\n').filter(line => line.startsWith('hermes-delegate: warning: '));
		expect(warnings.filter(line => /route "local": .*base_url/.test(line))).toHaveLength(1);
		expect(new Set(warnings).size).toBe(warnings.length);
	});

	const yamlTasks = `- goal: first from yaml\n  context: "${quick}"\n- goal: second from yaml\n  context: "${quick}"\n`;
	const jsonTasks = tasksJson({goal: 'first from json', context: quick}, {goal: 'second from json', context: quick});
	type Source = {args: string[]; input?: string};
	const sources: Array<[string, (test: TestHome) => Source, string]> = [
		['inline JSON', () => ({args: [jsonTasks]}), 'json'],
		['a JSON file', test => ({args: [test.write('tasks.json', jsonTasks)]}), 'json'],
		['a YAML file', test => ({args: [test.write('tasks.yaml', yamlTasks)]}), 'yaml'],
		['stdin as -', () => ({args: ['-'], input: yamlTasks}), 'yaml'],
		['piped stdin with no argument', () => ({args: [], input: jsonTasks}), 'json'],
	];
	it.each(sources)('reads tasks from %s', async (_name, source, format) => {
		const test = home();
		const {args, input} = source(test);
		const run = await runCli(test, ['run', ...args], {input});

		expect(run.exitCode).toBe(0);
		const report = JSON.parse(run.stdout) as BatchReport;
		expect(report.results.map(result => result.goal)).toEqual([`first from ${format}`, `second from ${format}`]);
		expect(test.agentRuns()).toHaveLength(2);
	});

	it('--sequential runs one task at a time', async () => {
		const test = home();
		const tasks = tasksJson({goal: 'one', context: quick}, {goal: 'two', context: quick}, {goal: 'three', context: quick});
		const run = await runCli(test, ['run', tasks, '--sequential', '--jsonl']);

		expect(run.exitCode).toBe(0);
		const lifecycle = run.stdout.split('\n')
			.map(line => JSON.parse(line) as {type: string; id?: string})
			.filter(event => event.type === 'task.started' || event.type === 'task.finished')
			.map(event => `${event.type.slice(5)} ${event.id}`);
		expect(lifecycle).toEqual(['started t01', 'finished t01', 'started t02', 'finished t02', 'started t03', 'finished t03']);
	});

	it('on SIGINT stops every task with the kill cascade, writes the results and exits 130', async () => {
		const test = home();
		const tasks = tasksJson(
			{goal: 'runaway', context: '[fake:ignore-term] [fake:grandchild] [fake:forever] [fake:ready]'},
			{goal: 'long', context: '[fake:forever] [fake:ready]'},
			{goal: 'queued', context: quick},
		);
		const cli = startCli(test, ['run', tasks, '--jsonl', '-j', '2', '--grace', '0.3']);
		const stdout = collect(cli.stdout);
		collect(cli.stderr);
		await waitFor(() => stdout.text.includes('"batch.planned"'), {message: 'the batch.planned event'});
		const runDir = (JSON.parse(stdout.lines()[0]!) as {run_dir: string}).run_dir;
		const log = (id: string) => path.join(runDir, 'logs', `${id}.log`);
		const logText = (id: string) => (existsSync(log(id)) ? readFileSync(log(id), 'utf8') : '');
		await waitFor(() => logText('t01').includes('READY\n') && logText('t02').includes('READY\n'), {message: 'READY from both running agents'});
		const grandchild = Number(/grandchild pid (\d+)/.exec(logText('t01'))?.[1]);

		cli.kill('SIGINT');
		const {exitCode} = await cli;

		expect(exitCode).toBe(130);
		const report = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as BatchReport;
		expect(report.interrupted).toBe(true);
		expect(report.results.map(result => result.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
		expect(report.results[2]?.started_at).toBeNull();
		const groups = recordedGroups(runDir);
		expect(groups).toHaveLength(2);
		for (const pgid of groups) expect(listGroupMembers(pgid)).toEqual([]);
		expect(grandchild).toBeGreaterThan(1);
		expect(isProcessRunning(grandchild)).toBe(false);
		expect(stdout.lines().at(-1)).toContain('"batch.finished"');
	});
});

describe('run when the reader of stdout goes away (`| head -n 1`)', () => {
	it('stops every task with the kill cascade, writes the results, leaves nothing running and exits 130', async () => {
		const test = home();
		const finish = path.join(test.dir, 'finish');
		const tasks = tasksJson(
			{goal: 'runaway', context: '[fake:ignore-term] [fake:grandchild] [fake:forever] [fake:ready]'},
			{goal: 'finishes when told', context: `[fake:until-file=${finish}]`},
			{goal: 'queued', context: quick},
		);
		// Hermes 0.20.0 (-Q): no telemetry events; t02 finishing is sure to write one more event.
		const cli = spawnCli(test, ['run', tasks, '--jsonl', '-j', '2', '--grace', '0.3'], {env: {FAKE_HERMES_VERSION: '0.20.0'}});
		onTestFinished(() => {
			cli.kill('SIGKILL');
		});
		const exited = once(cli, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
		const stderr = collect(cli.stderr);
		const planned = await waitForLine(cli.stdout, /^\{"type":"batch\.planned".*$/);
		const runDir = (JSON.parse(planned[0]) as {run_dir: string}).run_dir;
		const log = path.join(runDir, 'logs', 't01.log');
		await waitFor(() => recordedGroups(runDir).length === 2 && existsSync(log) && readFileSync(log, 'utf8').includes('READY\n'), {message: 'both agents running, the runaway with its grandchild'});
		const grandchild = Number(/grandchild pid (\d+)/.exec(readFileSync(log, 'utf8'))?.[1]);

		// The reader leaves; the next event (at the latest t02 finishing) has nobody to go to.
		cli.stdout.destroy();
		writeFileSync(finish, '');
		const [code, signal] = await exited;

		expect({code, signal}).toEqual({code: 130, signal: null});
		expect(stderr.text).toMatch(/hermes-delegate: stdout was closed \(EPIPE\): stopping every task/);
		expect(stderr.text).not.toMatch(/^\s+at |Unhandled|internal error/m);
		const report = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as BatchReport;
		expect(report.interrupted).toBe(true);
		// The write that finds the pipe gone is t02's finish, or an earlier live event (task.spend
		// from the runaway's state.db row arrives while it runs): then t02 is cancelled with the rest.
		const [runaway, told, queued] = report.results.map(result => result.status);
		expect({runaway, queued}).toEqual({runaway: 'cancelled', queued: 'cancelled'});
		expect(['succeeded', 'cancelled']).toContain(told);
		expect(report.results[2]?.started_at).toBeNull();
		for (const pgid of recordedGroups(runDir)) expect(listGroupMembers(pgid)).toEqual([]);
		expect(grandchild).toBeGreaterThan(1);
		expect(isProcessRunning(grandchild)).toBe(false);
	});
});

describe('run --demo', () => {
	const runIdPattern = /^\d{8}-\d{6}-[\da-f]{6}$/;

	/** A test home whose temp folder (TMPDIR) holds the demo home. */
	function demoHome() {
		const test = home();
		const tmp = path.join(test.dir, 'tmp');
		const runs = path.join(demoHomePath({}, tmp), 'delegate', 'runs');
		mkdirSync(runs, {recursive: true});
		onTestFinished(() => {
			for (const run of readdirSync(runs)) {
				for (const pgid of recordedGroups(path.join(runs, run))) signalGroup(pgid, 'SIGKILL');
			}
		});
		const demo = async () => runCli(test, ['run', '--demo', tasksJson({goal: 'a demo task', context: quick})], {env: {TMPDIR: tmp}});
		return {test, tmp, runs, demo};
	}

	it('uses one fixed home per user in the temp folder and keeps only its newest 10 runs', async () => {
		const {tmp, runs, demo} = demoHome();
		const old = Array.from({length: 12}, (_, index) => `20200101-0000${String(index).padStart(2, '0')}-abcdef`);
		for (const run of old) {
			mkdirSync(path.join(runs, run, 'logs'), {recursive: true});
			writeFileSync(path.join(runs, run, 'logs', 't01.log'), 'old');
		}
		// Not run folders of the demo: left as they are, and never followed.
		const outside = path.join(tmp, 'not-the-demos');
		mkdirSync(outside);
		writeFileSync(path.join(outside, 'precious'), 'keep');
		symlinkSync(outside, path.join(runs, '20000101-000000-abcdef'));
		writeFileSync(path.join(runs, 'notes.txt'), 'mine');

		const run = await demo();

		expect(run.exitCode).toBe(0);
		const report = JSON.parse(run.stdout) as BatchReport;
		expect(path.dirname(report.run_dir)).toBe(runs);
		expect(existsSync(report.results_file)).toBe(true);
		const folders = readdirSync(runs).filter(name => runIdPattern.test(name) && !lstatSync(path.join(runs, name)).isSymbolicLink());
		expect(folders.sort()).toEqual([...old.slice(3), report.run_id].sort());
		expect(readFileSync(path.join(runs, '20000101-000000-abcdef', 'precious'), 'utf8')).toBe('keep');
		expect(readFileSync(path.join(runs, 'notes.txt'), 'utf8')).toBe('mine');
		expect(readdirSync(tmp).sort()).toEqual([path.basename(demoHomePath({}, tmp)), 'not-the-demos']);
	});

	it('two demos started at once both run, in the same home', async () => {
		const {runs, demo} = demoHome();
		const [first, second] = await Promise.all([demo(), demo()]);

		for (const run of [first, second]) {
			expect(run.exitCode).toBe(0);
			const report = JSON.parse(run.stdout) as BatchReport;
			expect(path.dirname(report.run_dir)).toBe(runs);
			expect(existsSync(report.results_file)).toBe(true);
		}
	});
});

// Read-only commands in homes of their own: they run side by side.
describe.concurrent('config', () => {
	const secret = 'sk-or-v1-DO-NOT-PRINT-0123456789';
	const withKey = `delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: Quick lookups.
          provider: openrouter
          model: google/gemini-3-flash-preview
          api_key: ${secret}
`;

	it.for([['config', '--show'], ['config', '--show', '--json'], ['config']].map(args => ({args, line: args.join(' ')})))('$line never prints an api_key, and warns that one is stored', async ({args}, {expect, onTestFinished}) => {
		const run = await runCli(home(withKey, onTestFinished), args);

		expect(run.exitCode).toBe(0);
		expect(run.stdout).not.toContain(secret);
		expect(run.stderr).not.toContain(secret);
		expect(run.stderr).toMatch(/warning: .*api_key: an API key is stored in plain text/);
		expect(run.stdout).toContain('fast');
	});

	it('--json says an api_key is set without its value', async ({expect, onTestFinished}) => {
		const run = await runCli(home(withKey, onTestFinished), ['config', '--show', '--json']);
		const view = JSON.parse(run.stdout) as {mode: string; model_map: {options: Array<{name: string; api_key?: string}>}};

		expect(view.mode).toBe('model_map');
		expect(view.model_map.options[0]?.api_key).toMatch(/^<set: .*not shown>$/);
	});
});

describe.concurrent('--help', () => {
	it.for([[], ['run'], ['tui'], ['demo'], ['config']].map(command => ({command, line: [...command, '--help'].join(' ')})))('hermes-delegate $line exits 0 with usage', async ({command}, {expect, onTestFinished}) => {
		const test = home(undefined, onTestFinished);
		const run = await runCli(test, [...command, '--help'], {noHermesBin: true});

		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain(`Usage: hermes-delegate${command.length > 0 ? ` ${command[0]}` : ''} `);
		expect(test.agentRuns()).toEqual([]);
	});
});
