// The state.db reader against real SQLite files: written by another process in WAL mode while we
// read, held locked by another process, missing, truncated, and of a schema we do not know. What
// it protects: spend is read correctly while Hermes writes, and a database that cannot be read
// gives unknown spend with a reason, never a throw.
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {describe, expect, it} from 'vitest';
import {findSession, readSession, spendOf, stateDbPath, type SessionRead} from '../../../../src/core/hermes/state-db/sessions.js';
import {scratchAfterEach} from '../../../helpers/scratch.js';
import {makeStateDb, messagesTable, sessionsTable, sqliteChildren} from '../../../helpers/state-db-files.js';
import {waitFor, waitForLine} from '../../../helpers/wait-for.js';

const scratch = scratchAfterEach();
const children = sqliteChildren();
const makeDb = (file: string, journal: 'wal' | 'delete' = 'wal') => makeStateDb(file, sessionsTable + messagesTable, journal);
const sqliteChild = children.spawn;

function insert(db: Database.Database, id: string, values: Record<string, unknown> = {}, prompt = 'the prompt'): void {
	const row = {id, source: 'tool', model: 'm1', started_at: Date.now() / 1000, ...values};
	db.prepare(`INSERT INTO sessions (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`).run(...Object.values(row));
	db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, ?)").run(id, prompt, Date.now() / 1000);
}

const spendFrom = (read: SessionRead) => (read.kind === 'row' ? spendOf(read.row) : read);

describe('the state.db reader', () => {
	it('reads a row another process is writing in WAL mode: tool calls live, tokens only once the turn has ended', async () => {
		const file = path.join(scratch.folder('state-db-'), 'state.db');
		makeDb(file).close();
		// The writer keeps its connection open, as Hermes does, and moves on one step per line we send.
		const writer = sqliteChild(`
			const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
			db.pragma('journal_mode = WAL');
			const steps = [
				() => db.prepare("INSERT INTO sessions (id, source, model, started_at) VALUES ('s1', 'tool', 'm1', ?)").run(Date.now() / 1000),
				() => db.prepare("UPDATE sessions SET tool_call_count = tool_call_count + 1 WHERE id = 's1'").run(),
				() => db.prepare("UPDATE sessions SET tool_call_count = tool_call_count + 1 WHERE id = 's1'").run(),
				() => db.prepare("UPDATE sessions SET ended_at = ?, api_call_count = 3, input_tokens = 1500, output_tokens = 90, cache_read_tokens = 200, billing_provider = 'openrouter', estimated_cost_usd = 0.0012, cost_status = 'estimated' WHERE id = 's1'").run(Date.now() / 1000),
			];
			let step = 0;
			require('readline').createInterface({input: process.stdin}).on('line', () => { steps[step++](); console.log('step ' + step); });
			console.log('ready');
		`);
		await waitForLine(writer.stdout!, /^ready$/);
		const next = async (step: number) => {
			writer.stdin!.write('\n');
			await waitForLine(writer.stdout!, new RegExp(`^step ${step}$`));
		};

		expect(readSession(file, 's1')).toEqual({kind: 'no-row'});
		await next(1);
		expect(spendFrom(readSession(file, 's1'))).toMatchObject({tool_calls: 0, input_tokens: null, api_calls: null, cost_usd: null, model: 'm1'});
		await next(2);
		await next(3);
		// The writer's changes are in the WAL file, not yet in the main file: a WAL-aware read sees them.
		expect(readFileSync(`${file}-wal`).length).toBeGreaterThan(0);
		expect(spendFrom(readSession(file, 's1'))).toMatchObject({tool_calls: 2, input_tokens: null});
		await next(4);
		expect(spendFrom(readSession(file, 's1'))).toEqual({
			input_tokens: 1500, output_tokens: 90, cache_read_tokens: 200, cache_write_tokens: 0, reasoning_tokens: 0,
			api_calls: 3, tool_calls: 2, cost_usd: 0.0012, cost_status: 'estimated', model: 'm1', billing_provider: 'openrouter',
		});
		// Our reads held nothing: the writer can still checkpoint the whole WAL into the main file.
		const checkpoint = new Database(file);
		expect((checkpoint.pragma('wal_checkpoint(TRUNCATE)') as Array<{busy: number}>)[0]!.busy).toBe(0);
		checkpoint.close();
	});

	it('keeps an interrupted session\'s zeros as unknown, and an unpriced cost as unknown', () => {
		const file = path.join(scratch.folder('state-db-'), 'state.db');
		const db = makeDb(file);
		insert(db, 'interrupted', {tool_call_count: 1});
		insert(db, 'unpriced', {ended_at: Date.now() / 1000, api_call_count: 1, input_tokens: 102, output_tokens: 7, billing_provider: 'custom', cost_status: 'unknown', estimated_cost_usd: 0});
		db.close();
		expect(spendFrom(readSession(file, 'interrupted'))).toMatchObject({input_tokens: null, output_tokens: null, api_calls: null, cost_usd: null, tool_calls: 1});
		expect(spendFrom(readSession(file, 'unpriced'))).toMatchObject({input_tokens: 102, output_tokens: 7, api_calls: 1, cost_usd: null, cost_status: 'unknown', billing_provider: 'custom'});
	});

	it('finds a session by its prompt, source and start, and refuses to guess between two', () => {
		const file = path.join(scratch.folder('state-db-'), 'state.db');
		const db = makeDb(file);
		const spawnedAt = Date.now();
		insert(db, 'old', {started_at: spawnedAt / 1000 - 3600}, 'Summarise the log');
		insert(db, 'cli', {source: 'cli'}, 'Summarise the log');
		insert(db, 'other', {}, 'Something else');
		insert(db, 'mine', {}, 'Summarise the log');
		expect(findSession(file, {startedAfter: spawnedAt, prompt: '  Summarise the log\n', source: 'tool'})).toEqual({kind: 'found', sessionId: 'mine'});
		expect(findSession(file, {startedAfter: spawnedAt, prompt: 'Nobody asked this', source: 'tool'})).toEqual({kind: 'none'});
		insert(db, 'twin', {}, 'Summarise the log');
		db.close();
		expect(findSession(file, {startedAfter: spawnedAt, prompt: 'Summarise the log', source: 'tool'})).toEqual({kind: 'ambiguous', sessionIds: ['mine', 'twin']});
	});

	it('reads the profile\'s own home for -p NAME and the root home for default', () => {
		const home = scratch.folder('state-db-home-');
		expect(stateDbPath(home, 'default')).toBe(path.join(home, 'state.db'));
		expect(stateDbPath(home, 'coder')).toBe(path.join(home, 'profiles', 'coder', 'state.db'));
		const root = makeDb(stateDbPath(home, 'default'));
		insert(root, 'root-session', {api_call_count: 1, input_tokens: 10, output_tokens: 1});
		root.close();
		const coder = makeDb(stateDbPath(home, 'coder'));
		insert(coder, 'coder-session', {api_call_count: 1, input_tokens: 20, output_tokens: 2, model: 'profile-coder-model'});
		coder.close();
		expect(spendFrom(readSession(stateDbPath(home, 'coder'), 'coder-session'))).toMatchObject({input_tokens: 20, model: 'profile-coder-model'});
		expect(readSession(stateDbPath(home, 'default'), 'coder-session')).toEqual({kind: 'no-row'});
	});

	describe('a database it cannot read gives a problem in words, never a throw', () => {
		it('missing: and it creates no file', () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			const read = readSession(file, 's1');
			expect(read).toMatchObject({kind: 'problem', problem: {kind: 'missing'}});
			expect(read.kind === 'problem' && read.problem.message).toContain(file);
			expect(() => readFileSync(file)).toThrow(/ENOENT/);
		});

		it('locked: another process holds an exclusive transaction on a rollback-journal database', async () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			const db = makeDb(file, 'delete');
			insert(db, 's1');
			db.close();
			const holder = sqliteChild(`
				const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
				db.exec('BEGIN EXCLUSIVE');
				db.prepare("UPDATE sessions SET tool_call_count = 5 WHERE id = 's1'").run();
				console.log('locked');
				setInterval(() => {}, 1000);
			`);
			await waitForLine(holder.stdout!, /^locked$/);
			expect(readSession(file, 's1')).toMatchObject({kind: 'problem', problem: {kind: 'locked'}});
			holder.kill('SIGKILL');
			await waitFor(() => readSession(file, 's1').kind === 'row', {message: 'the lock to go with its process'});
			// The holder never committed: its update is not there.
			expect(spendFrom(readSession(file, 's1'))).toMatchObject({tool_calls: 0});
		});

		it('in WAL mode an exclusive transaction does not stop a reader: it sees the last commit', async () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			const db = makeDb(file);
			insert(db, 's1', {tool_call_count: 1});
			db.close();
			const holder = sqliteChild(`
				const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
				db.exec('BEGIN EXCLUSIVE');
				db.prepare("UPDATE sessions SET tool_call_count = 5 WHERE id = 's1'").run();
				console.log('locked');
				setInterval(() => {}, 1000);
			`);
			await waitForLine(holder.stdout!, /^locked$/);
			expect(spendFrom(readSession(file, 's1'))).toMatchObject({tool_calls: 1});
		});

		it('truncated', () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			const db = makeDb(file, 'delete');
			db.transaction(() => {
				for (let index = 0; index < 200; index++) insert(db, `s${index}`, {}, 'x'.repeat(500));
			})();
			db.close();
			const whole = readFileSync(file);
			writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 3)));
			expect(readSession(file, 's150')).toMatchObject({kind: 'problem', problem: {kind: 'damaged'}});
		});

		it('not a database at all', () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			writeFileSync(file, 'this is not SQLite, but it is long enough to have a header of sorts.\n'.repeat(20));
			expect(readSession(file, 's1')).toMatchObject({kind: 'problem', problem: {kind: 'damaged'}});
		});

		it('a newer schema: its user_version does not matter, its columns are read by name', () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			const db = makeDb(file);
			insert(db, 's1', {api_call_count: 1, input_tokens: 5});
			db.pragma('user_version = 30');
			db.close();
			expect(spendFrom(readSession(file, 's1'))).toMatchObject({api_calls: 1, input_tokens: 5});
		});

		it('a sessions table without some spend columns (not yet upgraded by a Hermes writing it): those are unknown', () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			const db = new Database(file);
			db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, model TEXT, started_at REAL, api_call_count INTEGER, input_tokens INTEGER); INSERT INTO sessions VALUES ('s1', 'tool', 'm', 0, 1, 5)");
			db.close();
			expect(spendFrom(readSession(file, 's1'))).toMatchObject({api_calls: 1, input_tokens: 5, output_tokens: null, cost_usd: null, cost_status: null, model: 'm'});
		});

		it('a schema without what every read needs', () => {
			const file = path.join(scratch.folder('state-db-'), 'state.db');
			const db = new Database(file);
			db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY, model TEXT, tokens INTEGER); INSERT INTO sessions VALUES ('s1', 'm', 5)");
			db.close();
			const read = readSession(file, 's1');
			expect(read).toMatchObject({kind: 'problem', problem: {kind: 'schema'}});
			expect(read.kind === 'problem' && read.problem.message).toMatch(/without source, started_at/);
			expect(findSession(file, {startedAfter: 0, prompt: 'x'})).toMatchObject({kind: 'problem', problem: {kind: 'schema'}});
		});
	});
});
