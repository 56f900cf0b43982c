// The conversation of one running session, as Hermes records it in its home's state.db
// (docs/spend.md): the `messages` rows after the last one already read. A pane follows a task on a
// release without stream-json with these, so the reads are made to be cheap and harmless: one
// indexed query a second at most, a bounded number of rows and bounded text per row, read-only,
// through the same open-and-classify as spend (open.ts), with less patience for locks.
import type Database from 'better-sqlite3';
import {sessionColumns, sessionIn, shownOnly, type SessionRead} from './sessions.js';
import {columnsOf, selectList, statement, withStateDb, type ReadPatience, type StateDbProblem} from './open.js';

/** The messages columns no live read can do without; the others are read by name (selectList). */
export const messageColumns: readonly string[] = ['id', 'session_id', 'role', 'content'];

/** Rows read at once: a session that wrote more since the last read is caught up over a few reads. */
export const maxRowsPerRead = 200;
/** Characters of `content` read per row (a tool's output can be megabytes; a pane shows a line of it). */
export const maxContentChars = 4000;
/** Characters of `tool_calls` read per row: enough for many calls with long arguments; a longer list is cut and said so. */
export const maxToolCallsChars = 64_000;

/**
 * A follower polls once a second from the runner's thread: it must not wait long for a lock, and a
 * lock held that long is retried at the next poll anyway.
 */
export const livePatience: ReadPatience = {busyTimeoutMs: 50, retryPausesMs: [10]};

export type MessageRow = {
	id: number;
	role: string;
	/** Cut to maxContentChars (contentCut says so). */
	content: string | null;
	contentCut: boolean;
	tool_call_id: string | null;
	/** The JSON list, or null; cut to maxToolCallsChars (toolCallsCut says so: it is then not JSON). */
	tool_calls: string | null;
	toolCallsCut: boolean;
	tool_name: string | null;
	/** Epoch seconds, as Hermes writes it. */
	timestamp: number | null;
	finish_reason: string | null;
};

export type MessagesRead = {kind: 'rows'; rows: MessageRow[]} | {kind: 'problem'; problem: StateDbProblem};

const text = (value: unknown): string | null => (typeof value === 'string' ? value : value === null || value === undefined ? null : String(value));
const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The rows of `sessionId` with an id above `afterId`, oldest first, at most maxRowsPerRead. */
export function readMessages(dbPath: string, sessionId: string, afterId: number, patience: ReadPatience = livePatience): MessagesRead {
	return withStateDb(dbPath, {messages: messageColumns}, db => ({kind: 'rows', rows: messagesIn(db, sessionId, afterId)}), patience);
}

export type LiveRead = {kind: 'live'; session: SessionRead & {kind: 'row' | 'no-row'}; rows: MessageRow[]} | {kind: 'problem'; problem: StateDbProblem};

/** A running session's row and, with `afterId`, its new messages: one connection for both (a follower's whole poll). */
export function readLive(dbPath: string, sessionId: string, afterId: number | undefined, patience: ReadPatience = livePatience): LiveRead {
	const tables = afterId === undefined ? {sessions: sessionColumns} : {sessions: sessionColumns, messages: messageColumns};
	return withStateDb(dbPath, tables, db => ({kind: 'live', session: sessionIn(db, sessionId), rows: afterId === undefined ? [] : messagesIn(db, sessionId, afterId)}), patience);
}

/** The rows after `afterId`, on a connection withStateDb opened with the messages columns checked. */
export function messagesIn(db: Database.Database, sessionId: string, afterId: number): MessageRow[] {
	const has = columnsOf(db, 'messages');
	const toolCalls = has.has('tool_calls') ? `substr(tool_calls, 1, ${maxToolCallsChars}) AS tool_calls, length(tool_calls) > ${maxToolCallsChars} AS tool_calls_cut` : 'NULL AS tool_calls, 0 AS tool_calls_cut';
	const rows = statement(db, `SELECT id, role, substr(content, 1, ${maxContentChars}) AS content, length(content) > ${maxContentChars} AS content_cut,
		${toolCalls}, ${selectList(db, 'messages', ['tool_call_id', 'tool_name', 'timestamp', 'finish_reason'])}
		FROM messages WHERE session_id = ? AND id > ?${shownOnly(db)} ORDER BY id LIMIT ${maxRowsPerRead}`)
		.all(sessionId, afterId) as Array<Record<string, unknown>>;
	return rows.map(row => ({
		id: Number(row['id']),
		role: text(row['role']) ?? '',
		content: text(row['content']),
		contentCut: row['content_cut'] === 1,
		tool_call_id: text(row['tool_call_id']),
		tool_calls: text(row['tool_calls']),
		toolCallsCut: row['tool_calls_cut'] === 1,
		tool_name: text(row['tool_name']),
		timestamp: finite(row['timestamp']),
		finish_reason: text(row['finish_reason']),
	}));
}
