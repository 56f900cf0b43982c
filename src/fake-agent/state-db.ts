// The fake's session record, written as Hermes writes its own (docs/spend.md): `state.db` in the home
// the run uses (the profile's home under -p NAME), SQLite in WAL mode, tables `sessions`,
// `messages` and `session_model_usage` with the columns both recorded releases have (0.20.x adds
// its own six). When each part is written is what hermes-delegate depends on, so it follows Hermes:
// the row and the user message at start; the assistant message asking for a tool call (and
// tool_call_count) before the tool runs, the tool's message when it returns; the answer's message,
// tokens and API calls once, when the turn ends; an interrupted run (SIGTERM) leaves zeros and no
// ended_at. Writers wait up to 5 s for a lock (busy timeout), as several runs share one file.
// Only a home named by HERMES_HOME is written to: the fake never touches a real ~/.hermes.
import {existsSync} from 'node:fs';
import {homedir} from 'node:os';
import {join, resolve} from 'node:path';
import Database from 'better-sqlite3';

const sessionColumns = `
	id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT, system_prompt TEXT,
	parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
	message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, api_call_count INTEGER DEFAULT 0,
	input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0,
	cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0,
	billing_provider TEXT, billing_base_url TEXT, billing_mode TEXT,
	estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, pricing_version TEXT,
	profile_name TEXT, cwd TEXT, title TEXT`;
const newerSessionColumns = `, system_prompt_hash TEXT, last_activity_at REAL, last_activity_description TEXT,
	last_activity_provenance TEXT, compression_ineffective_count INTEGER DEFAULT 0, pinned INTEGER DEFAULT 0`;
// Schema 30 (0.21, upstream hermes_state_common.py): messages gain display_kind, `hidden` for
// model-facing scaffolding no surface paints; sessions a column of the fake's choosing stands for the rest.
const schema30SessionColumns = ', session_key TEXT';
const otherTables = (schema30: boolean) => `
CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
	content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT${schema30 ? ', display_kind TEXT' : ''});
CREATE TABLE IF NOT EXISTS session_model_usage (session_id TEXT NOT NULL, model TEXT, billing_provider TEXT, billing_base_url TEXT,
	billing_mode TEXT, task TEXT, api_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
	cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0,
	estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, first_seen REAL, last_seen REAL);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);`;

/** A tool call as its messages rows name it. */
export type StoredCall = {id: string; name: string; input: Record<string, unknown>};

export type SessionStart = {id: string; source: string; model: string; prompt: string; profile: string; release: string; cwd: string};

export type TurnEnd = {
	messageCount: number;
	/** Model calls that were answered; 0 leaves the counts and billing as Hermes leaves them after failed calls. */
	apiCalls: number;
	inputTokens: number;
	outputTokens: number;
	billingProvider: string;
	billingBaseUrl: string | null;
	/** Where the provider is priced; null writes cost_status `unknown` (as Hermes for a custom provider). */
	costUsd: number | null;
};

const now = () => Date.now() / 1000;

/** How long a writer waits for the file's lock, in all. */
const lockPatienceMs = 5000;

/**
 * SQLite answers SQLITE_BUSY at once, without waiting out the busy timeout, where waiting could
 * deadlock: two runs that both found a new state.db, read its empty schema and then both want to
 * write it (WAL mode, the tables). One of them starts again (it lost a session row 1 run in ~12
 * of two fakes on a fresh home before this).
 */
function isLockError(error: unknown): boolean {
	const code = (error as {code?: unknown}).code;
	return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

function sleepMs(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The home -p picks under HERMES_HOME: `default` (or none) is the root. Undefined: write nothing. */
export function recordHome(env: NodeJS.ProcessEnv, profile: string | undefined): string | undefined {
	const root = env['HERMES_HOME'];
	// hermes-delegate names the default home explicitly when none is set (core/hermes/launcher.ts):
	// that is the user's real one, which the fake never writes.
	if (!root || isRealDefaultHome(root)) return undefined;
	const home = profile === undefined || profile === 'default' ? root : join(root, 'profiles', profile);
	return existsSync(home) ? home : undefined;
}

// better-sqlite3 12.x built for Node 24 aborts the process when the garbage collector frees one of
// its objects at a moment V8 has no context entered (Node 24's node_object_wrap.h: ~ObjectWrap
// calls RemoveEnvironmentCleanupHook, which asserts `(env) != nullptr`). Seen here: the fake agent
// flooding 8 MiB in stream-json mode died of SIGABRT after 196 KB on Node 24.21.0, every time, and
// never on Node 20 (test/distributed/flood.test.ts). So no database or statement of ours is ever
// garbage while the process lives: each statement is prepared once per connection and kept, and
// every connection is kept, closed or not. A fake agent lives for one task: a handful of each.
const keptAlive = new Set<object>();
const statements = new Map<Database.Database, Map<string, Database.Statement>>();

function openDatabase(file: string): Database.Database {
	const db = new Database(file, {timeout: lockPatienceMs});
	keptAlive.add(db);
	return db;
}

function statement(db: Database.Database, sql: string): Database.Statement {
	let byText = statements.get(db);
	if (byText === undefined) statements.set(db, byText = new Map());
	let found = byText.get(sql);
	if (found === undefined) byText.set(sql, found = db.prepare(sql));
	return found;
}

export class SessionRecord {
	private constructor(private readonly db: Database.Database, private readonly id: string) {}

	/** Creates the row and the user message; undefined (and a note on stderr) when the file cannot be written. */
	static start(home: string, session: SessionStart): SessionRecord | undefined {
		const giveUpAt = Date.now() + lockPatienceMs;
		for (let attempt = 1; ; attempt++) {
			let db: Database.Database | undefined;
			try {
				db = openDatabase(join(home, 'state.db'));
				SessionRecord.create(db, session);
				return new SessionRecord(db, session.id);
			} catch (error) {
				db?.close();
				if (isLockError(error) && Date.now() < giveUpAt) {
					sleepMs(5 + Math.floor(Math.random() * 20 * Math.min(attempt, 5)));
					continue;
				}

				process.stderr.write(`fake hermes: cannot record the session in ${home}/state.db: ${(error as Error).message}\n`);
				return undefined;
			}
		}
	}

	private static create(db: Database.Database, session: SessionStart): void {
		db.exec('PRAGMA journal_mode = WAL'); // exec, not pragma(): pragma() prepares a statement it drops
		const newer = session.release !== '0.19.0';
		const schema30 = session.release === '0.21.5';
		db.exec(`CREATE TABLE IF NOT EXISTS sessions (${sessionColumns}${newer ? newerSessionColumns : ''}${schema30 ? schema30SessionColumns : ''});${otherTables(schema30)}`);
		// As upstream's writable open reconciles columns: a file an older release made gains the new ones
		// (a read-only open never adds them, which is why a reader must not expect them).
		if (schema30) {
			for (const [table, column] of [['messages', 'display_kind TEXT'], ['sessions', 'session_key TEXT']] as const) {
				const present = (statement(db, 'SELECT name FROM pragma_table_info(?)').all(table) as Array<{name: string}>).some((row) => row.name === column.split(' ')[0]);
				if (!present) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column}`);
			}
		}

		const startedAt = now();
		db.transaction(() => {
			statement(db, 'INSERT INTO sessions (id, source, model, model_config, started_at, message_count, profile_name, cwd) VALUES (?, ?, ?, ?, ?, 1, ?, ?)')
				.run(session.id, session.source, session.model, JSON.stringify({max_iterations: 90, reasoning_config: null, max_tokens: null}), startedAt, session.profile, session.cwd);
			statement(db, "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, ?)").run(session.id, session.prompt, startedAt);
			if (schema30) {
				statement(db, "INSERT INTO messages (session_id, role, content, timestamp, display_kind) VALUES (?, 'assistant', ?, ?, 'hidden')")
					.run(session.id, 'HIDDEN SCAFFOLDING: context for the model that no pane may show', startedAt);
			}
		})();
	}

	/**
	 * The model asked for a tool call: its assistant message (tool_calls in the OpenAI shape,
	 * finish_reason tool_calls) is stored before the tool runs, and the call counted at once.
	 */
	toolCallStarted(toolCalls: number, messageCount: number, call: StoredCall): void {
		this.db.transaction(() => {
			statement(this.db, "INSERT INTO messages (session_id, role, content, tool_calls, timestamp, finish_reason) VALUES (?, 'assistant', NULL, ?, ?, 'tool_calls')")
				.run(this.id, JSON.stringify([{id: call.id, type: 'function', function: {name: call.name, arguments: JSON.stringify(call.input)}}]), now());
			statement(this.db, 'UPDATE sessions SET tool_call_count = ?, message_count = ? WHERE id = ?').run(toolCalls, messageCount, this.id);
		})();
	}

	/** The tool returned: its message (the tool's output as the model is given it) is stored. */
	toolCallEnded(messageCount: number, call: StoredCall, output: string): void {
		this.db.transaction(() => {
			statement(this.db, "INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES (?, 'tool', ?, ?, ?, ?)").run(this.id, output, call.id, call.name, now());
			statement(this.db, 'UPDATE sessions SET message_count = ? WHERE id = ?').run(messageCount, this.id);
		})();
	}

	/** The turn's totals, and the session's end; with an answer, its message (finish_reason stop) first. */
	turnEnded(end: TurnEnd, answer?: {text: string; summaryAsked: boolean}): void {
		const endedAt = now();
		const answered = end.apiCalls > 0;
		const costStatus = end.costUsd === null ? 'unknown' : 'estimated';
		const costSource = end.costUsd === null ? 'none' : 'fake-price-table';
		this.db.transaction(() => {
			if (answer) {
				// After --max-turns ran out Hermes asked for a summary: that request is a user message of its own.
				if (answer.summaryAsked) statement(this.db, "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, ?)").run(this.id, 'You have reached the maximum number of iterations. Summarise what you found.', endedAt);
				statement(this.db, "INSERT INTO messages (session_id, role, content, timestamp, finish_reason) VALUES (?, 'assistant', ?, ?, 'stop')").run(this.id, answer.text, endedAt);
			}

			statement(this.db, `UPDATE sessions SET ended_at = ?, message_count = ?, api_call_count = ?, input_tokens = ?, output_tokens = ?,
				billing_provider = ?, billing_base_url = ?, estimated_cost_usd = ?, cost_status = ?, cost_source = ? WHERE id = ?`)
				.run(endedAt, end.messageCount, end.apiCalls, answered ? end.inputTokens : 0, answered ? end.outputTokens : 0,
					answered ? end.billingProvider : null, answered ? end.billingBaseUrl : null, answered ? end.costUsd : null, answered ? costStatus : null, answered ? costSource : null, this.id);
			if (!answered) return;
			const model = (statement(this.db, 'SELECT model FROM sessions WHERE id = ?').get(this.id) as {model: string}).model;
			statement(this.db, `INSERT INTO session_model_usage (session_id, model, billing_provider, billing_base_url, api_call_count, input_tokens, output_tokens,
				estimated_cost_usd, cost_status, cost_source, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
				.run(this.id, model, end.billingProvider, end.billingBaseUrl, end.apiCalls, end.inputTokens, end.outputTokens, end.costUsd, costStatus, costSource, endedAt, endedAt);
		})();
	}
}

// Made-up prices per million tokens (input, output) for the providers the demo names, small on
// purpose: the demo shows a cost without suggesting a real one. Other providers are unpriced.
const fakePrices: Record<string, [number, number]> = {openrouter: [0.3, 1.2], anthropic: [1, 4], openai: [0.5, 2], deepseek: [0.2, 0.8]};

/** The cost the fake's price table gives, or null where the provider is not in it. */
export function fakeCost(provider: string, inputTokens: number, outputTokens: number): number | null {
	const price = fakePrices[provider];
	if (!price) return null;
	return Math.round(((inputTokens * price[0] + outputTokens * price[1]) / 1e6) * 1e8) / 1e8;
}

/** The user's own ~/.hermes (or a folder in it): where a real Hermes keeps its sessions. */
export function isRealDefaultHome(home: string): boolean {
	const real = join(homedir(), '.hermes');
	const resolved = resolve(home);
	return resolved === real || resolved.startsWith(`${real}/`);
}
