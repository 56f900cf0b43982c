// The reader keeps one connection per state.db (connections.ts) and still answers for the file that
// is at the path now: Hermes may replace the file, remove it, or create its tables after the file,
// and a connection kept from before must not answer for what is gone.
import {renameSync, rmSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {connectionCounts, maxOpen} from '../../../../src/core/hermes/state-db/connections.js';
import {readMessages} from '../../../../src/core/hermes/state-db/messages.js';
import {readSession} from '../../../../src/core/hermes/state-db/sessions.js';
import {scratchAfterEach} from '../../../helpers/scratch.js';
import {makeStateDb, messagesTable, sessionsTable} from '../../../helpers/state-db-files.js';

const scratch = scratchAfterEach();

/** A closed WAL state.db at `file` whose one session is `id`, with one message. */
function stateDb(file: string, id: string, tables = sessionsTable + messagesTable): void {
	const db = makeStateDb(file, tables);
	db.prepare("INSERT INTO sessions (id, source, started_at, api_call_count) VALUES (?, 'tool', 0, 1)").run(id);
	db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, 0)").run(id, `hello from ${id}`);
	db.close();
}

describe('the reader\'s connections to state.db', () => {
	it('keeps one connection per file across reads', () => {
		const file = path.join(scratch.folder('state-db-'), 'state.db');
		stateDb(file, 's1');
		const before = connectionCounts();
		for (let read = 0; read < 5; read++) {
			expect(readSession(file, 's1')).toMatchObject({kind: 'row'});
			expect(readMessages(file, 's1', 0)).toMatchObject({kind: 'rows', rows: [{content: 'hello from s1'}]});
		}

		expect(connectionCounts()).toEqual({open: before.open + 1, retired: before.retired});
	});

	it('reads the new file when Hermes replaces it (renamed over the path), and keeps the old connection closed', () => {
		const folder = scratch.folder('state-db-');
		const file = path.join(folder, 'state.db');
		stateDb(file, 'old');
		expect(readSession(file, 'old')).toMatchObject({kind: 'row', row: {id: 'old'}});
		const retired = connectionCounts().retired;
		stateDb(path.join(folder, 'new.db'), 'new');
		renameSync(path.join(folder, 'new.db'), file);
		expect(readSession(file, 'old')).toEqual({kind: 'no-row'});
		expect(readSession(file, 'new')).toMatchObject({kind: 'row', row: {id: 'new'}});
		expect(readMessages(file, 'new', 0)).toMatchObject({kind: 'rows', rows: [{content: 'hello from new'}]});
		expect(connectionCounts().retired).toBe(retired + 1);
	});

	it('says the file is missing once it is removed, not what it held', () => {
		const file = path.join(scratch.folder('state-db-'), 'state.db');
		stateDb(file, 's1');
		expect(readSession(file, 's1')).toMatchObject({kind: 'row'});
		rmSync(file);
		expect(readSession(file, 's1')).toMatchObject({kind: 'problem', problem: {kind: 'missing'}});
		// And a file made there again (a new session in a fresh home) is read.
		stateDb(file, 's2');
		expect(readSession(file, 's2')).toMatchObject({kind: 'row'});
	});

	it('opens nothing for a path with no file (a session not started yet), and closes what it had when the file goes', () => {
		const file = path.join(scratch.folder('state-db-'), 'state.db');
		const before = connectionCounts();
		expect(readSession(file, 's1')).toMatchObject({kind: 'problem', problem: {kind: 'missing', message: `${file} does not exist (Hermes creates it when a session starts in that home; check HERMES_HOME and the profile)`}});
		expect(readMessages(file, 's1', 0)).toMatchObject({kind: 'problem', problem: {kind: 'missing'}});
		expect(connectionCounts()).toEqual(before);
		stateDb(file, 's1');
		expect(readSession(file, 's1')).toMatchObject({kind: 'row'});
		rmSync(file);
		expect(readSession(file, 's1')).toMatchObject({kind: 'problem', problem: {kind: 'missing'}});
		expect(connectionCounts()).toEqual({open: before.open, retired: before.retired + 1});
	});

	it('sees tables and columns added after its first read (Hermes creates its tables after the file, and upgrades them)', () => {
		const file = path.join(scratch.folder('state-db-'), 'state.db');
		const db = makeStateDb(file, 'CREATE TABLE other (x INTEGER);');
		expect(readSession(file, 's1')).toMatchObject({kind: 'problem', problem: {kind: 'schema'}});
		db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL); INSERT INTO sessions VALUES ('s1', 'tool', 0)");
		expect(readSession(file, 's1')).toMatchObject({kind: 'row', row: {id: 's1', model: null}});
		db.exec("ALTER TABLE sessions ADD COLUMN model TEXT; UPDATE sessions SET model = 'm'");
		expect(readSession(file, 's1')).toMatchObject({kind: 'row', row: {id: 's1', model: 'm'}});
		db.close();
	});

	it(`keeps at most ${maxOpen} open, closing (and keeping) the least recently read`, () => {
		const folder = scratch.folder('state-db-');
		const files = Array.from({length: maxOpen + 2}, (_, index) => path.join(folder, `home-${index}`, 'state.db'));
		for (const [index, file] of files.entries()) stateDb(file, `s${index}`);
		const before = connectionCounts();
		for (const [index, file] of files.entries()) expect(readSession(file, `s${index}`)).toMatchObject({kind: 'row'});
		const after = connectionCounts();
		expect(after.open).toBe(maxOpen);
		expect(after.retired - before.retired).toBe(before.open + files.length - maxOpen);
		// The first one, closed, is opened again when read.
		expect(readSession(files[0]!, 's0')).toMatchObject({kind: 'row', row: {id: 's0'}});
	});
});
