// The read-only connections to Hermes's state.db files: one per file, kept open between reads with
// its prepared statements, and no better-sqlite3 object ever left for the garbage collector.
//
// Why kept: better-sqlite3 12 wraps its Database and Statement in node::ObjectWrap, whose destructor
// on Node 24 (node_object_wrap.h since 24.19) removes an environment cleanup hook, and that aborts
// the process (`Assertion failed: (env) != nullptr`, SIGABRT) when the collector frees one while no
// context is entered. A reader that opens and drops a connection and its statements per read dies
// so some time into a batch (test/core/hermes/state-db/gc.test.ts). better-sqlite3 13 (Node-API)
// has no such destructor but needs Node 22; while Node 20 is supported, nothing here is ever
// unreachable: a connection that must go (its file replaced, the cache full) is closed and kept,
// with its statements, in `retired`. That happens when Hermes replaces a file or a process reads
// more than `maxOpen` homes, so the list stays short.
//
// Kept open, a connection holds Hermes up no more than one per read did: every statement is reset
// as it returns (get, all), so no read transaction or WAL read mark outlives a read. One difference:
// while we are connected, the last Hermes process to close the file is not SQLite's last connection,
// so it leaves state.db-wal in place for the next writer to checkpoint (nothing is lost).
import {statSync} from 'node:fs';
import Database from 'better-sqlite3';

type Connection = {
	db: Database.Database;
	/** The file this connection opened (device and inode): another file at the path is a new database. */
	file: string;
	busyTimeoutMs: number;
	/** PRAGMA schema_version when `columns` was filled: Hermes adds tables and columns as it upgrades a file. */
	schemaVersion: number | undefined;
	columns: Map<string, Set<string>>;
	statements: Map<string, Database.Statement>;
};

/** Connections open at once: one per Hermes home (and profile) a process reads. */
export const maxOpen = 8;

const open = new Map<string, Connection>();
const byDb = new WeakMap<Database.Database, Connection>();
const retired: Connection[] = [];

const fileOf = (dbPath: string): string => {
	const stats = statSync(dbPath, {throwIfNoEntry: false});
	return stats ? `${stats.dev}:${stats.ino}` : 'none';
};

function retire(dbPath: string, connection: Connection): void {
	open.delete(dbPath);
	retired.push(connection);
	try {
		connection.db.close();
	} catch {
		// A connection that failed half-way has nothing left to release.
	}
}

/**
 * The open connection to `dbPath`, opened read-only (the file must exist) if there is none or the
 * path now names another file; with `busyTimeoutMs` as its busy timeout. Undefined when no file is
 * at the path: asked before the open, which would fail the same way but through a SqliteError and
 * its stack (a task's session follower asks at its start and its end, mostly before Hermes made
 * the file: bench/RESULTS.md, 2026-12-06, "`run`'s CPU against GNU parallel"). Throws what opening threw.
 */
export function connectionTo(dbPath: string, busyTimeoutMs: number): Database.Database | undefined {
	const file = fileOf(dbPath);
	let connection = open.get(dbPath);
	if (connection && (connection.file !== file || !connection.db.open)) {
		retire(dbPath, connection);
		connection = undefined;
	}

	if (file === 'none') return undefined;
	if (!connection) {
		const db = new Database(dbPath, {readonly: true, fileMustExist: true, timeout: busyTimeoutMs});
		connection = {db, file, busyTimeoutMs, schemaVersion: undefined, columns: new Map(), statements: new Map()};
		byDb.set(db, connection);
	}

	// Last in the map is the most recently used; the first ones go when too many are open.
	open.delete(dbPath);
	open.set(dbPath, connection);
	for (const [oldest, other] of open) {
		if (open.size <= maxOpen) break;
		retire(oldest, other);
	}

	if (connection.busyTimeoutMs !== busyTimeoutMs) {
		statement(connection.db, `PRAGMA busy_timeout = ${Math.round(busyTimeoutMs)}`).get();
		connection.busyTimeoutMs = busyTimeoutMs;
	}

	return connection.db;
}

function connectionOf(db: Database.Database): Connection {
	const connection = byDb.get(db);
	if (!connection) throw new Error('a state.db connection not opened by connectionTo');
	return connection;
}

/** `sql` prepared once per connection, and kept as long as the connection. */
export function statement(db: Database.Database, sql: string): Database.Statement {
	const {statements} = connectionOf(db);
	let found = statements.get(sql);
	if (!found) statements.set(sql, found = db.prepare(sql));
	return found;
}

/**
 * Forgets the columns known on this connection if the file's schema changed since they were asked
 * (Hermes creates its tables after the file, and adds columns as it upgrades). Called first in
 * every read, so a damaged file fails here, when SQLite reads its header.
 */
export function checkSchema(db: Database.Database): void {
	const connection = connectionOf(db);
	const version = statement(db, 'PRAGMA schema_version').pluck().get() as number;
	if (version === connection.schemaVersion) return;
	connection.columns.clear();
	connection.schemaVersion = version;
}

/** The columns `table` has (PRAGMA table_info), asked once per schema of the file (checkSchema). */
export function columnsOf(db: Database.Database, table: string): Set<string> {
	const {columns} = connectionOf(db);
	let known = columns.get(table);
	if (!known) {
		const rows = statement(db, 'SELECT name FROM pragma_table_info(?)').all(table) as Array<{name: string}>;
		columns.set(table, known = new Set(rows.map(row => row.name)));
	}

	return known;
}

/** How many connections are open and how many were closed (and kept): for the tests. */
export function connectionCounts(): {open: number; retired: number} {
	return {open: open.size, retired: retired.length};
}
