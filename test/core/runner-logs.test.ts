// What the runner does when writing a task's log is the hard part: a log slower than the agent
// (a FIFO read slowly stands in for a slow disk), a full disk (/dev/full answers every write
// with ENOSPC), and a log past its size limit. Real processes, real files, real errors.
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {open} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {afterEach, describe, expect, it} from 'vitest';
import {signalGroup} from '../../src/core/process-group.js';
import {planBatch} from '../../src/core/routing.js';
import {createRunFolder} from '../../src/core/run-folder.js';
import {BatchRunner, type RunnerOptions} from '../../src/core/runner.js';
import {defaultSettings} from '../../src/core/settings.js';
import type {BatchEvent, DelegationConfig, TaskSpec} from '../../src/core/types.js';
import {fakeAgentPath} from '../helpers/processes.js';

const delegation: DelegationConfig = {
	mode: 'default',
	modelMap: {options: []},
	profileRoutes: {profiles: []},
	builtin: {},
	source: {path: '/nonexistent/config.yaml', exists: false},
};

const homes: string[] = [];
const pgids = new Set<number>();

afterEach(() => {
	for (const pgid of pgids) signalGroup(pgid, 'SIGKILL');
	pgids.clear();
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

function makeRunner(tasks: TaskSpec[], options: Partial<RunnerOptions> = {}) {
	const home = mkdtempSync(path.join(tmpdir(), 'runner-logs-'));
	homes.push(home);
	const plan = planBatch({tasks, delegation, settings: defaultSettings});
	const folder = createRunFolder(home);
	const runner = new BatchRunner(plan, {hermesBin: fakeAgentPath, folder, concurrency: 3, graceMs: 300, ...options});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		if (event.type === 'task.started') pgids.add(event.pid);
	});
	return {runner, folder, events};
}

/**
 * Reads a FIFO at about 320 KB/s (32 KiB every 100 ms), as a slow disk takes a log: the pauses
 * are the slow disk itself, not a wait for anything. Resolves with every byte once the writer closes.
 */
async function readSlowly(fifo: string): Promise<Buffer> {
	const handle = await open(fifo, 'r');
	const chunks: Buffer[] = [];
	try {
		for (;;) {
			const {bytesRead, buffer} = await handle.read(Buffer.alloc(32 * 1024), 0, 32 * 1024, null);
			if (bytesRead === 0) return Buffer.concat(chunks);
			chunks.push(buffer.subarray(0, bytesRead));
			await delay(100);
		}
	} finally {
		await handle.close();
	}
}

describe('a log slower than the agent', () => {
	it('gets every byte, and so does the result, with no false "escaped the group" warning', async () => {
		// 1 MiB fills the log's buffer; the last 256 KiB fit in the pipe, so the agent exits while ~1 MiB
		// still waits for the disk and the pipe still holds its tail.
		const bytes = 1024 * 1024 + 256 * 1024;
		const lastLine = new RegExp(`^line ${String(bytes / 64).padStart(8, '0')} `);
		const harness = makeRunner([{goal: 'flood', context: `[fake:bytes=${bytes}] [fake:line-bytes=64]`}]);
		const fifo = harness.folder.logPath('t01');
		execFileSync('mkfifo', [fifo]);
		const logged = readSlowly(fifo);
		const report = await harness.runner.start();
		const log = await logged;
		const result = report.results[0]!;

		expect(log.length).toBe(bytes);
		expect(log.toString('utf8').trimEnd().split('\n').at(-1)).toMatch(lastLine);
		expect(result.result.split('\n').at(-1)).toMatch(lastLine);
		expect(result).toMatchObject({status: 'succeeded'});
		expect(result.warnings).toBeUndefined();
	}, 60_000);
});
