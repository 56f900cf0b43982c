import {execFileSync, spawnSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {InputError} from '../../../src/core/errors.js';
import {buildLaunch, childEnv, promptOf, queryArgs, resolveHermesBin} from '../../../src/core/hermes/launcher.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import type {DelegationConfig, HermesCapabilities, ModelRoute, PlannedTask, RoutingMode, TaskSpec} from '../../../src/core/types.js';

const fast: ModelRoute = {kind: 'model', name: 'fast', description: 'Quick lookups.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'};
const deep: ModelRoute = {kind: 'model', name: 'deep', description: 'Hard debugging.', provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'xhigh'};
const local: ModelRoute = {kind: 'model', name: 'local', description: 'A local server.', base_url: 'http://localhost:8080/v1', model: 'qwen'};
const remote: ModelRoute = {kind: 'model', name: 'remote', description: 'A hosted endpoint.', base_url: 'https://llm.example/v1', api_key: 'sk-remote', model: 'big'};

function planned(task: TaskSpec, mode: RoutingMode, capabilities: HermesCapabilities = v20, builtin: DelegationConfig['builtin'] = {}): PlannedTask {
	const delegation: DelegationConfig = {
		mode,
		builtin,
		modelMap: {options: [fast, deep, local, remote]},
		profileRoutes: {profiles: [{kind: 'profile', name: 'coder', description: 'Writes code.'}]},
		source: {path: 'config.yaml', exists: true},
	};
	return planBatch({tasks: [task], delegation, settings: {characteristics: {}, characteristicWords: {}}, capabilities}).tasks[0]!;
}

const bin = '/opt/hermes/bin/hermes';
const allFlags = {quiet: true, reasoning: true, streamJson: false, queryFile: false, runBudget: false, maxTurns: true, toolsets: true, skills: true, worktree: true, source: true, provider: true};
const v19: HermesCapabilities = {bin, version: '0.19.0', probed: true, flags: {...allFlags, reasoning: false}};
const v20: HermesCapabilities = {bin, version: '0.20.0', probed: true, flags: allFlags};
const v206: HermesCapabilities = {bin, version: '0.20.6', probed: true, flags: {...allFlags, streamJson: true, queryFile: true, runBudget: true}};

function launch(task: PlannedTask, capabilities: HermesCapabilities = v20, extra: {promptFile?: string; batchTimeoutMs?: number} = {}) {
	return buildLaunch(task, bin, {capabilities, ...extra});
}

function inputErrorOf(resolve: () => unknown): InputError {
	try {
		resolve();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}

	throw new Error('expected an InputError');
}

describe('buildLaunch: argv for every route kind (Hermes 0.20.0: -Q, --reasoning)', () => {
	it.each<[string, TaskSpec, RoutingMode, string[]]>([
		['a model route with provider', {goal: 'G', option: 'fast'}, 'model_map', ['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-m', 'google/gemini-3-flash-preview', '--provider', 'openrouter']],
		['a model route with a reasoning effort', {goal: 'G', option: 'deep'}, 'model_map', ['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-m', 'claude-opus-5', '--provider', 'anthropic', '--reasoning', 'xhigh']],
		['a model route with only a base_url: the lmstudio provider (chat completions)', {goal: 'G', option: 'local'}, 'model_map', ['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-m', 'qwen', '--provider', 'lmstudio']],
		['a profile route', {goal: 'G', profile: 'coder'}, 'profile_routes', ['-p', 'coder', 'chat', '-q', 'G', '--source', 'tool', '-Q']],
		['a profile route with an explicit model', {goal: 'G', profile: 'coder', model: 'x/y'}, 'profile_routes', ['-p', 'coder', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-m', 'x/y']],
		['the parent\'s own model', {goal: 'G'}, 'default', ['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q']],
		['an explicit model and provider', {goal: 'G', model: 'x/y', provider: 'p'}, 'default', ['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-m', 'x/y', '--provider', 'p']],
		['an explicit model over a named route', {goal: 'G', option: 'deep', model: 'x/y'}, 'model_map', ['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-m', 'x/y']],
		['toolsets, skills, max_turns and a worktree', {goal: 'G', toolsets: ['web', 'terminal'], skills: ['a', 'b'], max_turns: 7, worktree: true}, 'default', ['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-t', 'web,terminal', '-s', 'a', '-s', 'b', '--max-turns', '7', '-w']],
	])('%s', (_label, task, mode, args) => {
		expect(launch(planned(task, mode))).toEqual({file: bin, args, env: expect.any(Object), output: 'quiet'});
	});
});

describe('buildLaunch: what the installed Hermes supports', () => {
	it('passes -p default, never nothing: a sticky active_profile must not redirect a model route', () => {
		expect(launch(planned({goal: 'G', option: 'fast'}, 'model_map')).args.slice(0, 3)).toEqual(['-p', 'default', 'chat']);
	});

	it('on 0.19.0 leaves --reasoning out, and the task says so; the result route reports none passed', () => {
		const task = planned({goal: 'G', option: 'deep'}, 'model_map', v19);
		expect(launch(task, v19).args).not.toContain('--reasoning');
		expect(task.effective.reasoning_effort).toBeNull();
		expect(task.warnings.join('\n')).toMatch(/reasoning_effort xhigh is not passed: Hermes 0\.19\.0 has no --reasoning/);
	});

	it('uses --format stream-json instead of -Q where Hermes has it, and --run-budget for a timeout', () => {
		const task = planned({goal: 'G', timeout: 90.5}, 'default', v206);
		const {args, output} = launch(task, v206);
		expect(output).toBe('stream-json');
		expect(args).toEqual(['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '--format', 'stream-json', '--run-budget', '90']);
		expect(launch(planned({goal: 'G'}, 'default', v206), v206, {batchTimeoutMs: 30_000}).args.slice(-2)).toEqual(['--run-budget', '30']);
	});

	it('sends a base_url route to its endpoint with its key through the child\'s environment, never argv', () => {
		const task = planned({goal: 'G', option: 'remote'}, 'model_map');
		const {args, env} = launch(task);
		expect(env).toEqual({LM_BASE_URL: 'https://llm.example/v1', LM_API_KEY: 'sk-remote'});
		expect(args.join(' ')).not.toContain('sk-remote');
		expect(task.launch.base_url).toBe('https://llm.example/v1');
		expect(task.effective.provider).toBe('lmstudio');
	});

	it('a base_url route that asks for the Responses API goes through openai-api', () => {
		const responses: ModelRoute = {...remote, name: 'responses', api_mode: 'codex_responses'};
		const delegation: DelegationConfig = {mode: 'model_map', builtin: {}, modelMap: {options: [responses]}, profileRoutes: {profiles: []}, source: {path: 'config.yaml', exists: true}};
		const task = planBatch({tasks: [{goal: 'G', option: 'responses'}], delegation, settings: {characteristics: {}, characteristicWords: {}}, capabilities: v20}).tasks[0]!;
		expect(launch(task).env).toEqual({OPENAI_BASE_URL: 'https://llm.example/v1', OPENAI_API_KEY: 'sk-remote'});
		expect(task.effective.provider).toBe('openai-api');
		expect(task.warnings).toEqual([]);
	});

	it('a prompt over 128 KiB goes through --query-file where Hermes has it', () => {
		const goal = 'x'.repeat(140 * 1024);
		const task = planned({goal}, 'default', v206);
		expect(task.decision.refused).toBe(false);
		expect(task.launch.prompt_file).toBe(true);
		const {args} = launch(task, v206, {promptFile: '/run/prompts/t01.txt'});
		expect(args.slice(0, 5)).toEqual(['-p', 'default', 'chat', '--query-file', '/run/prompts/t01.txt']);
		expect(args.join(' ')).not.toContain('xxxx');
	});

	it('a prompt over 128 KiB is refused up front where Hermes has no --query-file, with the limit and the fix', () => {
		const task = planned({goal: 'x'.repeat(140 * 1024)}, 'default', v20);
		expect(task.decision.refused).toBe(true);
		expect(task.decision.reason).toMatch(/140 KiB, over the 128 KiB .* Hermes 0\.20\.0 has no --query-file .*upgrade Hermes, or shorten/);
	});

	it('an empty prompt is refused up front, never passed as -q or written as a --query-file (Hermes exits 2 on it)', () => {
		const v206: HermesCapabilities = {...v20, version: '0.20.6', flags: {...allFlags, streamJson: true, queryFile: true, runBudget: true}};
		for (const capabilities of [v19, v206]) {
			const task = planned({goal: ' \n\t '}, 'default', capabilities);
			expect(task.decision.refused).toBe(true);
			expect(task.decision.reason).toMatch(/prompt is empty \(Hermes exits 2 on an empty query\); give the task a goal/);
		}
	});

	it('a task field whose flag this Hermes lacks refuses that task', () => {
		const task = planned({goal: 'G', worktree: true}, 'default', {...v20, flags: {...allFlags, worktree: false}});
		expect(task.decision.refused).toBe(true);
		expect(task.decision.reason).toMatch(/task\.worktree needs `hermes chat -w`/);
	});

	it('the built-in mode runs on Hermes\'s own delegation.model, with its max_iterations as --max-turns', () => {
		const task = planned({goal: 'G'}, 'default', v20, {model: 'sub/model', provider: 'openrouter', reasoning_effort: 'low', max_iterations: 12});
		expect(task.decision.reason).toMatch(/delegation\.model sub\/model/);
		expect(launch(task).args).toEqual(['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '-Q', '-m', 'sub/model', '--provider', 'openrouter', '--reasoning', 'low', '--max-turns', '12']);
	});
});

describe('promptOf', () => {
	it('is the goal alone when there is no context', () => {
		expect(promptOf({goal: 'Explain recursion'})).toBe('Explain recursion');
	});

	it('appends the context under a Context: heading', () => {
		expect(promptOf({goal: 'Explain recursion', context: 'for a child\nin two lines'})).toBe('Explain recursion\n\nContext:\nfor a child\nin two lines');
	});
});

describe('buildLaunch: untrusted goals', () => {
	const hostile = 'Say $(rm -rf ~) and `id`; echo "quoted" \'single\' > /tmp/x | cat\nsecond line';

	it('a goal with shell metacharacters is one literal argument after -q', () => {
		const {args} = launch(planned({goal: hostile}, 'default'));
		expect(args[args.indexOf('-q') + 1]).toBe(hostile);
		expect(args).toHaveLength(8);
	});

	it('reaches a real process byte for byte, and nothing in it is executed', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-launch-'));
		try {
			const marker = path.join(dir, 'marker');
			const goal = `${hostile} $(touch ${marker}) \`touch ${marker}\``;
			const echo = path.join(dir, 'hermes');
			writeFileSync(echo, '#!/usr/bin/env node\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
			chmodSync(echo, 0o755);
			const {args} = launch(planned({goal, context: 'ctx; $HOME'}, 'default'));
			const received: unknown = JSON.parse(execFileSync(echo, args, {encoding: 'utf8'}));
			expect(received).toEqual(['-p', 'default', 'chat', '-q', `${goal}\n\nContext:\nctx; $HOME`, '--source', 'tool', '-Q']);
			expect(existsSync(marker)).toBe(false);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe('buildLaunch: a prompt that starts with "-"', () => {
	// Hermes parses with argparse, which takes a separate "-word" argument for an option.
	it.each<[string, TaskSpec]>([
		['a goal that looks like a long option', {goal: '--help me fix the build'}],
		['a goal that looks like a short option', {goal: '-m gpt-5 is what I want'}],
		['a lone dash', {goal: '-'}],
		['a goal that starts with "-=", which must not read as -q=VALUE', {goal: '-=x'}],
		['a dashed goal with a context', {goal: '-v', context: 'verbose'}],
	])('%s is attached to -q as one argument', (_label, task) => {
		expect(launch(planned(task, 'default')).args).toEqual(['-p', 'default', 'chat', `-q${promptOf(task)}`, '--source', 'tool', '-Q']);
	});

	it('keeps the two-item form for any other prompt, dashes inside included', () => {
		expect(queryArgs('fix the --help output')).toEqual(['-q', 'fix the --help output']);
		expect(queryArgs(' -leading space')).toEqual(['-q', ' -leading space']);
	});

	const python = spawnSync('python3', ['--version']).status === 0;
	const argparse = `
import argparse, json, sys
parser = argparse.ArgumentParser(prog='hermes')
parser.add_argument('-p', '--profile')
chat = parser.add_subparsers(dest='command').add_parser('chat')
chat.add_argument('-q', '--query')
chat.add_argument('-m', '--model')
chat.add_argument('--source')
chat.add_argument('-Q', '--quiet', action='store_true')
print(json.dumps(vars(parser.parse_args(sys.argv[1:]))))`;

	// The premise of the attached form, checked against argparse itself where Python is installed.
	it.skipIf(!python)('Python\'s argparse reads each launch as the whole prompt', () => {
		for (const goal of ['--help me fix the build', '-m x', '-', '-=x', '--query=y', 'plain']) {
			const {args} = launch(planned({goal, model: 'some/model'}, 'default'));
			const parsed = JSON.parse(execFileSync('python3', ['-c', argparse, ...args], {encoding: 'utf8'})) as Record<string, unknown>;
			expect(parsed).toEqual({profile: 'default', command: 'chat', query: goal, model: 'some/model', source: 'tool', quiet: true});
		}
	});
});

describe('resolveHermesBin', () => {
	let dir: string;
	const executable = (name: string) => {
		const file = path.join(dir, name);
		writeFileSync(file, '#!/bin/sh\nexit 0\n');
		chmodSync(file, 0o755);
		return file;
	};

	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'hd-bin-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('the flag wins over HERMES_BIN and PATH', () => {
		const flag = executable('from-flag');
		executable('hermes');
		expect(resolveHermesBin(flag, {HERMES_BIN: executable('from-env'), PATH: dir})).toBe(flag);
	});

	it('HERMES_BIN wins over PATH', () => {
		const fromEnv = executable('from-env');
		executable('hermes');
		expect(resolveHermesBin(undefined, {HERMES_BIN: fromEnv, PATH: dir})).toBe(fromEnv);
	});

	it('finds hermes on PATH, skipping entries where it is not an executable file', () => {
		const notExecutable = path.join(dir, 'a');
		mkdirSync(notExecutable);
		writeFileSync(path.join(notExecutable, 'hermes'), '#!/bin/sh\n', {mode: 0o644});
		const aDirectory = path.join(dir, 'b');
		mkdirSync(path.join(aDirectory, 'hermes'), {recursive: true});
		const real = path.join(dir, 'c');
		mkdirSync(real);
		writeFileSync(path.join(real, 'hermes'), '#!/bin/sh\n', {mode: 0o755});
		expect(resolveHermesBin(undefined, {PATH: [notExecutable, aDirectory, real].join(path.delimiter)})).toBe(path.join(real, 'hermes'));
	});

	it('a relative path is made absolute', () => {
		const file = executable('hermes');
		const relative = path.relative(process.cwd(), file);
		expect(resolveHermesBin(relative, {})).toBe(file);
	});

	it.each<[string, string, (dir: string) => [string | undefined, NodeJS.ProcessEnv], RegExp]>([
		['a missing --hermes-bin', '--hermes-bin', d => [path.join(d, 'nope'), {}], /does not exist/],
		['a missing HERMES_BIN', 'HERMES_BIN', d => [undefined, {HERMES_BIN: path.join(d, 'nope')}], /does not exist/],
		['a --hermes-bin without the execute bit', '--hermes-bin', d => {
			const file = path.join(d, 'plain');
			writeFileSync(file, '#!/bin/sh\n', {mode: 0o644});
			return [file, {}];
		}, /is not an executable file/],
		['a HERMES_BIN that is a directory', 'HERMES_BIN', d => [undefined, {HERMES_BIN: d}], /is not an executable file/],
	])('%s is an InputError naming where the path came from', (_label, origin, arrange, message) => {
		const [flag, env] = arrange(dir);
		const error = inputErrorOf(() => resolveHermesBin(flag, env));
		expect(error.message).toMatch(message);
		expect(error.message).toContain(`(from ${origin})`);
		expect(error.fix).toBeTruthy();
	});

	it('hermes missing from PATH is an InputError pointing at --hermes-bin, HERMES_BIN and the demo', () => {
		const error = inputErrorOf(() => resolveHermesBin(undefined, {PATH: dir}));
		expect(error.message).toBe('the Hermes binary "hermes" was not found on PATH');
		expect(error.fix).toMatch(/--hermes-bin.*HERMES_BIN.*demo/);
	});

	// Bug: launcher.ts:42 takes `env.HERMES_BIN ?? 'hermes'`, so an empty HERMES_BIN (unset
	// with `HERMES_BIN= cmd`) searches PATH for "" while the origin line already treats it as unset.
	it('an empty HERMES_BIN counts as unset and PATH is searched for hermes', () => {
		const onPath = executable('hermes');
		expect(resolveHermesBin(undefined, {HERMES_BIN: '', PATH: dir})).toBe(onPath);
	});
});

describe('the environment a task\'s hermes starts with', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'launcher-env-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('passes HERMES_HOME and the variables an operator sets on purpose, and none of a parent Hermes\'s own', async () => {
		// A stand-in for hermes that records the environment it was given, as a real process.
		const envFile = path.join(dir, 'env.txt');
		const script = path.join(dir, 'hermes');
		writeFileSync(script, `#!/bin/sh\nenv > '${envFile}'\necho done\n`);
		chmodSync(script, 0o755);
		const capabilities: HermesCapabilities = {bin: script, version: '0.20.0', probed: true, flags: allFlags};
		const plan = planBatch({tasks: [{goal: 'g', option: 'fast'}], delegation: {mode: 'model_map', builtin: {}, modelMap: {options: [fast]}, profileRoutes: {profiles: []}, source: {path: 'config.yaml', exists: true}}, settings: {characteristics: {}, characteristicWords: {}}, capabilities});
		const env = {
			PATH: process.env['PATH'], HOME: dir, OPENROUTER_API_KEY: 'sk-or', HERMES_HOME: path.join(dir, 'home'), HERMES_BUNDLED_SKILLS: path.join(dir, 'skills'), HERMES_ACCEPT_HOOKS: '1',
			HERMES_KANBAN_TASK: 't_parent', HERMES_KANBAN_RUN_ID: '7', HERMES_SESSION_ID: 'parent-session', HERMES_PROFILE: 'coder', HERMES_INFERENCE_MODEL: 'some/model', HERMES_BIN: script,
		};
		const report = await new BatchRunner(plan, {hermesBin: script, capabilities, env, folder: createRunFolder(path.join(dir, 'home')), concurrency: 1, graceMs: 1000}).start();
		expect(report.results[0]!.status).toBe('succeeded');
		const seen = Object.fromEntries(readFileSync(envFile, 'utf8').trim().split('\n').map(line => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
		expect(Object.keys(seen).filter(name => name.startsWith('HERMES_')).sort()).toEqual(['HERMES_ACCEPT_HOOKS', 'HERMES_BUNDLED_SKILLS', 'HERMES_HOME']);
		expect(seen).toMatchObject({HERMES_HOME: path.join(dir, 'home'), OPENROUTER_API_KEY: 'sk-or', HOME: dir});
	});

	it('drops HERMES_TUI, which would hand the run to Hermes\'s TUI, and names the home Hermes would fall back to when none is set', () => {
		const env = childEnv({PATH: '/bin', HOME: dir, HERMES_TUI: '1'}, {});
		expect(env['HERMES_TUI']).toBeUndefined();
		expect(env['HERMES_HOME']).toBe(path.join(dir, '.hermes'));
		expect(childEnv({HOME: dir, HERMES_HOME: '  '}, {})['HERMES_HOME']).toBe(path.join(dir, '.hermes'));
	});
});

describe('buildLaunch: --cli', () => {
	it('passes --cli where the installed Hermes lists it, so `display.interface: tui` cannot take the run', () => {
		const withCli: HermesCapabilities = {...v20, flags: {...allFlags, cli: true}};
		expect(launch(planned({goal: 'G'}, 'default', withCli), withCli).args).toEqual(['-p', 'default', 'chat', '-q', 'G', '--source', 'tool', '--cli', '-Q']);
		// A Hermes whose help does not list it would refuse the whole call: never guessed.
		expect(launch(planned({goal: 'G'}, 'default', v20), v20).args).not.toContain('--cli');
	});
});
