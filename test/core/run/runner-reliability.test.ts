// The runner loses nothing and never crashes: a log slower than the agent (a FIFO read slowly
// stands in for a slow disk), a full disk (/dev/full answers every write with ENOSPC), a log past
// its size limit, a stop during the plan write, a run folder that cannot take the plan or the
// results. Real processes, real files, real errors.
import {execFileSync} from 'node:child_process';
import {closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync} from 'node:fs';
import {open} from 'node:fs/promises';
import {setTimeout as delay} from 'node:timers/promises';
import {describe, expect, it} from 'vitest';
import {InputError} from '../../../src/core/errors.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner, type RunnerOptions} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, DelegationConfig, TaskSpec} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const delegation: DelegationConfig = {
	mode: 'default',
	modelMap: {options: []},
	profileRoutes: {profiles: []},
	builtin: {},
	source: {path: '/nonexistent/config.yaml', exists: false},
};

const scratch = scratchAfterEach();

function makeRunner(tasks: TaskSpec[], options: Partial<RunnerOptions> = {}) {
	const home = scratch.folder('runner-reliability-');
	const plan = planBatch({tasks, delegation, settings: defaultSettings});
	const folder = createRunFolder(home);
	const runner = new BatchRunner(plan, {hermesBin: fakeAgentPath, capabilities: fakeCapabilities(), env: fakeVersionEnv(), folder, concurrency: 3, graceMs: 300, ...options});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
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

describe('a full disk', () => {
	it('marks the task whose log cannot be written, and the batch goes on with every result', async () => {
		const harness = makeRunner([
			{goal: 'on a full disk', context: '[fake:duration=0] [fake:answer=still answered]'},
			{goal: 'elsewhere', context: '[fake:duration=0] [fake:answer=fine]'},
		]);
		// /dev/full answers every write with ENOSPC, as a full file system does.
		symlinkSync('/dev/full', harness.folder.logPath('t01'));
		const report = await harness.runner.start();
		const [full, fine] = report.results;

		expect(full).toMatchObject({status: 'succeeded'});
		expect(full!.result.split('\n').at(-1)).toBe('still answered');
		expect(full!.warnings).toEqual([expect.stringMatching(/^log incomplete: cannot write it: ENOSPC \(no space left on device\); .* holds 0 of the \d+ bytes the task printed/)]);
		expect(fine).toMatchObject({status: 'succeeded'});
		expect(fine!.warnings).toBeUndefined();
		// -Q: the answer on stdout, then Hermes's session line on stderr.
		expect(readFileSync(fine!.log!, 'utf8')).toMatch(/^fine\n\nsession_id: \S+\n$/);
		expect(JSON.parse(readFileSync(harness.folder.resultsPath, 'utf8'))).toEqual(report);
	});
});

describe('the log limit', () => {
	it('keeps the first and the last half of the limit around a marker, and the result says so', async () => {
		const limit = 256 * 1024;
		const bytes = 4 * 1024 * 1024;
		const lines = bytes / 64;
		const harness = makeRunner([{goal: 'flood', context: `[fake:bytes=${bytes}] [fake:line-bytes=64]`}], {logLimitBytes: limit});
		const report = await harness.runner.start();
		const result = report.results[0]!;
		const log = readFileSync(result.log!, 'utf8');
		const [head, marker, tail] = log.split(/^(\[hermes-delegate: .*\]\n)/m);
		const numbers = (text: string) => text.trimEnd().split('\n').map(line => Number(/^line (\d+) /.exec(line)?.[1]));

		expect(Buffer.byteLength(head!)).toBe(limit / 2);
		expect(Buffer.byteLength(tail!)).toBe(limit / 2);
		expect(numbers(head!)).toEqual(Array.from({length: 2048}, (_, index) => index + 1));
		expect(numbers(tail!)).toEqual(Array.from({length: 2048}, (_, index) => lines - 2047 + index));
		expect(marker).toBe(`[hermes-delegate: ${bytes - limit} bytes of output dropped here: the log limit is 256 KiB, so the log keeps the first 128 KiB and the last 128 KiB]\n`);
		expect(result.status).toBe('succeeded');
		expect(result.warnings).toEqual([expect.stringMatching(/^log cut at its limit of 256 KiB: 3.8 MiB of output were dropped from its middle/)]);
		expect(readdirSync(`${harness.folder.dir}/logs`)).toEqual(['t01.log']);
	});

	it('leaves a log under the limit whole, with no marker and no warning', async () => {
		const harness = makeRunner([{goal: 'small', context: '[fake:bytes=200000] [fake:line-bytes=64]'}], {logLimitBytes: 256 * 1024});
		const report = await harness.runner.start();
		const log = readFileSync(report.results[0]!.log!, 'utf8');

		expect(Buffer.byteLength(log)).toBe(200_000);
		expect(log).not.toContain('[hermes-delegate:');
		expect(report.results[0]!.warnings).toBeUndefined();
		expect(existsSync(`${report.results[0]!.log!}.tail`)).toBe(false);
	});
});

describe('the start of a run', () => {
	it('announces the plan first, even when the batch is stopped while the plan is being written', async () => {
		const harness = makeRunner([1, 2, 3, 4].map(index => ({goal: `task ${index}`, context: '[fake:duration=0]'})), {concurrency: 2});
		const done = harness.runner.start();
		harness.runner.shutdown(); // start() is writing plan.json now
		const report = await done;

		expect(harness.events.map(event => event.type)).toEqual(['batch.planned', 'task.finished', 'task.finished', 'task.finished', 'task.finished', 'batch.finished']);
		expect(report.results.map(result => result.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
		expect(JSON.parse(readFileSync(harness.folder.planPath, 'utf8'))).toMatchObject({mode: 'default'});
	});

	it('removes the run folder and starts nothing when the plan cannot be written', async () => {
		const harness = makeRunner([{goal: 'never starts', context: '[fake:duration=0]'}]);
		// The plan's place is taken by a folder, so writing it fails as on a broken disk.
		mkdirSync(harness.folder.planPath);
		const started = harness.runner.start();

		await expect(started).rejects.toThrow(InputError);
		await expect(started).rejects.toThrow(/cannot write the run's plan: .*; nothing was started/);
		expect(existsSync(harness.folder.dir)).toBe(false);
		expect(harness.events).toEqual([]);
	});

	it('still reports every result when results.json cannot be written, and says where they are', async () => {
		const harness = makeRunner([{goal: 'answers', context: '[fake:duration=0] [fake:answer=kept]'}]);
		// results.json's place is taken by a folder, so writing it fails as on a broken disk.
		mkdirSync(harness.folder.resultsPath);
		const report = await harness.runner.start();

		expect(report.results[0]).toMatchObject({status: 'succeeded'});
		expect(report.results[0]!.result.split('\n').at(-1)).toBe('kept');
		expect(report.results_error).toMatch(/^the results could not be written to .*results\.json: .*; they are only in this output$/);
		expect(report.warnings).toContain(report.results_error);
		expect(harness.events.at(-1)).toMatchObject({type: 'batch.finished', report});
	});
});

describe('out of file descriptors', () => {
	it('fails the task whose log and spawn find none left, and the batch still ends with its results', async () => {
		const harness = makeRunner([{goal: 'no descriptors', context: '[fake:duration=0]'}]);
		// Take every descriptor but three: the plan (one at a time) and the log open still get one,
		// spawning the agent (two socket pairs and a pipe) gets EMFILE from the kernel.
		const taken: number[] = [];
		try {
			for (;;) taken.push(openSync('/dev/null', 'r'));
		} catch (error) {
			expect((error as NodeJS.ErrnoException).code).toBe('EMFILE');
		}

		for (const fd of taken.splice(-3)) closeSync(fd);
		let report;
		try {
			report = await harness.runner.start();
		} finally {
			for (const fd of taken) closeSync(fd);
		}

		expect(report.results[0]).toMatchObject({status: 'failed', exit_code: null});
		expect(report.results[0]!.error).toMatch(/EMFILE/);
	});
});
