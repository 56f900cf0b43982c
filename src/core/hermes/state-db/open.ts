// How every read of a Hermes state.db is made (docs/spend.md), shared by the spend reader
// (sessions.ts) and the live activity reader (messages.ts). The rules that keep Hermes safe:
// - read-only, the file must exist (we never create a database where Hermes has none);
// - every statement is reset as it returns (get, all): no transaction or read mark outlives it, so
//   a checkpoint or a writer is never held up by us; the connection and its statements are kept
//   for the next read (connections.ts says why: better-sqlite3 12 on Node 24);
// - a short busy timeout, and a couple of short retries on SQLITE_BUSY: under several writers a
//   read-only connection can be told "busy" without SQLite waiting at all (the WAL index being
//   rebuilt or checkpointed as it opens), which a moment later is gone;
// - whatever the file is (missing, locked, truncated, corrupt, a schema we do not know), the answer
//   is a value with the problem in words, never a throw.
import type Database from 'better-sqlite3';
import {checkSchema, columnsOf, connectionTo} from './connections.js';

export {columnsOf, statement} from './connections.js';

export type StateDbProblem = {
	kind: 'missing' | 'locked' | 'damaged' | 'schema' | 'unreadable';
	/** One sentence naming the file, what is wrong, and what would help. */
	message: string;
	/** A schema problem: the table that lacks what the read needs. */
	table?: 'sessions' | 'messages';
};

export type ProblemRead = {kind: 'problem'; problem: StateDbProblem};

/** How long one read may wait for a lock: a batch's reads run on the runner's thread, so little. */
export type ReadPatience = {
	/** SQLite's busy timeout for each try. */
	busyTimeoutMs: number;
	/** Pauses before each further try after SQLITE_BUSY/LOCKED; their count is the retries. */
	retryPausesMs: readonly number[];
};

/** What spend (once per attempt, at its end) may spend on a lock: under a second in the worst case. */
export const endOfAttemptPatience: ReadPatience = {busyTimeoutMs: 200, retryPausesMs: [20, 50]};

const busyCodes = /^SQLITE_(BUSY|LOCKED)/;
const pause = new Int32Array(new SharedArrayBuffer(4));

function missingProblem(dbPath: string): StateDbProblem {
	return {kind: 'missing', message: `${dbPath} does not exist (Hermes creates it when a session starts in that home; check HERMES_HOME and the profile)`};
}

function problemOf(dbPath: string, error: unknown, patience: ReadPatience): StateDbProblem {
	const code = (error as {code?: unknown}).code;
	const detail = error instanceof Error ? error.message : String(error);
	if (code === 'SQLITE_CANTOPEN' || (error instanceof TypeError && /does not exist/.test(detail))) {
		return missingProblem(dbPath);
	}

	if (typeof code === 'string' && busyCodes.test(code)) {
		return {kind: 'locked', message: `${dbPath} is locked by another process (still after ${patience.retryPausesMs.length + 1} tries of ${patience.busyTimeoutMs} ms: ${detail}); it is read again later`};
	}

	if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
		return {kind: 'damaged', message: `${dbPath} is damaged or not a SQLite database (${detail}); Hermes's own \`hermes sessions\` commands will fail on it too`};
	}

	return {kind: 'unreadable', message: `${dbPath} cannot be read (${typeof code === 'string' ? `${code}: ` : ''}${detail})`};
}

/**
 * A SELECT list of `columns` read by name: each one the table has, else NULL under its name. Hermes
 * adds columns from release to release (0.20.0 six in sessions, schema 30 more), and a read-only
 * open never adds them: a database written by an older Hermes lacks them until a newer one opens
 * it for writing. What a column would have said is then unknown, not an error.
 */
export function selectList(db: Database.Database, table: string, columns: readonly string[], prefix = ''): string {
	const present = columnsOf(db, table);
	return columns.map(column => (present.has(column) ? `${prefix}${column}` : `NULL AS ${column}`)).join(', ');
}

/** The tables and the columns a read cannot do without; a table without one of them is a schema we do not know. */
export type WantedColumns = Partial<Record<'sessions' | 'messages', readonly string[]>>;

/** One try: takes the file's connection, checks the schema, runs `read`. Throws what SQLite threw. */
function tryRead<T>(dbPath: string, tables: WantedColumns, busyTimeoutMs: number, read: (db: Database.Database) => T): T | ProblemRead {
	// No gate on PRAGMA user_version: columns are read by name (selectList), so a newer schema
	// that keeps the few columns below is read as well as an older one.
	const db = connectionTo(dbPath, busyTimeoutMs);
	if (db === undefined) return {kind: 'problem', problem: missingProblem(dbPath)};
	checkSchema(db);
	for (const [table, wanted] of Object.entries(tables) as Array<['sessions' | 'messages', readonly string[]]>) {
		const present = columnsOf(db, table);
		const missing = wanted.filter(column => !present.has(column));
		if (missing.length > 0) {
			const what = present.size === 0 ? `has no ${table} table` : `has a ${table} table without ${missing.join(', ')}`;
			return {kind: 'problem', problem: {kind: 'schema', table, message: `${dbPath} ${what}: not the schema of a Hermes this hermes-delegate knows (0.19.0 to 0.21.x)`}};
		}
	}

	return read(db);
}

/** A read-only read of `dbPath`, retried briefly while it is busy; any failure becomes a problem. */
export function withStateDb<T>(dbPath: string, tables: WantedColumns, read: (db: Database.Database) => T, patience: ReadPatience = endOfAttemptPatience): T | ProblemRead {
	for (let attempt = 0; ; attempt++) {
		try {
			return tryRead(dbPath, tables, patience.busyTimeoutMs, read);
		} catch (error) {
			const code = (error as {code?: unknown}).code;
			const pauseMs = patience.retryPausesMs[attempt];
			if (pauseMs === undefined || typeof code !== 'string' || !busyCodes.test(code)) {
				return {kind: 'problem', problem: problemOf(dbPath, error, patience)};
			}

			// A synchronous pause: the read is synchronous (better-sqlite3) and its busy timeout blocks as long.
			Atomics.wait(pause, 0, 0, pauseMs);
		}
	}
}
