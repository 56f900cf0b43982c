// The follow loop's visits (session-follower.ts) read a state.db only when it may hold something
// new: its files changed since the last read, a follower has not read it yet, or it was skipped
// maxQuietVisits times in a row. A real WAL database, written as Hermes writes it.
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {FollowLoop, maxQuietVisits, SessionFollower} from '../../../src/core/run/session-follower.js';
import type {Spend} from '../../../src/core/types.js';
import {makeStateDb, messagesTable, sessionsTable} from '../../helpers/state-db-files.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const scratch = scratchAfterEach();

function setup() {
	const dbPath = path.join(scratch.folder('follow-loop-'), 'state.db');
	const db = makeStateDb(dbPath, sessionsTable + messagesTable);
	const insert = (id: string) => db.prepare('INSERT INTO sessions (id, source, model, started_at, input_tokens) VALUES (?, \'tool\', \'m\', ?, 0)').run(id, Date.now() / 1000);
	const tokens = (id: string, count: number) => db.prepare('UPDATE sessions SET input_tokens = ?, api_call_count = 1 WHERE id = ?').run(count, id);
	// Visited by hand: an interval no test waits for (the timer goes with the last follower).
	const loop = new FollowLoop(3_600_000);
	const spends: Array<[string, Spend]> = [];
	const follow = (sessionId: string) => {
		const follower = new SessionFollower({
			dbPath, prompt: 'p', spawnedAt: 0, source: 'tool', namedSession: () => sessionId, liveLines: false,
			onSpend: spend => spends.push([sessionId, spend]), onLines: () => undefined,
		});
		loop.add(follower);
		return follower;
	};

	return {db, loop, spends, insert, tokens, follow};
}

describe('FollowLoop', () => {
	it('skips a database whose files did not change since it was read, and reads it again once they did', () => {
		const {db, loop, spends, insert, tokens, follow} = setup();
		insert('s1');
		const follower = follow('s1');
		loop.visit();
		expect(loop.reads).toBe(1);
		expect(spends).toHaveLength(1);

		loop.visit();
		loop.visit();
		expect(loop.reads).toBe(1);

		tokens('s1', 42);
		loop.visit();
		expect(loop.reads).toBe(2);
		expect(spends.at(-1)?.[1]).toMatchObject({input_tokens: 42});
		loop.remove(follower);
		db.close();
	});

	it('reads an unchanged database for a follower that has not read it yet', () => {
		const {db, loop, spends, insert, follow} = setup();
		insert('s1');
		insert('s2');
		const first = follow('s1');
		loop.visit();
		expect(loop.reads).toBe(1);

		const second = follow('s2');
		loop.visit();
		expect(loop.reads).toBe(2);
		expect(spends.map(([id]) => id)).toEqual(['s1', 's2']);
		loop.visit();
		expect(loop.reads).toBe(2);
		loop.remove(first);
		loop.remove(second);
		db.close();
	});

	it('reads an unchanged database anyway after maxQuietVisits skipped visits', () => {
		const {db, loop, insert, follow} = setup();
		insert('s1');
		const follower = follow('s1');
		loop.visit();
		for (let visit = 0; visit < maxQuietVisits; visit++) loop.visit();
		expect(loop.reads).toBe(1);

		loop.visit();
		expect(loop.reads).toBe(2);
		loop.remove(follower);
		db.close();
	});
});
