// The messages reader against real SQLite files: another process appending a session's rows in
// WAL mode while we read (only the rows after the last id, in order, bounded), and a database that
// cannot be read (missing, locked, damaged, an older schema) as a problem in words, never a throw.
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {describe, expect, it} from 'vitest';
import {maxContentChars, maxRowsPerRead, readMessages, type MessageRow} from '../../../../src/core/hermes/state-db/messages.js';
import {SessionMessages} from '../../../../src/core/hermes/session-messages.js';
import {scratchAfterEach} from '../../../helpers/scratch.js';
import {makeStateDb, messagesTable, sqliteChildren} from '../../../helpers/state-db-files.js';
import {waitFor, waitForLine} from '../../../helpers/wait-for.js';

const scratch = scratchAfterEach();
const sqliteChild = sqliteChildren().spawn;

/** A messages table with the session's prompt row, as Hermes starts one. */
function makeDb(file: string, journal: 'wal' | 'delete' = 'wal'): void {
	const db = makeStateDb(file, messagesTable, journal);
	db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'the prompt', 1)").run();
	db.close();
}

const rowsOf = (file: string, afterId = 0): MessageRow[] => {
	const read = readMessages(file, 's1', afterId);
	if (read.kind !== 'rows') throw new Error(read.problem.message);
	return read.rows;
};

describe('the messages reader', () => {
	it('follows rows another process appends in WAL mode: each read returns only the rows after the last id', async () => {
		const file = path.join(scratch.folder('messages-db-'), 'state.db');
		makeDb(file);
		// The writer keeps its connection open, as Hermes does, and writes one step per line we send.
		const writer = sqliteChild(`
			const db = new (require('better-sqlite3'))(${JSON.stringify(file)}, {timeout: 5000});
			db.pragma('journal_mode = WAL');
			const add = db.prepare('INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, finish_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
			const steps = [
				() => add.run('s1', 'assistant', null, null, JSON.stringify([{id: 'c1', type: 'function', function: {name: 'terminal', arguments: '{"command": "sleep 300"}'}}]), null, 2, 'tool_calls'),
				() => { add.run('other', 'user', 'another session', null, null, null, 2.5, null); add.run('s1', 'tool', JSON.stringify({output: 'ok', exit_code: 0, error: null}), 'c1', null, 'terminal', 6.5, null); },
				() => add.run('s1', 'assistant', 'The answer.', null, null, null, 7, 'stop'),
			];
			let step = 0;
			process.stdin.on('data', () => { steps[step++](); console.log('wrote ' + step); });
			console.log('ready');
		`);
		await waitForLine(writer.stdout!, /^ready$/);
		const messages = new SessionMessages();
		const shown: string[] = [];
		const follow = () => shown.push(...messages.add(rowsOf(file, messages.lastId)));
		follow();
		for (const step of [1, 2, 3]) {
			writer.stdin!.write('next\n');
			await waitForLine(writer.stdout!, new RegExp(`^wrote ${step}$`));
			follow();
		}

		expect(shown).toEqual(['⚙ terminal {"command":"sleep 300"}', '  ↳ terminal 4.5s']);
		expect(messages.lastId).toBe(5);
		expect(rowsOf(file, messages.lastId)).toEqual([]);
	});

	it('reads at most a bounded number of rows, and a bounded part of each', () => {
		const file = path.join(scratch.folder('messages-db-'), 'state.db');
		makeDb(file);
		const db = new Database(file);
		db.transaction(() => {
			for (let index = 0; index < maxRowsPerRead + 50; index++) db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'tool', ?, 2)").run('z'.repeat(maxContentChars * 3));
		})();
		db.close();
		const first = rowsOf(file);
		expect(first).toHaveLength(maxRowsPerRead);
		expect(first[1]).toMatchObject({content: 'z'.repeat(maxContentChars), contentCut: true});
		expect(rowsOf(file, first.at(-1)!.id)).toHaveLength(51);
	});

	describe('a database it cannot read gives a problem in words', () => {
		it('missing, and it creates no file', () => {
			const file = path.join(scratch.folder('messages-db-'), 'profiles', 'coder', 'state.db');
			expect(readMessages(file, 's1', 0)).toMatchObject({kind: 'problem', problem: {kind: 'missing'}});
			expect(() => readFileSync(file)).toThrow(/ENOENT/);
		});

		it('locked: an exclusive transaction held by another process on a rollback-journal database', async () => {
			const file = path.join(scratch.folder('messages-db-'), 'state.db');
			makeDb(file, 'delete');
			const holder = sqliteChild(`
				const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
				db.exec('BEGIN EXCLUSIVE');
				db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'assistant', 'x', 2)").run();
				console.log('locked');
				setInterval(() => {}, 1000);
			`);
			await waitForLine(holder.stdout!, /^locked$/);
			const read = readMessages(file, 's1', 0);
			expect(read).toMatchObject({kind: 'problem', problem: {kind: 'locked'}});
			expect(read.kind === 'problem' && read.problem.message).toContain(file);
			holder.kill('SIGKILL');
			await waitFor(() => readMessages(file, 's1', 0).kind === 'rows', {message: 'the lock to go with its process'});
			expect(rowsOf(file).map(row => row.role)).toEqual(['user']);
		});

		it('damaged', () => {
			const file = path.join(scratch.folder('messages-db-'), 'state.db');
			writeFileSync(file, 'not SQLite at all, but long enough to look like a header of sorts.\n'.repeat(20));
			expect(readMessages(file, 's1', 0)).toMatchObject({kind: 'problem', problem: {kind: 'damaged'}});
		});

		it('a messages table without the columns every read needs', () => {
			const file = path.join(scratch.folder('messages-db-'), 'state.db');
			const db = new Database(file);
			db.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, timestamp REAL)');
			db.close();
			const read = readMessages(file, 's1', 0);
			expect(read).toMatchObject({kind: 'problem', problem: {kind: 'schema'}});
			expect(read.kind === 'problem' && read.problem.message).toMatch(/without content/);
		});
	});
});

describe('the messages reader on other schemas', () => {
	it('reads a table that lacks the tool columns (an older or not yet upgraded database): they are unknown', () => {
		const file = path.join(scratch.folder('messages-db-'), 'state.db');
		const db = new Database(file);
		db.exec("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL); INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'the prompt', 1)");
		db.close();
		expect(rowsOf(file)).toEqual([expect.objectContaining({role: 'user', content: 'the prompt', tool_calls: null, tool_name: null, finish_reason: null, timestamp: 1})]);
	});

	it('leaves out the rows schema 30 marks hidden (display_kind), and a hidden flag where there is one', () => {
		const file = path.join(scratch.folder('messages-db-'), 'state.db');
		const db = new Database(file);
		db.exec(`CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
			timestamp REAL, finish_reason TEXT, display_kind TEXT, hidden INTEGER, reasoning_details TEXT)`);
		const add = db.prepare('INSERT INTO messages (session_id, role, content, timestamp, display_kind, hidden) VALUES (?, ?, ?, ?, ?, ?)');
		add.run('s1', 'user', 'the prompt', 1, null, null);
		add.run('s1', 'user', 'scaffolding for the model', 2, 'hidden', null);
		add.run('s1', 'assistant', 'a hidden note', 3, null, 1);
		add.run('s1', 'assistant', 'The answer.', 4, 'text', 0);
		db.close();
		expect(rowsOf(file).map(row => row.content)).toEqual(['the prompt', 'The answer.']);
	});
});
