// The runner drives real fake-agent process groups: these tests protect the concurrency limit,
// the kill cascade (grandchildren included), cancellation, fail-fast, timeouts, bounded memory
// under heavy output, and what a run leaves on disk. They wait on runner events, never on time.
import {createReadStream, existsSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {listGroupMembers, processStartTicks} from '../../../src/core/process/group.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder, type ProcessRecord} from '../../../src/core/run-folder/folder.js';
import {BatchRunner, type RunnerOptions} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import {resultLimitBytes} from '../../../src/core/output/byte-tail.js';
import type {BatchEvent, DelegationConfig, TaskResult, TaskSpec} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv, isProcessRunning} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const quick = '[fake:duration=0.2]';
const runaway = '[fake:forever] [fake:ready]';
const stubborn = '[fake:ignore-term] [fake:grandchild] [fake:forever] [fake:ready]';

const modelMap: DelegationConfig = {
	mode: 'model_map',
	modelMap: {
		options: [
			{kind: 'model', name: 'fast', description: 'Cheap and quick lookups.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'},
			{kind: 'model', name: 'deep', description: 'Slow and careful design.', provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high'},
		],
		default: 'fast',
	},
	profileRoutes: {profiles: []},
	builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false},
};

const scratch = scratchAfterEach();

type Harness = ReturnType<typeof makeRunner>;

function makeRunner(tasks: TaskSpec[], options: Partial<RunnerOptions> = {}) {
	const home = scratch.folder('runner-test-');
	const argvFile = path.join(home, 'argv.jsonl');
	const plan = planBatch({tasks, delegation: modelMap, settings: defaultSettings});
	const folder = createRunFolder(home);
	const runner = new BatchRunner(plan, {
		hermesBin: fakeAgentPath,
		capabilities: fakeCapabilities(),
		folder,
		concurrency: 3,
		graceMs: 300,
		env: {...fakeVersionEnv(), FAKE_HERMES_ARGV_FILE: argvFile},
		...options,
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
	});
	return {runner, folder, events, argvFile};
}

function task(goal: string, context: string, extra: Partial<TaskSpec> = {}): TaskSpec {
	return {goal, context, ...extra};
}

function startedPid(harness: Harness, id: string): number {
	const started = harness.events.find(event => event.type === 'task.started' && event.id === id);
	if (started?.type !== 'task.started') throw new Error(`${id} has not started`);
	return started.pid;
}

function eventsOf(harness: Harness, id: string): string[] {
	return harness.events.filter(event => 'id' in event && event.id === id).map(event => event.type);
}

async function untilReady(harness: Harness, id: string): Promise<void> {
	await waitFor(() => harness.runner.output(id)?.stdout.lines().includes('READY') ?? false, {message: `READY from ${id}`});
}

function grandchildOf(harness: Harness, id: string): number {
	const line = harness.runner.output(id)?.stdout.lines().find(text => text.startsWith('grandchild pid '));
	return Number(line?.slice('grandchild pid '.length));
}

function statuses(results: TaskResult[]): string[] {
	return results.map(result => result.status);
}

function argvRuns(harness: Harness): unknown[] {
	return existsSync(harness.argvFile) ? readFileSync(harness.argvFile, 'utf8').trim().split('\n') : [];
}

describe('BatchRunner concurrency', () => {
	it('never runs more than -j tasks at once, and does run that many', async () => {
		const harness = makeRunner(Array.from({length: 6}, (_, index) => task(`task ${index}`, runaway)), {concurrency: 2});
		let running = 0;
		let most = 0;
		const alive = new Set<number>();
		harness.runner.subscribe(event => {
			if (event.type === 'task.started') {
				alive.add(event.pid);
				// The agents' own view: how many of the started processes exist right now.
				most = Math.max(most, [...alive].filter(isProcessRunning).length, ++running);
			} else if (event.type === 'task.finished' && event.result.started_at !== null) {
				running--;
			}
		});
		const done = harness.runner.start();

		// Each agent runs until cancelled, so a slot frees only when the test says so.
		for (let cancelled = 0; cancelled < 6; cancelled++) {
			const expected = Math.min(2, 6 - cancelled);
			await waitFor(() => harness.events.filter(event => event.type === 'task.started').length === Math.min(6, cancelled + 2), {message: `${cancelled + 2} starts`});
			const live = harness.runner.plan.tasks.filter(planned => harness.runner.status(planned.id) === 'running');
			expect(live).toHaveLength(expected);
			expect(harness.runner.cancel(live[0]!.id)).toBe(true);
			await waitFor(() => harness.runner.status(live[0]!.id) === 'cancelled', {message: `${live[0]!.id} cancelled`});
		}

		const report = await done;
		expect(most).toBe(2);
		expect(statuses(report.results)).toEqual(Array.from({length: 6}, () => 'cancelled'));
	});
});

describe('BatchRunner kill cascade', () => {
	it('cancels a task that ignores SIGTERM, grandchild included, while its siblings run on', async () => {
		const harness = makeRunner([
			task('runaway', stubborn),
			task('sibling one', '[fake:duration=1]'),
			task('sibling two', '[fake:duration=1]'),
		]);
		const done = harness.runner.start();
		await untilReady(harness, 't01');
		const pgid = startedPid(harness, 't01');
		const grandchild = grandchildOf(harness, 't01');
		expect(listGroupMembers(pgid).sort()).toEqual([pgid, grandchild].sort());

		expect(harness.runner.cancel('t01')).toBe(true);
		const report = await done;

		expect(eventsOf(harness, 't01')).toEqual(['task.started', 'task.cancelling', 'task.killed', 'task.finished']);
		const cancelling = harness.events.find(event => event.type === 'task.cancelling');
		expect(cancelling).toMatchObject({id: 't01', cancelling: {reason: 'cancel', killSent: false}});
		expect(listGroupMembers(pgid)).toEqual([]);
		expect(isProcessRunning(grandchild)).toBe(false);
		expect(report.results[0]).toMatchObject({status: 'cancelled', success: false, signal: 'SIGKILL'});
		expect(statuses(report.results.slice(1))).toEqual(['succeeded', 'succeeded']);
		expect(eventsOf(harness, 't02')).toEqual(['task.started', 'task.finished']);
		expect(eventsOf(harness, 't03')).toEqual(['task.started', 'task.finished']);
	});

	it('never starts a queued task that was cancelled', async () => {
		const harness = makeRunner([task('first', runaway), task('queued', quick)], {concurrency: 1});
		const done = harness.runner.start();
		await untilReady(harness, 't01');

		expect(harness.runner.status('t02')).toBe('queued');
		expect(harness.runner.cancel('t02')).toBe(true);
		expect(harness.runner.status('t02')).toBe('cancelled');
		harness.runner.cancel('t01');
		const report = await done;

		expect(eventsOf(harness, 't02')).toEqual(['task.finished']);
		expect(report.results[1]).toMatchObject({status: 'cancelled', started_at: null, exit_code: null, log: null});
		expect(existsSync(harness.folder.logPath('t02'))).toBe(false);
		expect(argvRuns(harness)).toHaveLength(1);
	});

	it('fail-fast: the first failure cancels the running siblings and the queued ones', async () => {
		const home = scratch.folder('runner-files-');
		const fail = path.join(home, 'fail');
		const harness = makeRunner([
			task('long one', runaway),
			task('long two', runaway),
			// Fails once both siblings run: failing earlier could cancel a sibling still starting up,
			// before its agent had recorded that it ran.
			task('will fail', `[fake:until-file=${fail}] [fake:fail]`),
			task('queued', quick),
		], {concurrency: 3, failFast: true});
		const done = harness.runner.start();
		await untilReady(harness, 't01');
		await untilReady(harness, 't02');
		writeFileSync(fail, '');
		const report = await done;

		expect(statuses(report.results)).toEqual(['cancelled', 'cancelled', 'failed', 'cancelled']);
		expect(report.results[2]?.error).toContain('429');
		// A script reading one result sees why it was cancelled.
		expect(report.results[0]?.error).toMatch(/^cancelled by --fail-fast after another task failed: SIGTERM sent to its process group; /);
		expect(report.results[3]?.error).toContain('fail-fast');
		for (const id of ['t01', 't02']) {
			expect(harness.events.find(event => event.type === 'task.cancelling' && event.id === id)).toMatchObject({cancelling: {reason: 'fail-fast'}});
			expect(listGroupMembers(startedPid(harness, id))).toEqual([]);
		}

		expect(eventsOf(harness, 't04')).toEqual(['task.finished']);
		expect(argvRuns(harness)).toHaveLength(3);
	});
});

describe('BatchRunner timeouts', () => {
	// Only a timeout can end a task that runs until it is stopped, so none of these can race.
	it('times a task out with the batch timeout through the same cascade', async () => {
		// The timer starts at spawn, so the group must ignore SIGTERM from its first command: the fake
		// agent (node) installs its handler, and its grandchild, only after a start-up that took longer
		// than the timeout on a loaded machine, and SIGTERM then ended the task with no SIGKILL needed.
		const home = scratch.folder('runner-files-');
		const agent = path.join(home, 'stubborn-agent.sh');
		writeFileSync(agent, [
			'#!/bin/sh',
			'trap \'\' TERM', // inherited, still ignored, by the grandchild
			'sleep 600 &',
			'wait',
			'',
		].join('\n'), {mode: 0o755});
		const harness = makeRunner([task('runaway', '')], {timeoutMs: 300, hermesBin: agent});
		const report = await harness.runner.start();

		expect(eventsOf(harness, 't01')).toEqual(['task.started', 'task.cancelling', 'task.killed', 'task.finished']);
		expect(harness.events.find(event => event.type === 'task.cancelling')).toMatchObject({id: 't01', cancelling: {reason: 'timeout'}});
		expect(report.results[0]).toMatchObject({status: 'timed_out', success: false});
		expect(listGroupMembers(startedPid(harness, 't01'))).toEqual([]);
	});

	it('a task\'s own timeout wins over a longer batch timeout', async () => {
		const harness = makeRunner([task('runaway', runaway, {timeout: 0.3})], {timeoutMs: 3_600_000});
		const report = await harness.runner.start();

		expect(report.results[0]).toMatchObject({status: 'timed_out', success: false});
		// The limit it ran into, and whose.
		expect(report.results[0]?.error).toMatch(/^timed out at its limit of 0\.3 s \(the task's "timeout"\): SIGTERM sent/);
		expect(harness.events.find(event => event.type === 'task.cancelling')).toMatchObject({id: 't01', cancelling: {reason: 'timeout'}});
		expect(listGroupMembers(startedPid(harness, 't01'))).toEqual([]);
	});

	it('a task\'s own timeout wins over a shorter batch timeout', async () => {
		const home = scratch.folder('runner-files-');
		const go = (name: string) => path.join(home, name);
		const harness = makeRunner([
			task('allowed', `[fake:until-file=${go('allowed')}]`, {timeout: 3600}),
			task('blocker', `[fake:until-file=${go('blocker')}]`, {timeout: 3600}),
			task('runaway', runaway),
		], {concurrency: 2, timeoutMs: 300});
		const done = harness.runner.start();
		// t01's timers are armed when it is announced; t03 can only start (and arm its batch timer,
		// of the same length) after that, and equal timers fire in the order they were armed. So
		// when t03 has timed out, a batch timer on t01 would already have fired.
		await waitFor(() => eventsOf(harness, 't01').includes('task.started'), {message: 't01 started'});
		writeFileSync(go('blocker'), '');
		await waitFor(() => harness.runner.status('t03') === 'timed_out', {message: 't03 timed out by the batch timeout'});

		expect(harness.runner.status('t01')).toBe('running');
		writeFileSync(go('allowed'), '');
		const report = await done;

		expect(statuses(report.results)).toEqual(['succeeded', 'succeeded', 'timed_out']);
		expect(eventsOf(harness, 't01')).toEqual(['task.started', 'task.finished']);
	});

	it('times a task out with its own timeout when the batch has none', async () => {
		const harness = makeRunner([task('runaway', runaway, {timeout: 0.3}), task('fine', quick)]);
		const report = await harness.runner.start();

		expect(statuses(report.results)).toEqual(['timed_out', 'succeeded']);
		expect(harness.events.find(event => event.type === 'task.cancelling')).toMatchObject({id: 't01', cancelling: {reason: 'timeout'}});
		expect(listGroupMembers(startedPid(harness, 't01'))).toEqual([]);
	});
});

describe('BatchRunner and processes that leave the group', () => {
	// The escapee inherits stdout and keeps it open; the agent itself answers and exits, but only
	// once the escapee has left the group: exiting earlier lets the runner's clean-up of the group
	// kill it before it escapes (which is what happened under load on CI).
	it.each([
		['holds the output pipe open', 'exec sleep 60'],
		['keeps printing (a dev server left behind)', 'while :; do echo still serving; sleep 0.05; done'],
	])('does not hang when a process that escaped the group (setsid) %s', async (_case, escapeeWork) => {
		const home = scratch.folder('runner-files-');
		const agent = path.join(home, 'escaping-agent.sh');
		const escaped = path.join(home, 'escaped');
		writeFileSync(agent, [
			'#!/bin/sh',
			`setsid sh -c 'echo "escapee $$"; : > "${escaped}"; ${escapeeWork}' &`,
			`while [ ! -e "${escaped}" ]; do sleep 0.01; done`,
			'echo answer',
			'',
		].join('\n'), {mode: 0o755});
		// Unwatched: a descendant the runner sees is ended with its task (runner-family.test.ts).
		const harness = makeRunner([task('escape', '')], {hermesBin: agent, descendantScanMs: 0});
		const report = await harness.runner.start();
		const escapee = Number(/escapee (\d+)/.exec(report.results[0]!.result)?.[1]);
		try {
			expect(report.results[0]).toMatchObject({status: 'succeeded', exit_code: 0});
			expect(report.results[0]!.result).toContain('answer');
			expect(report.results[0]!.warnings?.join(' ')).toMatch(/output pipe stayed open: a process that left the group \(setsid\)/);
		} finally {
			if (escapee > 0) process.kill(escapee, 'SIGKILL');
		}
	});
});

describe('BatchRunner output', () => {
	it('logs 50 MB of output completely while keeping only a bounded tail in memory', async () => {
		const bytes = 50 * 1024 * 1024;
		const lineBytes = 64;
		const harness = makeRunner([task('flood', `[fake:bytes=${bytes}] [fake:line-bytes=${lineBytes}]`)], {tailLines: 100});
		const report = await harness.runner.start();
		const result = report.results[0]!;

		expect(result.status).toBe('succeeded');
		expect(statSync(result.log!).size).toBe(bytes);
		expect(await countLines(result.log!)).toBe(bytes / lineBytes);
		const output = harness.runner.output('t01')!;
		expect(output.stdout.totalLines).toBe(bytes / lineBytes);
		expect(output.stdout.lines().length).toBeLessThanOrEqual(100);
		expect(Buffer.byteLength(result.result)).toBeLessThanOrEqual(resultLimitBytes);
		expect(result.result_truncated).toBe(true);
		expect(result.result.split('\n').at(-1)).toMatch(/^line 00819200 /);
	});

	it('keeps Hermes\'s closing session line out of the pane, and in the log', async () => {
		const harness = makeRunner([task('answer', '[fake:duration=0] [fake:answer=the answer]')]);
		const report = await harness.runner.start();

		expect(readFileSync(report.results[0]!.log!, 'utf8')).toMatch(/\nsession_id: \S+\n$/);
		const shown = harness.runner.output('t01')!.display.lines();
		expect(shown).toContain('the answer');
		expect(shown.join('\n')).not.toMatch(/session_id/);
	});
});

describe('BatchRunner results and run folder', () => {
	it('keeps input order, refuses unknown routes without starting them, and records every process', async () => {
		const harness = makeRunner([
			task('slower', '[fake:duration=0.6] [fake:answer=first]', {option: 'deep'}),
			task('unknown route', quick, {option: 'turbo'}),
			task('quickest', '[fake:duration=0] [fake:answer=third]'),
			task('broken', '[fake:duration=0.2] [fake:fail]'),
		]);
		const report = await harness.runner.start();

		expect(report.results.map(result => result.id)).toEqual(['t01', 't02', 't03', 't04']);
		expect(statuses(report.results)).toEqual(['succeeded', 'refused', 'succeeded', 'failed']);
		// The launcher does not pass -Q, so `result` is all of stdout and the answer is its last line.
		expect(report.results.map(result => result.result.split('\n').at(-1))).toEqual(['first', '', 'third', expect.any(String)]);
		expect(report.results[1]).toMatchObject({route: {refused: true}, started_at: null, log: null});
		expect(report.results[1]?.error).toMatch(/option "turbo" is not in model_map/);
		expect(eventsOf(harness, 't02')).toEqual(['task.finished']);
		expect(argvRuns(harness)).toHaveLength(3);
		expect(report.results[0]?.route).toMatchObject({name: 'deep', model: 'claude-opus-5', reasoning_effort: 'high'});
		expect(report.results[3]).toMatchObject({exit_code: 1, success: false});

		const records = readFileSync(harness.folder.processesPath, 'utf8').trim().split('\n').map(line => JSON.parse(line) as ProcessRecord);
		for (const id of ['t01', 't03', 't04']) {
			const pid = startedPid(harness, id);
			expect(records.filter(record => record.task === id).map(record => [record.event, record.pid, record.pgid])).toEqual([['started', pid, pid], ['ended', pid, pid]]);
		}

		expect(records.some(record => record.task === 't02')).toBe(false);
		expect(JSON.parse(readFileSync(harness.folder.resultsPath, 'utf8'))).toEqual(report);
		expect(existsSync(harness.folder.planPath)).toBe(true);
		expect(harness.events.at(-1)).toMatchObject({type: 'batch.finished', report});
	});
});

describe('BatchRunner secrets and permissions', () => {
	it('never writes a route\'s api_key into the run folder, which only its owner can read', async () => {
		const home = scratch.folder('runner-test-');
		const secret = 'sk-SECRET-do-not-write';
		const delegation: DelegationConfig = {...modelMap, modelMap: {options: [{...modelMap.modelMap.options[0]!, api_key: secret}], default: 'fast'}};
		const plan = planBatch({tasks: [task('look up', quick)], delegation, settings: defaultSettings});
		const folder = createRunFolder(home);
		const report = await new BatchRunner(plan, {hermesBin: fakeAgentPath, capabilities: fakeCapabilities(), env: fakeVersionEnv(), folder, concurrency: 1, graceMs: 300}).start();

		expect(report.results[0]!.status).toBe('succeeded');
		for (const file of [folder.planPath, folder.resultsPath]) {
			expect(readFileSync(file, 'utf8')).not.toContain(secret);
		}

		expect(statSync(folder.dir).mode & 0o077).toBe(0);
	});
});

describe('BatchRunner shutdown', () => {
	it('cascades every running group, cancels the queued tasks and reports the run as interrupted', async () => {
		const harness = makeRunner([task('stubborn', stubborn), task('plain', runaway), task('queued one', quick), task('queued two', quick)], {concurrency: 2});
		const done = harness.runner.start();
		await untilReady(harness, 't01');
		await untilReady(harness, 't02');
		const grandchild = grandchildOf(harness, 't01');
		// While they run: each recorded start time names that very process (a `gc` relies on it).
		const records = readFileSync(harness.folder.processesPath, 'utf8').trim().split('\n').map(line => JSON.parse(line) as ProcessRecord);
		for (const id of ['t01', 't02']) {
			const pid = startedPid(harness, id);
			const ticks = processStartTicks(pid);
			expect(ticks).toBeTypeOf('number');
			expect(records.find(record => record.task === id)).toMatchObject({event: 'started', pid, start_ticks: ticks});
		}

		harness.runner.shutdown();
		const report = await done;

		expect(report.interrupted).toBe(true);
		expect(statuses(report.results)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
		expect(eventsOf(harness, 't01')).toEqual(['task.started', 'task.cancelling', 'task.killed', 'task.finished']);
		expect(eventsOf(harness, 't02')).toEqual(['task.started', 'task.cancelling', 'task.finished']);
		expect(eventsOf(harness, 't03')).toEqual(['task.finished']);
		expect(eventsOf(harness, 't04')).toEqual(['task.finished']);
		for (const id of ['t01', 't02']) expect(listGroupMembers(startedPid(harness, id))).toEqual([]);
		expect(isProcessRunning(grandchild)).toBe(false);
		expect(argvRuns(harness)).toHaveLength(2);
	});

	// Bug: cancel() returns false for a task whose spawn is in flight (status 'running', no process
	// yet) without recording the stop, so the task escapes the first shutdown signal and runs on.
	it('stops a task whose spawn was in flight when shutdown() was called', async () => {
		const harness = makeRunner([task('just starting', '[fake:duration=0.5]')]);
		harness.runner.subscribe(event => {
			if (event.type === 'batch.planned') {
				void (async () => {
					while (harness.runner.status('t01') !== 'running') await Promise.resolve();
					harness.runner.shutdown();
				})();
			}
		});
		const report = await harness.runner.start();

		expect(report.interrupted).toBe(true);
		expect(report.results[0]?.status).toBe('cancelled');
	});
});

async function countLines(file: string): Promise<number> {
	let lines = 0;
	for await (const chunk of createReadStream(file)) {
		const buffer = chunk as Buffer;
		for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) lines++;
	}

	return lines;
}
