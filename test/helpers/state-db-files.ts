// Real Hermes-shaped state.db files for the readers' tests: the tables both recorded releases
// create (docs/spend.md), a database made in WAL or rollback-journal mode, and node children that
// hold it open as Hermes does (writing, or holding an exclusive lock), killed after each test.
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdirSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {afterEach} from 'vitest';

export const sessionsTable = `CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, ended_at REAL,
	end_reason TEXT, message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, api_call_count INTEGER DEFAULT 0,
	input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0,
	reasoning_tokens INTEGER DEFAULT 0, billing_provider TEXT, billing_base_url TEXT, estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT);`;

export const messagesTable = `CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
	content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT);`;

/** A new state.db (its folder made) with `tables`, in WAL mode unless asked otherwise; open, for the test to fill and close. */
export function makeStateDb(file: string, tables: string, journal: 'wal' | 'delete' = 'wal'): Database.Database {
	mkdirSync(path.dirname(file), {recursive: true});
	const db = new Database(file);
	db.pragma(`journal_mode = ${journal}`);
	db.exec(tables);
	return db;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Call at a test file's top level: `spawn(script)` runs a node child with better-sqlite3 from this repository; every child is killed after each test. */
export function sqliteChildren(): {spawn: (script: string) => ChildProcess} {
	const children: ChildProcess[] = [];
	afterEach(() => {
		for (const child of children.splice(0)) child.kill('SIGKILL');
	});
	return {
		spawn(script) {
			const child = spawn(process.execPath, ['-e', script], {cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit']});
			children.push(child);
			return child;
		},
	};
}
