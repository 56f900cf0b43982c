import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {InputError, InputErrors} from '../../../src/core/errors.js';
import {defaultCharacteristicWords, defaultSettings, loadSettings, settingsPath} from '../../../src/core/config/settings.js';
import {removeHermesHomes, writeHermesHome} from '../../helpers/hermes-home.js';

afterEach(removeHermesHomes);

function problemsOf(delegate: string): InputError[] {
	const {settingsPath: file} = writeHermesHome({delegate});
	try {
		loadSettings(file);
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		const problems = error instanceof InputErrors ? error.problems : [error as InputError];
		for (const problem of problems) {
			expect(problem.location.file).toBe(file);
		}

		return problems;
	}

	throw new Error('expected the settings to be refused');
}

describe('loadSettings', () => {
	it('lives in delegate.yaml beside, never inside, Hermes\'s config.yaml', () => {
		const {home, settingsPath: file} = writeHermesHome();
		expect(settingsPath(home)).toBe(file);
	});

	it('a missing file gives the defaults', () => {
		const {settingsPath: file} = writeHermesHome();
		expect(loadSettings(file)).toEqual({...defaultSettings, concurrencySet: false});
	});

	it('an empty file gives the defaults', () => {
		const {settingsPath: file} = writeHermesHome({delegate: ''});
		expect(loadSettings(file)).toEqual({...defaultSettings, concurrencySet: false});
	});

	it('returns a copy: changing the result does not change the defaults', () => {
		const {settingsPath: file} = writeHermesHome();
		const settings = loadSettings(file);
		settings.characteristicWords['coding']?.push('zzz');
		settings.characteristics['coding'] = 'deep';
		expect(defaultSettings.characteristicWords['coding']).not.toContain('zzz');
		expect(loadSettings(file).characteristics).toEqual({});
	});

	it('says whether concurrency was set, so Hermes\'s max_concurrent_children can be the default', () => {
		expect(loadSettings(writeHermesHome({delegate: 'concurrency: 3\n'}).settingsPath).concurrencySet).toBe(true);
		expect(loadSettings(writeHermesHome({delegate: 'grace: 1\n'}).settingsPath).concurrencySet).toBe(false);
	});

	it('reads every setting, with grace renamed to graceSeconds', () => {
		const {settingsPath: file} = writeHermesHome({delegate: [
			'concurrency: 8',
			'grace: 2.5',
			'characteristics: {coding: deep, quick: fast}',
			'theme: light',
			'keys: {cancel: [x, ctrl+c]}',
			'',
		].join('\n')});
		expect(loadSettings(file)).toMatchObject({
			concurrency: 8,
			graceSeconds: 2.5,
			characteristics: {coding: 'deep', quick: 'fast'},
			theme: 'light',
			keys: {cancel: ['x', 'ctrl+c']},
		});
	});

	it.each([
		['log_limit: 512MB\n', 512 * 1024 * 1024],
		['log_limit: 1.5 GiB\n', 1.5 * 1024 ** 3],
		['log_limit: 65536\n', 65_536],
		['log_limit: "128k"\n', 128 * 1024],
		['log_limit: 0\n', 0],
		['theme: dark\n', defaultSettings.logLimitBytes],
	])('reads the log limit %j as %d bytes (0 = none, 256 MiB when unset)', (delegate, bytes) => {
		const {settingsPath: file} = writeHermesHome({delegate});
		expect(loadSettings(file).logLimitBytes).toBe(bytes);
		expect(defaultSettings.logLimitBytes).toBe(256 * 1024 * 1024);
	});

	it.each([
		['log_limit: 512\n', 'log limit 512 bytes is below the minimum of 64 KiB', /add the unit, e\.g\. "512MB"/],
		['log_limit: lots\n', 'log limit must be a size like 512MB or a number of bytes, got "lots"', /at least 64KiB; 0 = no limit/],
		['log_limit: -1\n', 'log limit must be a size like 512MB or a number of bytes, got -1', /a size like 512MB/],
		['log_limit: 5 parsecs\n', 'log limit must be a size like 512MB or a number of bytes, got "5 parsecs"', /a size like 512MB/],
	])('the log limit %j is refused at its line, with a fix', (delegate, message, fix) => {
		const [problem, ...rest] = problemsOf(`theme: dark\n${delegate}`);
		expect(rest).toEqual([]);
		expect(problem!.message).toBe(message);
		expect(problem!.location).toMatchObject({path: 'log_limit', line: 2});
		expect(problem!.fix).toMatch(fix);
	});

	it('characteristic_words replaces the words of the characteristics it names and keeps the others', () => {
		const {settingsPath: file} = writeHermesHome({delegate: 'characteristic_words:\n  coding: [kotlin]\n  legal: [contract, clause]\n'});
		const words = loadSettings(file).characteristicWords;
		expect(words['coding']).toEqual(['kotlin']);
		expect(words['legal']).toEqual(['contract', 'clause']);
		expect(words['research']).toEqual([...defaultCharacteristicWords['research']!]);
	});

	it.each([
		['concurrency: 0\n', 'concurrency', 1],
		['concurrency: 2.5\n', 'concurrency', 1],
		['grace: -1\n', 'grace', 1],
		['theme: dark\nkeys:\n  cancel: []\n', 'keys.cancel', 3],
		['characteristics:\n  coding: ""\n', 'characteristics.coding', 2],
	])('the invalid setting %j is refused at its path and line', (delegate, settingPath, line) => {
		const [problem] = problemsOf(delegate);
		expect(problem!.location).toMatchObject({path: settingPath, line});
	});

	it.each([
		['concurrency: 0\n', 'must be at least 1', /how many tasks run at once/],
		['concurrency: 2.5\n', 'must be a whole number, got 2.5', /whole number from 1 to 256/],
		['concurrency: four\n', 'expected a number, got a string', /whole number from 1 to 256/],
		['concurrency: 999\n', 'must be at most 256', /1 to 256/],
		['grace: -1\n', 'must be at least 0', /between SIGTERM and SIGKILL/],
		['theme: 5\n', 'expected a string, got a number', /theme name/],
		['keys:\n  task.kill: []\n', 'must not be an empty list', /list of keys/],
		['characteristics: [deep]\n', 'expected an object, got a list', /coding: deep/],
		['grace:\n', 'expected a number, got null', /leave the setting out/],
	])('%j is refused in our wording, with a fix', (delegate, message, fix) => {
		const [problem, ...rest] = problemsOf(delegate);
		expect(rest).toEqual([]);
		expect(problem!.message).toBe(message);
		expect(problem!.fix).toMatch(fix);
	});

	it('an unknown setting is named, with the list of known ones', () => {
		const [problem] = problemsOf('concurrency: 2\nconcurrancy: 4\n');
		expect(problem!.message).toBe('unknown setting concurrancy');
		expect(problem!.location).toMatchObject({path: 'concurrancy', line: 2});
		expect(problem!.fix).toBe('did you mean "concurrency"? known settings: concurrency, grace, characteristics, characteristic_words, theme, keys, mouse, log_limit, executor, concurrency_per_provider, budgets, budget_action, stuck_after, mcp');
	});

	it('a syntax error is an input error naming the file, the line and the fix', () => {
		const [problem] = problemsOf('concurrency: 2\ngrace: 1\ngrace: 2\n');
		expect(problem!.message).toMatch(/^not valid YAML/);
		expect(problem!.location.line).toBe(3);
		expect(problem!.fix).toBe('fix the YAML syntax at that line');
	});

	it('an alias bomb is refused with the same fix as every other YAML file', () => {
		const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
		for (const [previous, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e']]) {
			levels.push(`${name}: &${name} [${Array.from({length: 10}, () => `*${previous}`).join(', ')}]`);
		}

		const bomb = levels.join('\n');
		const [problem] = problemsOf(`${bomb}\n`);
		expect(problem!.message).toBe('too many alias expansions (possible alias bomb)');
		expect(problem!.fix).toMatch(/instead of through YAML anchors and aliases/);
	});

	it('a settings path that is a directory is an input error, not a crash', () => {
		const {settingsPath: file} = writeHermesHome();
		mkdirSync(file);
		expect(() => loadSettings(file)).toThrow(InputError);
	});
});

describe('delegate.yaml that is not UTF-8', () => {
	it('is refused naming the encoding and the fix, not read with U+FFFD in it', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-settings-'));
		const file = path.join(dir, 'delegate.yaml');
		writeFileSync(file, Buffer.from('theme: caf\xe9\n', 'latin1'));
		expect(() => loadSettings(file)).toThrow(/not valid UTF-8/);
	});
});

describe('delegate.yaml: budgets, per-provider concurrency, stuck_after', () => {
	it('reads them', () => {
		const {settingsPath: file} = writeHermesHome({delegate: 'concurrency_per_provider: {openrouter: 4}\nbudgets:\n  deep: {usd: 2}\n  fast: {tokens: 500000}\nbudget_action: cancel\nstuck_after: 90\n'});
		expect(loadSettings(file)).toMatchObject({concurrencyPerProvider: {openrouter: 4}, routeBudgets: {deep: {usd: 2}, fast: {tokens: 500_000}}, budgetAction: 'cancel', stuckAfterMs: 90_000});
	});

	it('a bad one is named with its line and the fix', () => {
		const problems = problemsOf('concurrency: 2\nbudgets:\n  deep: {dollars: 2}\nbudget_action: pause\n');
		expect(problems.map(problem => [problem.location.path, problem.location.line])).toEqual([['budgets.deep.dollars', 3], ['budgets.deep', 3], ['budget_action', 4]]);
		expect(problems[2]!.fix).toContain('`stop` (no further task of the scope starts) or `cancel`');
	});
});

describe('delegate.yaml: the MCP server\'s task limit', () => {
	it('mcp.max_tasks is read; without it, the default', () => {
		expect(loadSettings(writeHermesHome({delegate: 'mcp:\n  max_tasks: 7\n'}).settingsPath).mcpMaxTasks).toBe(7);
		expect(loadSettings(writeHermesHome({delegate: 'concurrency: 2\n'}).settingsPath).mcpMaxTasks).toBe(defaultSettings.mcpMaxTasks);
	});

	it('a limit that is no whole number from 1 is named with its line', () => {
		const problems = problemsOf('concurrency: 2\nmcp:\n  max_tasks: 0\n');
		expect(problems.map(problem => [problem.location.path, problem.location.line])).toEqual([['mcp.max_tasks', 3]]);
	});
});

describe('delegate.yaml: the dashboard\'s mouse', () => {
	it('mouse: false is read; left out, the settings say nothing (the dashboard then reads the mouse)', () => {
		expect(loadSettings(writeHermesHome({delegate: 'mouse: false\n'}).settingsPath).mouse).toBe(false);
		expect(loadSettings(writeHermesHome({delegate: 'concurrency: 2\n'}).settingsPath).mouse).toBeUndefined();
	});

	it('a mouse setting that is no true or false is named with its line and the fix', () => {
		const [problem, ...rest] = problemsOf('concurrency: 2\nmouse: off please\n');
		expect(rest).toEqual([]);
		expect(problem!.location).toMatchObject({path: 'mouse', line: 2});
		expect(problem!.fix).toMatch(/--no-mouse/);
	});
});
