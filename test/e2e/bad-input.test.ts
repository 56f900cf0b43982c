// Bad input is refused before anything starts: exit 2, one message on stderr that names the
// file, task index or field at fault, no agent process (the fake agent records every start in
// FAKE_HERMES_ARGV_FILE) and no run folder.
import {chmodSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, runCli, tasksJson, type CliOptions} from '../helpers/run-cli.js';

const one = tasksJson({goal: 'a fine task', context: '[fake:duration=0]'});

const modelRoute = (extra: string) => `delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: Quick lookups.
${extra}`;

type Case = {
	config?: string;
	/** Files written into the home before the run; `{home}` in args is replaced by its path. */
	files?: Record<string, string>;
	args: string[];
	options?: CliOptions;
	stderr: RegExp;
	/** Make a file in the home non-executable before the run. */
	notExecutable?: string;
};

const cases: Record<string, Case> = {
	'tasks that are neither JSON nor YAML': {files: {'tasks.txt': 'goal: [unclosed\n'}, args: ['run', '{home}/tasks.txt'], stderr: /tasks\.txt(:\d+)?: not valid JSON or YAML/},
	'inline JSON that does not parse': {args: ['run', '[{"goal": "x"'], stderr: /<inline>.*: not valid JSON or YAML/},
	'tasks that are not a list': {args: ['run', '{"goal":"x"}'], stderr: /<inline>.*: expected a list of tasks, got an object/},
	'an empty list': {args: ['run', '[]'], stderr: /<inline>: no tasks: the list is empty/},
	'a task without a goal': {args: ['run', '[{"goal": "ok"}, {"name": "no goal"}]'], stderr: /<inline>.*\[1\]\.goal: task t02: missing required field "goal"/},
	'a goal that is not text': {args: ['run', '[{"goal": 42}]'], stderr: /<inline>.*\[0\]\.goal: task t01: .*"goal"/},
	'an unknown task field': {args: ['run', '[{"goal": "x", "colour": "blue"}]'], stderr: /task t01: unknown field colour\n {2}fix: task fields are: goal, /},
	'a config.yaml that is not YAML': {config: 'delegation:\n  backend: [model_map\n', args: ['run', one], stderr: /config\.yaml(:\d+)?: not valid YAML/},
	'a model route with neither provider nor base_url': {
		config: modelRoute('          model: some/model\n'),
		args: ['run', one],
		stderr: /config\.yaml:\d+: delegation\.backends\.model_map\.options\[0\]\.provider: needs "provider" or "base_url"/,
	},
	'an active profile route whose profile folder is missing': {
		config: 'delegation:\n  backend: profile_routes\n  backends:\n    profile_routes:\n      profiles:\n        - name: coder\n          description: Writes code.\n',
		args: ['run', one],
		stderr: /profiles\[0\]\.name: profile "coder" does not exist \(no folder .*profiles\/coder\)/,
	},
	'a --config path that does not exist': {args: ['run', one, '--config', '{home}/typo.yaml'], stderr: /typo\.yaml: config file not found.*\n {2}fix: check the path, or leave --config out/},
	'an active mode with no routes': {config: 'delegation:\n  backend: model_map\n', args: ['run', one], stderr: /delegation\.backends\.model_map: the active backend is model_map but it has no options/},
	'--strict with a task naming an unknown route': {
		config: modelRoute('          provider: openrouter\n          model: some/model\n'),
		args: ['run', tasksJson({goal: 'fine'}, {goal: 'lost', option: 'turbo'}), '--strict'],
		stderr: /--strict: 1 task refused, so nothing was started:\n {2}task t02 \(lost\): option "turbo" is not in model_map/,
	},
	'a hermes binary that does not exist': {args: ['run', one, '--hermes-bin', '/nonexistent/bin/hermes'], options: {noHermesBin: true}, stderr: /the Hermes binary \/nonexistent\/bin\/hermes \(from --hermes-bin\) does not exist/},
	'no hermes on PATH': {args: ['run', one], options: {noHermesBin: true, env: {PATH: '/nonexistent'}}, stderr: /the Hermes binary "hermes" was not found on PATH/},
	'a hermes binary that is not executable': {
		files: {'hermes': '#!/bin/sh\necho never\n'},
		notExecutable: 'hermes',
		args: ['run', one, '--hermes-bin', '{home}/hermes'],
		options: {noHermesBin: true},
		stderr: /the Hermes binary .*\/hermes \(from --hermes-bin\) is not an executable file/,
	},
	'--concurrency 0': {args: ['run', one, '--concurrency', '0'], stderr: /--concurrency must be a whole number of at least 1, got "0"/},
	'--concurrency that is not a number': {args: ['run', one, '-j', 'lots'], stderr: /--concurrency must be a whole number of at least 1, got "lots"/},
	'--concurrency with a fraction': {args: ['run', one, '-j', '1.5'], stderr: /--concurrency must be a whole number/},
	'a negative --grace': {args: ['run', one, '--grace', '-1'], stderr: /--grace must be a number of at least 0, got "-1"/},
	'--grace that is not a number': {args: ['run', one, '--grace', 'soon'], stderr: /--grace must be a number of at least 0, got "soon"/},
	'a tasks file that does not exist': {args: ['run', '{home}/missing.json'], stderr: /missing\.json: no such tasks file/},
	'an --agent-nice out of range': {args: ['tui', one, '--agent-nice', '20'], stderr: /--agent-nice: "20" is not a niceness from 0 to 19\n {2}fix: pass a whole number from 0/},
	'an --agent-nice that is not a number': {args: ['demo', '--agent-nice', 'low'], stderr: /--agent-nice: "low" is not a niceness from 0 to 19/},
	'tui when stdout is not a terminal': {args: ['tui', one], stderr: /the dashboard needs a terminal, but stdout is not one\n {2}fix: use `hermes-delegate run`/},
};

// Each case is its own CLI run in its own home, so they run side by side.
describe.concurrent('bad input', () => {
	it.for(Object.entries(cases))('%s: exit 2, one message, nothing started', async ([, given], {expect, onTestFinished}) => {
		const home = makeHome(given.config);
		onTestFinished(() => home.remove());
		for (const [file, text] of Object.entries(given.files ?? {})) home.write(file, text);
		if (given.notExecutable) chmodSync(path.join(home.dir, given.notExecutable), 0o644);
		const args = given.args.map(arg => arg.replace('{home}', home.dir));

		const run = await runCli(home, args, given.options);

		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(given.stderr);
		// One message: a single `hermes-delegate:` report, no stack trace, nothing on stdout.
		expect(run.stderr.match(/hermes-delegate:/g)).toHaveLength(1);
		expect(run.stderr).not.toMatch(/^\s+at /m);
		expect(run.stdout).toBe('');
		expect(home.agentRuns()).toEqual([]);
		expect(home.runs()).toEqual([]);
	});
});

// Both bugs are in src (see the report); the exit code and the location are already right.
describe('bad input messages that are still wrong', () => {
	async function stderrOf(args: string[], files: Record<string, string> = {}, config?: string): Promise<string> {
		const home = makeHome(config);
		onTestFinished(() => home.remove());
		for (const [file, text] of Object.entries(files)) home.write(file, text);
		const run = await runCli(home, args.map(arg => arg.replace('{home}', home.dir)));
		expect(run.exitCode).toBe(2);
		return run.stderr;
	}

	// tasks.ts reads issue.input, which zod 4 leaves out unless asked (reportInput), so every wrong
	// type is reported as a missing field.
	it('says a goal of the wrong type has the wrong type, not that it is missing', async () => {
		expect(await stderrOf(['run', '[{"goal": 42}]'])).toMatch(/task t01: field "goal" expected a string, got a number/);
	});

	// yaml-locate parses with prettyErrors: false, so YAMLError.linePos is never set and the line
	// the message means to give is always dropped.
	it('gives the line of a YAML syntax error in a tasks file', async () => {
		expect(await stderrOf(['run', '{home}/tasks.yaml'], {'tasks.yaml': '- goal: fine\n- goal: [unclosed\n'})).toMatch(/tasks\.yaml:\d+: not valid JSON or YAML/);
	});
});

// A dry run starts nothing, so a bad binary does not fail it: the plan says what is wrong.
describe.concurrent('run --dry-run with a bad hermes binary', () => {
	const binCases: Record<string, Pick<Case, 'files' | 'notExecutable' | 'args'> & {env?: NodeJS.ProcessEnv; path: string; problem: RegExp}> = {
		'a hermes binary that does not exist': {args: ['--hermes-bin', '/nonexistent/bin/hermes'], path: '/nonexistent/bin/hermes', problem: /^the Hermes binary \/nonexistent\/bin\/hermes \(from --hermes-bin\) does not exist; fix: /},
		'no hermes on PATH': {args: [], env: {PATH: '/nonexistent'}, path: 'hermes', problem: /^the Hermes binary "hermes" was not found on PATH; fix: .*--hermes-bin/},
		'a hermes binary that is not executable': {files: {'hermes': '#!/bin/sh\necho never\n'}, notExecutable: 'hermes', args: ['--hermes-bin', '{home}/hermes'], path: '{home}/hermes', problem: /is not an executable file; fix: make it executable/},
	};

	it.for(Object.entries(binCases))('%s: exit 0, hermes_bin says why, a warning on stderr, nothing started', async ([, given], {expect, onTestFinished}) => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		for (const [file, text] of Object.entries(given.files ?? {})) home.write(file, text);
		if (given.notExecutable) chmodSync(path.join(home.dir, given.notExecutable), 0o644);
		const args = ['run', one, '--dry-run', ...given.args].map(arg => arg.replace('{home}', home.dir));

		const run = await runCli(home, args, {noHermesBin: true, env: given.env});

		expect(run.exitCode).toBe(0);
		const plan = JSON.parse(run.stdout) as {hermes_bin: {path: string; ok: boolean; problem: string}; tasks: Array<{argv: string[]}>};
		const binPath = given.path.replace('{home}', home.dir);
		expect(plan.hermes_bin).toEqual({path: binPath, ok: false, problem: expect.stringMatching(given.problem)});
		expect(plan.tasks[0]?.argv[0]).toBe(binPath);
		expect(run.stderr.split('\n')).toContain(`hermes-delegate: warning: ${plan.hermes_bin.problem}`);
		expect(home.agentRuns()).toEqual([]);
		expect(home.runs()).toEqual([]);
	});
});
