// Reads what Hermes records about each session in its home's state.db (docs/spend.md): SQLite in WAL
// mode, written by the running `hermes` processes while we read. How every read is made, so that
// Hermes is never held up and a bad file is a value, never a throw, is open.ts.
import path from 'node:path';
import type Database from 'better-sqlite3';
import type {Spend} from '../../types.js';
import {profileDir} from '../home.js';
import {columnsOf, selectList, statement, withStateDb, type ReadPatience, type StateDbProblem} from './open.js';

export type {StateDbProblem} from './open.js';

/** The database a `hermes -p NAME` run writes: the profile's home (`default`: the root home). */
export function stateDbPath(hermesHome: string, profile: string): string {
	return path.join(profileDir(hermesHome, profile), 'state.db');
}

// The sessions columns a Spend is made of, read by name: one the table lacks reads as unknown (NULL).
const spendColumns = ['id', 'source', 'model', 'started_at', 'ended_at', 'tool_call_count', 'api_call_count', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'billing_provider', 'estimated_cost_usd', 'actual_cost_usd', 'cost_status'] as const;
// What no read can do without: a table lacking one of these is no Hermes sessions table we know.
const requiredSessionColumns = ['id', 'source', 'started_at'] as const;
const messageColumns = ['id', 'session_id', 'role', 'content'] as const;

export type SessionRow = {[column in (typeof spendColumns)[number]]: unknown};

export type SessionRead = {kind: 'row'; row: SessionRow} | {kind: 'no-row'} | {kind: 'problem'; problem: StateDbProblem};

/** The session row with this id (the `session_id:` Hermes printed). */
export function readSession(dbPath: string, sessionId: string, patience?: ReadPatience): SessionRead {
	return withStateDb(dbPath, {sessions: requiredSessionColumns}, db => sessionIn(db, sessionId), patience);
}

/** The columns readSession needs, for a read that takes the row with others (messages.ts). */
export const sessionColumns: readonly string[] = requiredSessionColumns;

/** The row, on a connection withStateDb opened with sessionColumns checked. */
export function sessionIn(db: Database.Database, sessionId: string): SessionRead & {kind: 'row' | 'no-row'} {
	const row = statement(db, `SELECT ${selectList(db, 'sessions', spendColumns)} FROM sessions WHERE id = ?`).get(sessionId) as SessionRow | undefined;
	return row ? {kind: 'row', row} : {kind: 'no-row'};
}

export type SessionQuery = {
	/** Epoch milliseconds: the spawn. Hermes writes started_at in epoch seconds. */
	startedAfter: number;
	/** The prompt as Hermes stored it: Hermes strips leading and trailing whitespace. */
	prompt: string;
	/** `tool` when the run was started with --source tool. */
	source?: string | undefined;
};

export type SessionFound = {kind: 'found'; sessionId: string} | {kind: 'none'} | {kind: 'ambiguous'; sessionIds: string[]} | {kind: 'problem'; problem: StateDbProblem};

/**
 * The session a run started (for a run whose output named none): its row started after the spawn,
 * with the source asked for, and its first user message is the prompt. Two such rows (the same
 * prompt started twice at once in one home) cannot be told apart: ambiguous, and no guess.
 */
export function findSession(dbPath: string, query: SessionQuery, patience?: ReadPatience): SessionFound {
	return withStateDb(dbPath, {sessions: requiredSessionColumns, messages: messageColumns}, db => findSessionIn(db, query), patience);
}

/** findSession on a connection withStateDb opened with sessionColumns and the messages' id, session_id, role, content checked. */
export function findSessionIn(db: Database.Database, query: SessionQuery): SessionFound & {kind: 'found' | 'none' | 'ambiguous'} {
	const firstUserMessage = `(SELECT m.content FROM messages m WHERE m.session_id = s.id AND m.role = 'user'${shownOnly(db, 'm.')} ORDER BY m.id LIMIT 1)`;
	const source = query.source === undefined ? '' : ' AND s.source = @source';
	const rows = statement(db, `SELECT s.id FROM sessions s WHERE s.started_at >= @after${source} AND ${firstUserMessage} = @prompt ORDER BY s.started_at LIMIT 3`)
		// A second of slack: Hermes stamps started_at with its own clock reading, a moment after our Date.now().
		.all({after: query.startedAfter / 1000 - 1, prompt: query.prompt.trim(), ...(query.source === undefined ? {} : {source: query.source})}) as Array<{id: string}>;
	if (rows.length === 0) return {kind: 'none'};
	return rows.length === 1 ? {kind: 'found', sessionId: rows[0]!.id} : {kind: 'ambiguous', sessionIds: rows.map(row => row.id)};
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : typeof value === 'bigint' && value >= 0n ? Number(value) : null);
const word = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * A row as Spend. Hermes writes tokens and API calls once, when the turn ends; until then, and for
 * ever after an interrupted turn (SIGTERM mid-turn: zeros, no ended_at), they are 0. So a row with
 * no API call counted says nothing about tokens: they are unknown (null), not 0. That also makes a
 * run whose every model call failed "unknown", which is the safe side. The tool-call count is live.
 * Cost: the actual cost where Hermes has one, else its estimate, and none where cost_status is
 * `unknown` (no price for that provider) or the counts are unknown.
 */
export function spendOf(row: SessionRow): Spend {
	const apiCalls = count(row.api_call_count);
	const finished = apiCalls !== null && apiCalls > 0;
	const known = (value: unknown) => (finished ? count(value) : null);
	const costStatus = word(row.cost_status);
	const cost = count(row.actual_cost_usd) ?? count(row.estimated_cost_usd);
	return {
		input_tokens: known(row.input_tokens),
		output_tokens: known(row.output_tokens),
		cache_read_tokens: known(row.cache_read_tokens),
		cache_write_tokens: known(row.cache_write_tokens),
		reasoning_tokens: known(row.reasoning_tokens),
		api_calls: finished ? apiCalls : null,
		tool_calls: count(row.tool_call_count),
		cost_usd: finished && costStatus !== 'unknown' ? cost : null,
		cost_status: costStatus,
		model: word(row.model),
		billing_provider: word(row.billing_provider),
	};
}

/** The spend of a run whose row could not be read: everything unknown. */
export const unknownSpend: Spend = {input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, reasoning_tokens: null, api_calls: null, tool_calls: null, cost_usd: null, cost_status: null, model: null, billing_provider: null};

/**
 * A WHERE clause part that leaves out the message rows Hermes never shows (schema 30's
 * `display_kind = 'hidden'`: model-facing scaffolding, and a `hidden` flag where a table has one);
 * empty where the table has neither column.
 */
export function shownOnly(db: Database.Database, prefix = ''): string {
	const present = columnsOf(db, 'messages');
	return (present.has('display_kind') ? ` AND COALESCE(${prefix}display_kind, '') <> 'hidden'` : '')
		+ (present.has('hidden') ? ` AND COALESCE(${prefix}hidden, 0) = 0` : '');
}
