// The state.db reader survives the garbage collector (connections.ts): better-sqlite3 12 aborts
// Node 24 when the collector frees one of its objects while no context is entered, and a reader
// that opened and dropped a connection per read died so within a few thousand reads. The reader
// is bundled with test/fixtures/state-db-gc-loop.ts and run in a process of its own under this
// test's Node with --expose-gc: on Node 24 (CI's second run) this is the proof; on Node 20, which
// never aborted, it still holds the cache to its answers across 20,000 reads and 8 replaced files.
import {createRequire} from 'node:module';
import path from 'node:path';
import {execa} from 'execa';
import {rolldown} from 'rolldown';
import {describe, expect, it} from 'vitest';
import {scratchAfterEach} from '../../../helpers/scratch.js';

const scratch = scratchAfterEach();
const loop = path.resolve(import.meta.dirname, '../../../fixtures/state-db-gc-loop.ts');
// The bundle lives in a scratch folder: it loads better-sqlite3 from this repository by its full path.
const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

async function bundledLoop(folder: string): Promise<string> {
	const bundle = await rolldown({
		input: loop,
		platform: 'node',
		external: [/^node:/],
		plugins: [{name: 'better-sqlite3-by-path', resolveId: source => (source === 'better-sqlite3' ? {id: betterSqlite3, external: true} : null)}],
		logLevel: 'silent',
	});
	const file = path.join(folder, 'state-db-gc-loop.mjs');
	await bundle.write({file, format: 'esm'});
	await bundle.close();
	return file;
}

describe('the state.db reader and the garbage collector', () => {
	it(`reads 20,000 times with collections between the reads and the file replaced 8 times, and the process lives (Node ${process.versions.node})`, async () => {
		const folder = scratch.folder('state-db-gc-');
		const script = await bundledLoop(folder);
		const run = await execa(process.execPath, ['--expose-gc', script, folder, '20000'], {reject: false, timeout: 120_000});
		expect({signal: run.signal, exitCode: run.exitCode, stderr: run.stderr.slice(0, 2000)}).toEqual({signal: undefined, exitCode: 0, stderr: ''});
		// One connection open; each replaced file's connection closed and kept, never collected.
		expect(run.stdout).toBe('read 20000 times; connections open 1, retired 8');
	}, 150_000);
});
