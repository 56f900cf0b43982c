// The runner host without a terminal: `run --detach` then `wait` gives what `run` gives; `cancel`
// from the command line; a `wait` killed -9 changes nothing; the host killed -9 leaves a run that
// `ls` calls "owner died" and `gc` cleans up; bad input still exits 2 with nothing started.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {readRunOwner} from '../../src/core/run-folder/owner.js';
import type {BatchReport} from '../../src/core/types.js';
import {isProcessRunning} from '../helpers/processes.js';
import {cliPath, makeHome, recordedGroups, runCli, spawnCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';
import {connectToBatch} from '../../src/client/connection.js';
import {launchHost} from '../../src/client/launch.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {listGroupMembers} from '../../src/core/process/group.js';

const quick = '[fake:duration=0.2]';

/** A home removed when the test ends (its runner hosts first: see makeHome's remove). */
function home(): TestHome {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

function runDir(test: TestHome, runId: string): string {
	return path.join(test.runsDir, runId);
}

/** `run --detach`: its run id, once the host serves the batch. */
async function detach(test: TestHome, tasks: string, flags: string[] = []): Promise<string> {
	const started = await runCli(test, ['run', '--detach', tasks, ...flags]);
	expect(started.exitCode, started.stderr).toBe(0);
	const runId = started.stdout.trim();
	expect(runId).toMatch(/^\d{8}-\d{6}-[\da-f]{6}$/);
	return runId;
}

/** The report without what differs between two runs of the same batch: times, ids (the run's, the agents' sessions), paths. */
function comparable(report: BatchReport): unknown {
	const runId = report.run_id;
	const strip = (value: unknown, key = ''): unknown => {
		if (typeof value === 'string') return value.replaceAll(path.dirname(report.results_file), '<run>').replaceAll(runId, '<run-id>');
		if (typeof value === 'number' && /(_at|_ms|^pid)$/.test(key)) return '<time>';
		if (Array.isArray(value)) return value.map(item => strip(item));
		if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, /_at$/.test(name) ? '<time>' : name === 'session_id' ? '<session>' : strip(item, name)]));
		return value;
	};

	return strip(report);
}

/** host.json as it stands, or '' before the host first wrote it (a wait may look that early). */
function hostJson(dir: string): string {
	return existsSync(path.join(dir, 'host.json')) ? readFileSync(path.join(dir, 'host.json'), 'utf8') : '';
}

function untilFile(test: TestHome, name: string): string {
	return `[fake:until-file=${path.join(test.dir, name)}]`;
}

describe('run --detach and wait', () => {
	it('wait prints the same results and exits with the same code as run on the same batch', async () => {
		const test = home();
		const tasks = tasksJson(
			{goal: 'What is the capital of France?', characteristic: 'quick', context: `${quick} [fake:answer=Paris.]`},
			{goal: 'Fail on purpose', context: `${quick} [fake:fail]`},
		);
		const direct = await runCli(test, ['run', tasks]);
		const runId = await detach(test, tasks);
		const waited = await runCli(test, ['wait', runId]);

		expect(waited.exitCode).toBe(direct.exitCode);
		expect(direct.exitCode).toBe(1);
		const report = JSON.parse(waited.stdout) as BatchReport;
		expect(report.run_id).toBe(runId);
		expect(comparable(report)).toEqual(comparable(JSON.parse(direct.stdout) as BatchReport));
		expect(waited.stderr).toContain(`${report.summary}; results in ${report.results_file}`);
		// Once finished and nobody attached, the host ends; wait then reads the same from disk.
		await waitFor(() => !isProcessRunning(readRunOwner(runDir(test, runId))!.pid), {message: 'the runner host to end'});
		const again = await runCli(test, ['wait', runId]);
		expect(again.exitCode).toBe(1);
		expect(JSON.parse(again.stdout)).toEqual(report);
	});

	it('a wait killed -9 while the batch runs changes nothing: every task finishes and the results are complete', async () => {
		const test = home();
		const tasks = tasksJson({goal: 'one', context: untilFile(test, 'go')}, {goal: 'two', context: untilFile(test, 'go')});
		const runId = await detach(test, tasks);
		const client = spawnCli(test, ['wait', runId]);
		const exited = new Promise(resolve => client.once('exit', resolve));
		await waitFor(() => hostJson(runDir(test, runId)).includes('"clients": 1'), {message: 'the wait attached'});
		client.kill('SIGKILL');
		await exited;
		await waitFor(() => hostJson(runDir(test, runId)).includes('"clients": 0'), {message: 'the host saw the client go'});
		test.write('go', '');

		const waited = await runCli(test, ['wait', runId]);
		expect(waited.exitCode).toBe(0);
		const report = JSON.parse(waited.stdout) as BatchReport;
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
		expect(readFileSync(path.join(runDir(test, runId), 'host.log'), 'utf8')).toMatch(/client/);
	});

	it('wait --timeout gives up with 124 and the run goes on', async () => {
		const test = home();
		const runId = await detach(test, tasksJson({goal: 'one', context: untilFile(test, 'go')}));
		const waited = await runCli(test, ['wait', runId, '--timeout', '0.5']);
		expect(waited.exitCode).toBe(124);
		expect(waited.stderr).toContain(`hermes-delegate cancel ${runId}`);
		test.write('go', '');
		expect((await runCli(test, ['wait', runId])).exitCode).toBe(0);
	});
});

describe('attaching to a run --detach batch', () => {
	it('a client sees the panes\' tails, as it would of a dashboard\'s batch', async () => {
		const test = home();
		const runId = await detach(test, tasksJson({goal: 'one', context: `[fake:ready] ${untilFile(test, 'go')}`}));
		const socket = path.join(runDir(test, runId), 'host.sock');
		let tail: string[] = [];
		// Each look is a fresh attach: its snapshot is what any new client would be shown.
		await waitFor(async () => {
			const connection = await connectToBatch(socket, {client: 'test'});
			tail = connection.snapshot.outputs['t01']?.tail ?? [];
			connection.close();
			return tail.some(line => line.includes('READY'));
		}, {message: 'the snapshot to carry the pane\'s READY line'});
		expect(tail.join('\n')).toContain('READY');
		test.write('go', '');
		expect((await runCli(test, ['wait', runId])).exitCode).toBe(0);
	});
});

describe('cancel', () => {
	it('cancels one task of a live run through its host with the dashboard\'s words; the others run on', async () => {
		const test = home();
		const runId = await detach(test, tasksJson(
			{name: 'stuck', goal: 'Never stop', context: '[fake:forever] [fake:ready]'},
			{name: 'other', goal: 'Finish when told', context: untilFile(test, 'go')},
		), ['--grace', '1']);
		await waitFor(() => recordedGroups(runDir(test, runId)).length === 2, {message: 'both agents started'});

		const cancelled = await runCli(test, ['cancel', runId, 't01']);
		expect(cancelled.stderr).toContain('cancelling t01 \'stuck\': SIGTERM to its process group, SIGKILL after 1s.');
		expect(cancelled.stderr).toMatch(/t01 cancelled/);
		expect(cancelled.exitCode).toBe(0);

		test.write('go', '');
		const waited = await runCli(test, ['wait', runId]);
		const report = JSON.parse(waited.stdout) as BatchReport;
		expect(report.results.map(result => result.status)).toEqual(['cancelled', 'succeeded']);
		expect(report.interrupted).toBe(false);
	});

	it('names the fix for a run that is not live and a task that does not exist (exit 2)', async () => {
		const test = home();
		const runId = await detach(test, tasksJson({goal: 'one', context: untilFile(test, 'go')}));
		const noTask = await runCli(test, ['cancel', runId, 't09']);
		expect(noTask.exitCode).toBe(2);
		expect(noTask.stderr).toContain(`run ${runId} has no task "t09"`);
		test.write('go', '');
		await runCli(test, ['wait', runId]);
		await waitFor(() => !isProcessRunning(readRunOwner(runDir(test, runId))!.pid), {message: 'the runner host to end'});
		const finished = await runCli(test, ['cancel', runId]);
		expect(finished.exitCode).toBe(2);
		expect(finished.stderr).toContain(`cannot cancel run ${runId}: it has finished`);
	});
});

describe('the runner host stopped with SIGTERM', () => {
	it('cascades, writes the results as interrupted, tells its clients and ends', async () => {
		const test = home();
		const runId = await detach(test, tasksJson({name: 'stuck', goal: 'Never stop', context: '[fake:forever] [fake:ready]'}, {goal: 'queued behind it'}), ['-j', '1', '--grace', '1']);
		const dir = runDir(test, runId);
		await waitFor(() => recordedGroups(dir).length === 1, {message: 'the agent started'});
		const client = spawnCli(test, ['wait', runId]);
		const output = {stdout: ''};
		client.stdout.on('data', chunk => {
			output.stdout += String(chunk);
		});
		const exited = new Promise<number | null>(resolve => client.once('exit', resolve));
		await waitFor(() => hostJson(dir).includes('"clients": 1'), {message: 'the wait attached'});

		const host = readRunOwner(dir)!.pid;
		process.kill(host, 'SIGTERM');
		expect(await exited).toBe(130);
		const report = JSON.parse(output.stdout) as BatchReport;
		expect(report.interrupted).toBe(true);
		expect(report.results.map(result => result.status)).toEqual(['cancelled', 'cancelled']);
		expect(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'))).toEqual(report);
		await waitFor(() => !isProcessRunning(host), {message: 'the host to end'});
		expect(listGroupMembers(recordedGroups(dir)[0]!)).toEqual([]);
	});
});

describe('the runner host killed with SIGKILL', () => {
	it('ls says owner died and names gc; gc ends what it left running', async () => {
		const test = home();
		// The grandchild keeps the group alive after the agent dies of its closed stdout: until gc, something is left to end.
		const runId = await detach(test, tasksJson({name: 'stuck', goal: 'Never stop', context: '[fake:forever] [fake:ready] [fake:grandchild]'}));
		const dir = runDir(test, runId);
		await waitFor(() => recordedGroups(dir).length === 1, {message: 'the agent started'});
		await waitFor(() => listGroupMembers(recordedGroups(dir)[0]!).length >= 2, {message: 'the grandchild started'});
		const live = JSON.parse((await runCli(test, ['ls', '--json'])).stdout) as Array<Record<string, unknown>>;
		const host = readRunOwner(dir)!.pid;
		// The pid a script kills.
		expect(live[0]).toMatchObject({run_id: runId, state: 'live', owner: 'alive', attach_command: `hermes-delegate attach ${runId}`, host_pid: host, owner_pid: host});

		process.kill(host, 'SIGKILL');
		await waitFor(() => !isProcessRunning(host), {message: 'the host to die'});
		const [pgid] = recordedGroups(dir);
		expect(listGroupMembers(pgid!).length).toBeGreaterThan(0);

		const listed = await runCli(test, ['ls']);
		expect(listed.exitCode).toBe(0);
		expect(listed.stdout).toContain(`${runId}  owner died`);
		expect(listed.stdout).toContain('`hermes-delegate gc` ends what it left running');
		const asJson = JSON.parse((await runCli(test, ['ls', '--json'])).stdout) as Array<Record<string, unknown>>;
		expect(asJson[0]).toMatchObject({run_id: runId, state: 'owner died', owner: 'died', gc_command: 'hermes-delegate gc', attach_command: null});

		const gc = await runCli(test, ['gc']);
		expect(gc.exitCode).toBe(0);
		await waitFor(() => listGroupMembers(pgid!).length === 0, {message: 'gc to end the agent'});

		// Swept: shown as cleaned, no more advice to run gc.
		const after = await runCli(test, ['ls']);
		expect(after.stdout).toContain(`${runId}  cleaned`);
		expect(after.stdout).not.toContain('ends what it left running');
		const afterJson = JSON.parse((await runCli(test, ['ls', '--json'])).stdout) as Array<Record<string, unknown>>;
		expect(afterJson[0]).toMatchObject({run_id: runId, state: 'cleaned', owner: 'died', gc_command: null, host_pid: host});
	});
});

describe('bad input under a runner host', () => {
	it('run --detach with a bad tasks file exits 2 with today\'s message and starts nothing', async () => {
		const test = home();
		const bad = test.write('tasks.json', '[{"goal": 3}]');
		const direct = await runCli(test, ['run', bad]);
		const detached = await runCli(test, ['run', '--detach', bad]);
		expect(detached.exitCode).toBe(2);
		expect(detached.stderr).toBe(direct.stderr);
		expect(detached.stdout).toBe('');
		expect(test.runs()).toEqual([]);
		expect(test.agentRuns()).toEqual([]);
	});

	it('run --detach reads the tasks from stdin and hands them to the host', async () => {
		const test = home();
		const started = await runCli(test, ['run', '--detach'], {input: tasksJson({goal: 'from stdin', context: `${quick} [fake:answer=ok]`})});
		expect(started.exitCode, started.stderr).toBe(0);
		const waited = await runCli(test, ['wait', started.stdout.trim()]);
		expect(waited.exitCode).toBe(0);
		expect((JSON.parse(waited.stdout) as BatchReport).results[0]!.goal).toBe('from stdin');
	});
});

describe('ls', () => {
	it('lists nothing in a fresh home, and finished runs with their tasks by status', async () => {
		const test = home();
		expect((await runCli(test, ['ls'])).stdout).toContain('no runs yet');
		const direct = await runCli(test, ['run', tasksJson({goal: 'one', context: quick})]);
		const {run_id: runId} = JSON.parse(direct.stdout) as BatchReport;
		const listed = await runCli(test, ['ls']);
		expect(listed.stdout).toContain(`${runId}  finished`);
		expect(listed.stdout).toContain('1 succeeded');
		expect(existsSync(path.join(runDir(test, runId), 'host.json'))).toBe(false);
	});
});

describe('the first-client grace of a dashboard\'s host', () => {
	/** A tui's runner host over one quick task, as `tui` launches it, with no dashboard attached yet. */
	async function launchTuiHost(graceMs: number) {
		const test = home();
		const env = {...process.env, HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache'), NO_COLOR: '1', HERMES_DELEGATE_FIRST_CLIENT_GRACE_MS: String(graceMs)};
		const ready = await launchHost({
			command: 'tui',
			taskArg: tasksJson({goal: 'one', context: quick}),
			options: {hermesBin: fakeAgentPath},
			stdinIsTTY: false,
			stdin: null,
			color: false,
		}, {env, entry: cliPath});
		if (ready.type !== 'ready') throw new Error(ready.message);
		return {test, ready};
	}

	it('a tui host whose batch settled with no client ever attached ends once the grace is over', async () => {
		const {ready} = await launchTuiHost(200);
		const log = path.join(ready.runDir, 'host.log');
		await waitFor(() => !isProcessRunning(readRunOwner(ready.runDir)!.pid), {message: 'the host with no client to end after its grace'});
		const text = readFileSync(log, 'utf8');
		expect(text).toContain('batch finished');
		expect(text).toContain('no dashboard came within the first-client grace');
		expect(text).not.toContain('a client attached');
	});

	it('a script that comes and goes (wait) is not the dashboard it waits for: the host stays for the tui', async () => {
		const {test, ready} = await launchTuiHost(120_000);
		const log = path.join(ready.runDir, 'host.log');
		const owner = readRunOwner(ready.runDir)!.pid;
		onTestFinished(() => {
			if (isProcessRunning(owner)) process.kill(owner, 'SIGKILL');
		});
		await waitFor(() => readFileSync(log, 'utf8').includes('batch finished'), {message: 'the batch to settle'});
		const waited = await runCli(test, ['wait', ready.runId]);
		expect(waited.exitCode, waited.stderr).toBe(0);
		await waitFor(() => readFileSync(log, 'utf8').includes('a client left (0 now)'), {message: 'wait to have left'});
		// Still there for the dashboard that launched it: it attaches and sees the outcome.
		const dashboard = await connectToBatch(ready.socket, {client: 'tui'});
		expect(dashboard.snapshot.events.some(({event}) => event.type === 'batch.finished')).toBe(true);
		await dashboard.leave('quit');
		await waitFor(() => !isProcessRunning(owner), {message: 'the host to end once its dashboard left'});
		expect(readFileSync(log, 'utf8')).not.toContain('first-client grace');
	});
});
