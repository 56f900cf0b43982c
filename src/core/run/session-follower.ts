// A running attempt's session in state.db, followed while it runs (docs/spend.md): its
// `sessions` row for the live spend (`task.spend` when it changed), and, on a release without
// stream-json (nothing on stdout until the answer under -Q), its new `messages` rows as pane lines
// and as the tool calls of its result. The session is the one the output named, else the row that
// started after the spawn with the task's prompt (spend.ts finds it the same way at the end).
// One FollowLoop per executor visits every follower once a second from a single timer, and opens
// each database once per visit for all the followers whose sessions it holds: opening a connection
// and checking its schema is most of a read's cost (bench/session-follow.mjs).
// A database whose files (state.db and its WAL) have not changed since the loop last read it holds
// nothing new: the visit skips it, reading it anyway every maxQuietVisits + 1 visits (a file
// system whose times are coarse could hide a write). A quiet batch then costs a stat a second.
// A database that cannot be read only means no live activity: reads back off, nothing throws, and
// what spend's own warning at the end does not already say is said once per batch.
import {statSync} from 'node:fs';
import type Database from 'better-sqlite3';
import {findSessionIn, sessionColumns, sessionIn, spendOf} from '../hermes/state-db/sessions.js';
import {livePatience, maxRowsPerRead, messageColumns, messagesIn} from '../hermes/state-db/messages.js';
import {SessionMessages} from '../hermes/session-messages.js';
import {withStateDb, type StateDbProblem} from '../hermes/state-db/open.js';
import type {Spend, ToolCallRecord} from '../types.js';

export type FollowedAttempt = {
	dbPath: string;
	/** The prompt as given to Hermes: its first user message. */
	prompt: string;
	/** Epoch ms of the spawn: the session started after it. */
	spawnedAt: number;
	/** `tool` when the runs are started with --source tool. */
	source: string | undefined;
	/** The session id once the output named one (stream-json's init), else null. */
	namedSession: () => string | null;
	/** Follow the messages as pane lines (false under stream-json, whose events already show them). */
	liveLines: boolean;
	/** The attempt's spend as its row now stands, when it changed. */
	onSpend: (spend: Spend) => void;
	/** New lines for the attempt's pane. */
	onLines: (lines: string[]) => void;
};

/** Polls skipped after a failed read, doubling: a bad file is not opened every second. */
const firstBackoffMs = 2000;
const maxBackoffMs = 30_000;
/** Reads the final visit may make to catch up with a session that wrote many rows at its end. */
const finalReads = 5;
/** Visits in a row that may skip a database whose files did not change. */
export const maxQuietVisits = 4;

export class SessionFollower {
	private sessionId: string | null = null;
	private lastSpend: string | undefined;
	private readonly messages = new SessionMessages();
	/** The newest read's problem, if it failed. */
	private problem: StateDbProblem | undefined;
	private skipUntil = 0;
	private backoffMs = 0;

	constructor(private readonly attempt: FollowedAttempt) {}

	get dbPath(): string {
		return this.attempt.dbPath;
	}

	/** Whether the next visit should read (a follower whose reads failed waits a while). */
	due(now: number): boolean {
		return now >= this.skipUntil;
	}

	/** One visit, on a connection the loop opened (or the problem it could not be opened with). */
	visit(db: Database.Database | StateDbProblem, now = Date.now()): void {
		if ('kind' in db) {
			this.problem = db;
		} else {
			this.problem = undefined;
			this.readWith(db);
		}

		if (this.problem) {
			this.backoffMs = Math.min(maxBackoffMs, Math.max(firstBackoffMs, this.backoffMs * 2));
			this.skipUntil = now + this.backoffMs;
		} else {
			this.backoffMs = 0;
		}
	}

	/**
	 * The last visit, once the attempt has ended: with the session its output named (-Q prints it
	 * at the end), and until the messages are caught up. Its tool calls, and the problem (if the
	 * last read had one) that the live lines are missing for.
	 */
	finish(namedSession: string | null): {toolCalls: ToolCallRecord[]; problem: StateDbProblem | undefined} {
		this.sessionId ??= namedSession;
		for (let read = 0; read < finalReads; read++) {
			this.problem = undefined;
			const rows = withConnection(this.attempt.dbPath, db => this.readWith(db));
			if (typeof rows !== 'number') this.problem = rows;
			if (rows !== maxRowsPerRead) break;
		}

		return {toolCalls: this.messages.toolCalls(), problem: this.problem};
	}

	/** Reads once on `db`; the number of messages rows read. */
	private readWith(db: Database.Database): number {
		const {attempt} = this;
		this.sessionId ??= attempt.namedSession();
		if (this.sessionId === null) {
			const found = findSessionIn(db, {startedAfter: attempt.spawnedAt, prompt: attempt.prompt, source: attempt.source});
			// None yet (Hermes writes its row within its first seconds), or two alike: no guess.
			if (found.kind !== 'found') return 0;
			this.sessionId = found.sessionId;
		}

		const session = sessionIn(db, this.sessionId);
		if (session.kind === 'row') {
			const spend = spendOf(session.row);
			const key = JSON.stringify(spend);
			if (key !== this.lastSpend) {
				this.lastSpend = key;
				attempt.onSpend(spend);
			}
		}

		if (!attempt.liveLines) return 0;
		const rows = messagesIn(db, this.sessionId, this.messages.lastId);
		const lines = this.messages.add(rows);
		if (lines.length > 0) attempt.onLines(lines);
		return rows.length;
	}
}

/** One read-only connection for a visit, with everything a follower reads checked; a failure is the problem. */
function withConnection<T>(dbPath: string, read: (db: Database.Database) => T): T | StateDbProblem {
	const result = withStateDb(dbPath, {sessions: sessionColumns, messages: messageColumns}, db => ({kind: 'read' as const, value: read(db)}), livePatience);
	return result.kind === 'problem' ? result.problem : result.value;
}

/** Every follower of an executor, visited from one timer; and the problems already warned of. */
export class FollowLoop {
	private readonly followers = new Set<SessionFollower>();
	private timer: NodeJS.Timeout | undefined;
	private readonly warned = new Set<string>();
	/** Each database's files when it was last read, and the visits that skipped it since. */
	private readonly lastRead = new Map<string, {stamp: string; skipped: number}>();
	/** Followers that have not been visited since they were added: their database is read for them. */
	private readonly unread = new Set<SessionFollower>();
	/** Databases read (not skipped) so far: what the tests watch. */
	reads = 0;

	constructor(private readonly intervalMs = 1000) {}

	get size(): number {
		return this.followers.size;
	}

	add(follower: SessionFollower): void {
		this.followers.add(follower);
		this.unread.add(follower);
		if (this.timer === undefined) {
			this.timer = setInterval(() => this.visit(), this.intervalMs);
			// Following never keeps the process alive: the attempts' processes do.
			this.timer.unref();
		}
	}

	remove(follower: SessionFollower): void {
		this.followers.delete(follower);
		this.unread.delete(follower);
		if (this.followers.size === 0 && this.timer !== undefined) {
			clearInterval(this.timer);
			this.timer = undefined;
		}
	}

	/** Visits every follower now (the timer does this every interval): one connection per database. */
	visit(now = Date.now()): void {
		const byDb = new Map<string, SessionFollower[]>();
		for (const follower of this.followers) {
			if (follower.due(now)) (byDb.get(follower.dbPath) ?? byDb.set(follower.dbPath, []).get(follower.dbPath)!).push(follower);
		}

		for (const [dbPath, followers] of byDb) {
			if (this.unchanged(dbPath, followers)) continue;
			this.reads++;
			for (const follower of followers) this.unread.delete(follower);
			const problem = withConnection(dbPath, db => {
				for (const follower of followers) follower.visit(db, now);
			});
			if (problem) for (const follower of followers) follower.visit(problem, now);
		}
	}

	/** True when the visit may skip `dbPath`: its files as when last read, for followers that all read it then. */
	private unchanged(dbPath: string, followers: readonly SessionFollower[]): boolean {
		const stamp = filesStamp(dbPath); // Before the read: a write during it is read next time.
		const last = this.lastRead.get(dbPath);
		if (stamp !== undefined && last?.stamp === stamp && last.skipped < maxQuietVisits && !followers.some(follower => this.unread.has(follower))) {
			last.skipped++;
			return true;
		}

		if (stamp === undefined) this.lastRead.delete(dbPath);
		else this.lastRead.set(dbPath, {stamp, skipped: 0});
		return false;
	}

	/** True the first time a message is seen by this loop: the batch hears of each problem once. */
	firstTime(message: string): boolean {
		if (this.warned.has(message)) return false;
		this.warned.add(message);
		return true;
	}
}

/** The database's and its WAL's size and last change (not ctime: opening a connection may chown the WAL); undefined when the database cannot be stat'ed (read it: the read says why). */
function filesStamp(dbPath: string): string | undefined {
	const stampOf = (file: string) => {
		const stat = statSync(file, {bigint: true, throwIfNoEntry: false});
		return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : '-';
	};

	try {
		const db = stampOf(dbPath);
		return db === '-' ? undefined : `${db} ${stampOf(`${dbPath}-wal`)}`;
	} catch {
		return undefined;
	}
}
