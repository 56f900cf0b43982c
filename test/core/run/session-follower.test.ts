// Following a running attempt's session in state.db, through real batches of
// real processes writing real SQLite files: on releases without stream-json the pane shows each
// tool call while it runs and the result records them; live spend reaches the batch's events while
// the task runs, on every release; a profile's home is followed; a session that never appears and
// a database that cannot be read cost nothing but missing lines (and spend's one warning).
import {chmodSync, existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {spawn, type ChildProcess} from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import {afterEach, describe, expect, it} from 'vitest';
import {defaultSettings} from '../../../src/core/config/settings.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import type {BatchEvent, DelegationConfig, TaskResult, TaskSpec} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv, type FakeHermesVersion} from '../../helpers/processes.js';
import {scratchAfterEach} from '../../helpers/scratch.js';
import {waitFor, waitForLine} from '../../helpers/wait-for.js';

const scratch = scratchAfterEach();
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const children: ChildProcess[] = [];
afterEach(() => {
	for (const child of children.splice(0)) child.kill('SIGKILL');
});

const routes: DelegationConfig = {
	mode: 'model_map',
	modelMap: {options: [{kind: 'model', name: 'fast', description: 'Cheap and quick lookups.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'}], default: 'fast'},
	profileRoutes: {profiles: [{kind: 'profile', name: 'coder', description: 'Writes and reviews code.'}], default: 'coder'},
	builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false},
};

type Batch = {home: string; runner: BatchRunner; events: BatchEvent[]};

function batch(tasks: TaskSpec[], options: {version?: FakeHermesVersion; delegation?: DelegationConfig; hermesBin?: string; home?: string} = {}): Batch {
	const version = options.version ?? '0.20.0';
	const home = options.home ?? scratch.folder('follow-home-');
	mkdirSync(path.join(home, 'profiles', 'coder'), {recursive: true});
	const plan = planBatch({tasks, delegation: options.delegation ?? routes, settings: defaultSettings});
	const runner = new BatchRunner(plan, {
		hermesBin: options.hermesBin ?? fakeAgentPath, capabilities: fakeCapabilities(version), folder: createRunFolder(home), concurrency: 4, graceMs: 300,
		env: {...fakeVersionEnv(version), HERMES_HOME: home}, followMs: 100,
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		scratch.track(event);
		events.push(event);
	});
	return {home, runner, events};
}

const shown = (runner: BatchRunner, id = 't01') => runner.output(id)?.display.lines() ?? [];

/** An agent that is not Hermes: prints an answer once `file` exists, and records nothing anywhere. */
function silentAgent(dir: string, file: string): string {
	const script = path.join(dir, 'silent-agent.sh');
	writeFileSync(script, `#!/bin/sh\nwhile [ ! -e '${file}' ]; do sleep 0.05; done\necho 'Plain answer.'\n`);
	chmodSync(script, 0o755);
	return script;
}

describe('following a running attempt\'s session', () => {
	it('0.20.0 (no stream-json, -Q prints nothing until the answer): the pane shows the call while the tool runs, and the result records the calls', async () => {
		const release = path.join(scratch.folder('follow-flag-'), 'release');
		const {runner, events} = batch([{goal: 'look it up', context: `[fake:steps=2] [fake:until-file=${release}]`, option: 'fast'}]);
		const done = runner.start();
		await waitFor(() => shown(runner).some(line => line.startsWith('⚙ web_search {"query":"look it up')), {message: 'the first call on the pane while it runs'});
		// Nothing was printed yet: the line came from the session's messages.
		expect(runner.output('t01')!.result().text).toBe('');
		// The fake's steps go on until the release: wait for the second call so there are two to
		// record (releasing during the first step would end the run after one).
		await waitFor(() => shown(runner).some(line => line.startsWith('⚙ web_extract')), {message: 'the second call on the pane while it runs'});
		writeFileSync(release, '');
		const report = await done;
		const [result] = report.results as [TaskResult];
		expect(result.status).toBe('succeeded');
		const lines = shown(runner);
		expect(lines.findIndex(line => line.startsWith('⚙ web_search'))).toBeLessThan(lines.findIndex(line => line.startsWith('Fake answer')));
		expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^ {2}↳ web_search \d+\.\ds$/), expect.stringMatching(/^⚙ web_extract /)]));
		expect(result.tool_calls.length).toBeGreaterThanOrEqual(2);
		expect(result.tool_calls[0]).toMatchObject({name: 'web_search', id: expect.stringMatching(/^call_/), input: expect.stringContaining('look it up'), is_error: false});
		expect(result.tool_calls[0]!.duration_ms).toBeGreaterThanOrEqual(0);
		// The live spend came while it ran: the tool calls counted before the task finished.
		const finishedAt = events.findIndex(event => event.type === 'task.finished');
		const live = events.slice(0, finishedAt).filter(event => event.type === 'task.spend');
		expect(live.length).toBeGreaterThanOrEqual(1);
		expect(live[0]).toMatchObject({id: 't01', attempt: 1, spend: {tool_calls: expect.any(Number)}});
		expect(live.some(event => event.type === 'task.spend' && (event.spend.tool_calls ?? 0) >= 1)).toBe(true);
	});

	it('0.19.0 in a profile\'s home ($HERMES_HOME/profiles/coder/state.db): an error shown with its message', async () => {
		const release = path.join(scratch.folder('follow-flag-'), 'release');
		const {home, runner} = batch([{goal: 'fix it', context: `[fake:steps=1] [fake:tool-error] [fake:until-file=${release}]`}], {version: '0.19.0', delegation: {...routes, mode: 'profile_routes'}});
		const done = runner.start();
		await waitFor(() => shown(runner).some(line => line.startsWith('⚙ web_search')), {message: 'the call on the pane'});
		writeFileSync(release, '');
		const [result] = (await done).results as [TaskResult];
		expect(result.route.name).toBe('coder');
		expect(shown(runner)).toContainEqual(expect.stringMatching(/^ {2}✗ web_search \d+\.\ds: web_search failed: permission denied$/));
		expect(result.tool_calls).toMatchObject([{name: 'web_search', is_error: true}]);
		// Only the profile's home holds the session: the root home has no database at all.
		expect(existsSync(path.join(home, 'profiles', 'coder', 'state.db'))).toBe(true);
		expect(existsSync(path.join(home, 'state.db'))).toBe(false);
	});

	it('stream-json (0.20.6): the pane is the events\', the live spend still comes from the row', async () => {
		const release = path.join(scratch.folder('follow-flag-'), 'release');
		const {runner, events} = batch([{goal: 'streamed', context: `[fake:steps=1] [fake:until-file=${release}]`, option: 'fast'}], {version: '0.20.6'});
		const done = runner.start();
		await waitFor(() => events.some(event => event.type === 'task.spend' && event.spend.tool_calls === 1), {message: 'the live spend'});
		writeFileSync(release, '');
		await done;
		// One ⚙ line: the decoder's, not a second from the messages.
		expect(shown(runner).filter(line => line.startsWith('⚙ '))).toHaveLength(1);
	});

	it('a session whose row never appears: no lines, no warning, the task\'s result as it is', async () => {
		const dir = scratch.folder('follow-silent-');
		const release = path.join(dir, 'release');
		const home = scratch.folder('follow-home-');
		// A state.db with Hermes's tables and nobody's session in it.
		const db = new Database(path.join(home, 'state.db'));
		db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, ended_at REAL, tool_call_count INTEGER, api_call_count INTEGER,
			input_tokens INTEGER, output_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER, reasoning_tokens INTEGER, billing_provider TEXT,
			estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT);
			CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, finish_reason TEXT);`);
		db.close();
		const {runner, events} = batch([{goal: 'quiet one', option: 'fast'}], {hermesBin: silentAgent(dir, release), home});
		const done = runner.start();
		await waitFor(() => events.some(event => event.type === 'task.started'), {message: 'the start'});
		// Not a timed assertion: the task is only kept running for a few poll intervals (100 ms), so the
		// follower has looked for the row several times before the agent answers.
		await waitFor(() => Date.now() - (events.find(event => event.type === 'task.started')!.at) > 500, {message: 'a few polls'});
		writeFileSync(release, '');
		const report = await done;
		const [result] = report.results as [TaskResult];
		expect(result).toMatchObject({status: 'succeeded', result: 'Plain answer.', tool_calls: []});
		expect(result.warnings).toBeUndefined();
		expect(report.warnings).toEqual([]);
		expect(shown(runner)).toEqual(['Plain answer.']);
		expect(events.filter(event => event.type === 'task.spend')).toEqual([]);
	});

	it.each(['damaged', 'locked'] as const)('a %s state.db: every task succeeds, no live lines, one warning for the batch', async kind => {
		const home = scratch.folder('follow-home-');
		const file = path.join(home, 'state.db');
		if (kind === 'damaged') {
			writeFileSync(file, 'garbage, not a database '.repeat(100));
		} else {
			// A rollback-journal database another process holds an exclusive transaction on (WAL readers would not care).
			const db = new Database(file);
			db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY)');
			db.close();
			const holder = spawn(process.execPath, ['-e', `const db = new (require('better-sqlite3'))(${JSON.stringify(file)}); db.exec('BEGIN EXCLUSIVE'); db.exec("INSERT INTO sessions VALUES ('x')"); console.log('locked'); setInterval(() => {}, 1000);`], {cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit']});
			children.push(holder);
			await waitForLine(holder.stdout!, /^locked$/);
		}

		const {runner} = batch([
			{goal: 'one', context: '[fake:duration=0.6] [fake:steps=2]', option: 'fast'},
			{goal: 'two', context: '[fake:duration=0.6] [fake:steps=2]', option: 'fast'},
		], {home});
		const report = await runner.start();
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
		expect(['t01', 't02'].flatMap(id => shown(runner, id)).filter(line => /^(⚙|\s+[↳✗])/.test(line))).toEqual([]);
		const fileWarnings = [...report.warnings, ...report.results.flatMap(result => result.warnings ?? [])].filter(warning => warning.includes(file));
		expect(fileWarnings).toHaveLength(1);
	});
});
