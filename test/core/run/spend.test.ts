// Spend in the results: each attempt's row read from the home it ran in (the profile's under a
// profile route), the batch's sums per route and per model with unknown kept unknown, and a
// database that cannot be read costing one warning and nothing else. Real fake-agent batches
// write real state.db files here.
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {describe, expect, it} from 'vitest';
import {defaultSettings} from '../../../src/core/config/settings.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {buildResult} from '../../../src/core/run/results.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {SpendReader, spendTotals} from '../../../src/core/run/spend.js';
import type {DelegationConfig, Spend, TaskResult, TaskSpec} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {scratchAfterEach} from '../../helpers/scratch.js';
import {waitFor} from '../../helpers/wait-for.js';

const scratch = scratchAfterEach();

const routes: DelegationConfig = {
	mode: 'model_map',
	modelMap: {
		options: [
			{kind: 'model', name: 'fast', description: 'Cheap and quick lookups.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'},
			{kind: 'model', name: 'local', description: 'On the machine.', provider: 'custom', model: 'local-model'},
		],
		default: 'fast',
	},
	profileRoutes: {profiles: [{kind: 'profile', name: 'coder', description: 'Writes and reviews code.'}], default: 'coder'},
	builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false},
};

function batch(tasks: TaskSpec[], delegation: DelegationConfig = routes, version: '0.20.0' | '0.20.6' = '0.20.0', capabilities = fakeCapabilities(version), home = scratch.folder('spend-home-')) {
	mkdirSync(path.join(home, 'profiles', 'coder'), {recursive: true});
	const plan = planBatch({tasks, delegation, settings: defaultSettings});
	const runner = new BatchRunner(plan, {
		// Four at once: several fakes write one state.db while the batch reads it, as Hermes runs do.
		// (Under load that once left a spend unknown: reads now retry briefly on SQLITE_BUSY, state-db/open.ts.)
		hermesBin: fakeAgentPath, capabilities, folder: createRunFolder(home), concurrency: 4, graceMs: 300,
		env: {...fakeVersionEnv(version), HERMES_HOME: home},
	});
	runner.subscribe(event => scratch.track(event));
	return {home, runner};
}

function rowOf(dbFile: string, id: string): Record<string, unknown> {
	const db = new Database(dbFile, {readonly: true});
	try {
		return db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as Record<string, unknown>;
	} finally {
		db.close();
	}
}

describe('spend in a batch\'s results', () => {
	it('gives each task the spend of its own session row, from the home it ran in', async () => {
		const {home, runner} = batch([
			{goal: 'look up the capital', context: '[fake:duration=0] [fake:steps=2]', option: 'fast'},
			{goal: 'ask the local model', context: '[fake:duration=0] [fake:steps=1]', option: 'local'},
		]);
		const report = await runner.start();
		const [fast, local] = report.results as [TaskResult, TaskResult];
		const fastRow = rowOf(path.join(home, 'state.db'), fast.session_id!);
		expect(fast.spend).toEqual({
			input_tokens: fastRow['input_tokens'], output_tokens: fastRow['output_tokens'], cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0,
			api_calls: 3, tool_calls: 2, cost_usd: fastRow['estimated_cost_usd'], cost_status: 'estimated', model: 'google/gemini-3-flash-preview', billing_provider: 'openrouter',
		});
		expect(fast.spend!.cost_usd).toBeGreaterThan(0);
		// A custom provider has no price: Hermes says so, and the cost stays unknown, not 0.
		expect(local.spend).toMatchObject({cost_usd: null, cost_status: 'unknown', billing_provider: 'custom', tool_calls: 1});
		expect(local.spend!.input_tokens).toBeGreaterThan(0);
		expect(report.spend!.total).toMatchObject({
			input_tokens: fast.spend!.input_tokens! + local.spend!.input_tokens!,
			cost_usd: fast.spend!.cost_usd,
			attempts: 2, unknown_attempts: 0, unpriced_attempts: 1,
		});
		expect(Object.keys(report.spend!.by_route).sort()).toEqual(['fast', 'local']);
		expect(report.spend!.by_model['local-model']).toMatchObject({input_tokens: local.spend!.input_tokens, cost_usd: null, unpriced_attempts: 1});
		expect(report.warnings.filter(warning => warning.startsWith('spend'))).toEqual([]);
	});

	it('reads a profile route\'s session from the profile\'s own state.db', async () => {
		const {home, runner} = batch([{goal: 'write the code', context: '[fake:duration=0] [fake:steps=3] [fake:tokens=900,40]'}], {...routes, mode: 'profile_routes'});
		const report = await runner.start();
		const [coder] = report.results as [TaskResult];
		expect(coder.route.name).toBe('coder');
		expect(rowOf(path.join(home, 'profiles', 'coder', 'state.db'), coder.session_id!)).toMatchObject({input_tokens: 900, output_tokens: 40});
		expect(coder.spend).toMatchObject({input_tokens: 900, output_tokens: 40, tool_calls: 3, api_calls: 4});
		expect(report.spend!.by_route['coder']).toMatchObject({input_tokens: 900, attempts: 1});
	});

	it('in text mode, which names the session only in its footer, finds the row by prompt and start', async () => {
		const text = fakeCapabilities('0.20.0');
		const {runner} = batch([{goal: 'plain text run', context: '[fake:duration=0] [fake:steps=2] [fake:tokens=77,7]'}], routes, '0.20.0', {...text, flags: {...text.flags, quiet: false}});
		const report = await runner.start();
		const [result] = report.results as [TaskResult];
		expect(report.hermes.output).toBe('text');
		expect(result.session_id).toBeNull();
		expect(result.spend).toMatchObject({input_tokens: 77, output_tokens: 7, tool_calls: 2});
	});

	it('leaves an interrupted task\'s tokens unknown, and its tool calls counted', async () => {
		const {runner} = batch([{goal: 'stopped halfway', context: '[fake:forever] [fake:ready] [fake:term-exit] [fake:term-delay=0]'}]);
		const done = runner.start();
		await waitFor(() => runner.output('t01')?.stdout.lines().includes('READY') ?? false, {message: 'READY'});
		runner.cancel('t01');
		const [result] = (await done).results as [TaskResult];
		expect(result.status).toBe('cancelled');
		expect(result.spend).toMatchObject({input_tokens: null, output_tokens: null, api_calls: null, cost_usd: null});
		expect(result.spend!.tool_calls).toBeGreaterThanOrEqual(1);
	});

	it('agrees with stream-json\'s result tokens (0.20.6)', async () => {
		const {runner} = batch([{goal: 'streamed', context: '[fake:duration=0] [fake:steps=1] [fake:tokens=321,12]'}], routes, '0.20.6');
		const [result] = (await runner.start()).results as [TaskResult];
		expect(result.tokens).toMatchObject({input: 321, output: 12});
		expect(result.spend).toMatchObject({input_tokens: 321, output_tokens: 12});
		expect(result.warnings ?? []).toEqual([]);
	});

	it('reads the new state.db of a home whose file was removed and made again between two batches (one process, one kept connection per path)', async () => {
		const first = batch([{goal: 'first batch', context: '[fake:duration=0] [fake:steps=1] [fake:tokens=500,50]', option: 'fast'}]);
		const [before] = (await first.runner.start()).results as [TaskResult];
		expect(before.spend).toMatchObject({input_tokens: 500, output_tokens: 50});
		for (const suffix of ['', '-wal', '-shm']) rmSync(path.join(first.home, `state.db${suffix}`), {force: true});
		const second = batch([{goal: 'second batch', context: '[fake:duration=0] [fake:steps=2] [fake:tokens=11,2]', option: 'fast'}], routes, '0.20.0', fakeCapabilities('0.20.0'), first.home);
		const report = await second.runner.start();
		const [after] = report.results as [TaskResult];
		expect(after.spend).toMatchObject({input_tokens: 11, output_tokens: 2, tool_calls: 2});
		expect(report.warnings.filter(warning => warning.startsWith('spend'))).toEqual([]);
	});

	it('a damaged state.db: every task still succeeds, spend is unknown, and it is said once', async () => {
		const {home, runner} = batch([
			{goal: 'one', context: '[fake:duration=0] [fake:steps=1]', option: 'fast'},
			{goal: 'two', context: '[fake:duration=0] [fake:steps=1]', option: 'fast'},
		]);
		// Not SQLite: the fake cannot record into it either (it says so on stderr and goes on).
		writeFileSync(path.join(home, 'state.db'), 'garbage, not a database '.repeat(100));
		const report = await runner.start();
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
		expect(report.results.map(result => result.spend?.input_tokens)).toEqual([null, null]);
		const warnings = report.warnings.filter(warning => warning.startsWith('spend unknown'));
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(path.join(home, 'state.db'));
		expect(report.spend!.total).toMatchObject({input_tokens: null, cost_usd: null, attempts: 2, unknown_attempts: 2});
		expect(readFileSync(path.join(home, 'state.db'), 'utf8')).toMatch(/^garbage/);
	});
});

describe('SpendReader', () => {
	const plan = planBatch({tasks: [{goal: 'g'}], delegation: routes, settings: defaultSettings});
	const task = plan.tasks[0]!;
	const ran = (extra: Partial<Parameters<typeof buildResult>[1]> = {}) => buildResult(task, {status: 'succeeded', exitCode: 0, signal: null, startedAt: Date.now(), finishedAt: Date.now(), stdout: {text: 'ok', truncated: false}, logPath: null, ...extra});

	it('gives an attempt that never started no spend at all, and one without a readable row unknown spend', () => {
		const reader = new SpendReader({HERMES_HOME: scratch.folder('spend-empty-')}, true);
		const unstarted = buildResult(task, {status: 'refused', exitCode: null, signal: null, startedAt: null, finishedAt: null, stdout: {text: '', truncated: false}, logPath: null});
		expect(reader.attach(task, unstarted).spend).toBeNull();
		expect(reader.attach(task, ran({sessionId: '20261201_101010_abcdef'})).spend).toMatchObject({input_tokens: null, tool_calls: null, cost_usd: null});
		expect(reader.attach(task, ran({sessionId: '20261201_101010_fedcba'})).spend).toMatchObject({input_tokens: null});
		expect(reader.warnings()).toEqual([expect.stringMatching(/^spend unknown: .*state\.db does not exist/)]);
	});

	it('warns when stream-json\'s tokens differ from the row, and keeps the row\'s', () => {
		const home = scratch.folder('spend-mismatch-');
		const db = new Database(path.join(home, 'state.db'));
		db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, model TEXT, started_at REAL, ended_at REAL, tool_call_count INTEGER, api_call_count INTEGER, input_tokens INTEGER, output_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER, reasoning_tokens INTEGER, billing_provider TEXT, estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT)");
		db.prepare("INSERT INTO sessions VALUES ('s1', 'tool', 'm', 0, 1, 0, 1, 100, 10, 0, 0, 0, 'openrouter', 0.01, NULL, 'estimated')").run();
		db.close();
		const result = new SpendReader({HERMES_HOME: home}, true).attach(task, ran({sessionId: 's1', tokens: {input: 99, output: 10, total: 109, cache_read: 0, cache_write: 0}}));
		expect(result.spend).toMatchObject({input_tokens: 100, cost_usd: 0.01});
		expect(result.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/stream-json \(99 in, 10 out\) differ from its session row in state\.db \(100 in, 10 out\)/)]));
	});
});

describe('spendTotals', () => {
	const spend = (values: Partial<Spend>): Spend => ({input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, reasoning_tokens: null, api_calls: null, tool_calls: null, cost_usd: null, cost_status: null, model: null, billing_provider: null, ...values});
	const plan = planBatch({tasks: [{goal: 'a', option: 'fast'}, {goal: 'b', option: 'local'}], delegation: routes, settings: defaultSettings});
	const result = (index: number, value: Spend | null, extra: Partial<TaskResult> = {}): TaskResult => ({
		...buildResult(plan.tasks[index]!, {status: 'succeeded', exitCode: 0, signal: null, startedAt: value === null ? null : 1, finishedAt: 2, stdout: {text: '', truncated: false}, logPath: null}),
		spend: value,
		...extra,
	});

	it('sums what is known, counts what is not, and leaves out attempts that never ran', () => {
		const earlier = result(1, spend({input_tokens: 50, output_tokens: 5, api_calls: 1, tool_calls: 0, model: 'local-model', cost_status: 'unknown'}));
		const totals = spendTotals([
			result(0, spend({input_tokens: 100, output_tokens: 10, api_calls: 2, tool_calls: 1, cost_usd: 0.5, model: 'flash'})),
			result(0, spend({tool_calls: 4, model: 'flash'}), {earlier_attempts: [earlier]}),
			result(1, null),
		]);
		expect(totals.total).toEqual({input_tokens: 150, output_tokens: 15, cache_read_tokens: null, cache_write_tokens: null, reasoning_tokens: null, api_calls: 3, tool_calls: 5, cost_usd: 0.5, attempts: 3, unknown_attempts: 1, unpriced_attempts: 1});
		expect(totals.by_route['fast']).toMatchObject({input_tokens: 100, tool_calls: 5, attempts: 2, unknown_attempts: 1});
		// The re-routed attempt counts on the route it ran on.
		expect(totals.by_route['local']).toMatchObject({input_tokens: 50, cost_usd: null, attempts: 1, unpriced_attempts: 1});
		expect(Object.keys(totals.by_model).sort()).toEqual(['flash', 'local-model']);
	});

	it('a batch where nothing is known sums to unknown, not to zero', () => {
		expect(spendTotals([result(0, spend({}))]).total).toMatchObject({input_tokens: null, cost_usd: null, attempts: 1, unknown_attempts: 1});
	});
});
