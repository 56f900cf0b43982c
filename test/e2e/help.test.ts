// `--help` teaches: every command shows examples, the long option lists come in
// groups, and a mistyped command or task field gets "did you mean" — each a refusal that exits 2
// with nothing on stdout, as every bad input does.
import {afterEach, describe, expect, it} from 'vitest';
import {readReference} from '../../scripts/docs.mjs';
import {makeHome, runCli, type TestHome} from '../helpers/run-cli.js';

let home: TestHome | undefined;
afterEach(() => {
	home?.remove();
	home = undefined;
});

type Reference = Array<{path: string[]; help: string}>;

describe('--help', () => {
	const reference = readReference() as Reference;

	it('shows examples under every command and subcommand', () => {
		const without = reference.filter(command => !/\nExamples:\n {2}\$ hermes-delegate /.test(command.help)).map(command => command.path.join(' ') || '(the program)');
		expect(without).toEqual([]);
	});

	it('puts run\'s options in groups, and the program\'s commands', () => {
		const run = reference.find(command => command.path.join(' ') === 'run')!.help;
		for (const heading of ['Tasks, Hermes and routes:', 'How tasks run:', 'Budgets and logs:', 'Output:', 'Worker hosts (NATS):']) expect(run).toContain(`\n${heading}\n`);
		expect(run.indexOf('--budget-usd')).toBeGreaterThan(run.indexOf('Budgets and logs:'));
		const program = reference.find(command => command.path.length === 0)!.help;
		expect(program).toMatch(/\nRun a batch:\n {2}run /);
	});
});

describe('did you mean', () => {
	it('offers the command a mistyped subcommand was meant to be, and exits 2', async () => {
		home = makeHome();
		const result = await runCli(home, ['config', 'shwo']);
		expect(result.exitCode).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toContain('error: unknown command \'shwo\' for \'config\'\n(Did you mean show?)');
	});

	it('names the subcommands when a word is no near miss', async () => {
		home = makeHome();
		const result = await runCli(home, ['config', 'frobnicate']);
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('unknown command \'frobnicate\' for \'config\' (its commands: show, set-mode, route, add-route, remove-route)');
	});

	it('offers the command a mistyped top-level command was meant to be', async () => {
		home = makeHome();
		const result = await runCli(home, ['rnu']);
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('(Did you mean run?)');
	});

	it('offers the task field a misspelt one was meant to be, and starts nothing', async () => {
		home = makeHome();
		const result = await runCli(home, ['run', '[{"goal": "x", "optoin": "fast"}]']);
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('task t01: unknown field optoin\n  fix: did you mean "option"? task fields are: goal, ');
		expect(home.agentRuns()).toEqual([]);
	});
});
