// What gc finds: live processes recorded by a run whose hermes-delegate is gone, and nothing else
// (a run still owned, a finished run, a pid that now names another process). Real processes, real
// run folders; the dead owner is a real process that was started and killed.
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {hostname, tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {endOrphans, findOrphans, orphanCount, orphanWarning} from '../../../src/core/run-folder/orphans.js';
import {processStartTicks} from '../../../src/core/process/group.js';
import {readProcStat, startTicksAt} from '../../../src/core/process/proc-tree.js';
import {createRunFolder, newRunId, recordProcess, type RunFolder} from '../../../src/core/run-folder/folder.js';
import {isOwnerAlive, readRunOwner, type RunOwner} from '../../../src/core/run-folder/owner.js';
import {announcedPid, killKnownProcesses, remember, startHostile} from '../../helpers/hostile.js';
import {isProcessRunning, killStartedAgents, startFakeAgent} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';

const homes: string[] = [];

afterEach(() => {
	killKnownProcesses();
	killStartedAgents();
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

function makeHome(): string {
	const home = mkdtempSync(path.join(tmpdir(), 'orphans-'));
	homes.push(home);
	return home;
}

/** The owner record of a hermes-delegate that really ran and was killed with SIGKILL. */
async function deadOwner(): Promise<RunOwner> {
	const owner = await startHostile('silent.sh');
	const startTicks = processStartTicks(owner.process.pid);
	process.kill(owner.process.pid, 'SIGKILL');
	await owner.process.exited;
	return {...readRunOwner(createRunFolder(makeHome()).dir)!, pid: owner.process.pid, start_ticks: startTicks};
}

function ownedBy(folder: RunFolder, owner: RunOwner): RunFolder {
	writeFileSync(path.join(folder.dir, 'owner.json'), JSON.stringify(owner));
	return folder;
}

function recordStarted(folder: RunFolder, task: string, pid: number, startTicks = processStartTicks(pid)): void {
	recordProcess(folder, {event: 'started', task, pid, pgid: pid, start_ticks: startTicks, at: new Date().toISOString()});
}

describe.runIf(process.platform === 'linux')('findOrphans and endOrphans', () => {
	it('finds a silent agent, a grandchild whose agent died, and a job left in the session; the cascade ends them', async () => {
		const home = makeHome();
		const folder = ownedBy(createRunFolder(home), await deadOwner());
		const silent = await startHostile('silent.sh');
		recordStarted(folder, 't01', silent.process.pid);
		const stubborn = await startFakeAgent('[fake:ignore-term] [fake:grandchild] [fake:forever] [fake:ready]');
		await waitFor(() => stubborn.stdout.text.includes('READY'), {message: 'the stubborn agent to be ready'});
		const grandchild = Number(/grandchild pid (\d+)/.exec(stubborn.stdout.text)![1]);
		remember(grandchild);
		recordStarted(folder, 't02', stubborn.process.pid);
		process.kill(stubborn.process.pid, 'SIGKILL'); // The agent alone: its grandchild stays in the group.
		await stubborn.process.exited;
		const jobs = await startHostile('job-control.sh', {AGENT_EXIT: '1'});
		recordStarted(folder, 't03', jobs.process.pid);
		const job = await announcedPid(jobs, /^job (\d+)/m);
		writeFileSync(folder.logPath('t03'), jobs.stdout.text); // as hermes-delegate logs the agent's output
		await jobs.process.exited;

		const runs = findOrphans([home]);

		expect(runs.map(run => run.runId)).toEqual([folder.runId]);
		expect(runs[0]!.families.flatMap(found => found.members.map(member => [found.task, member.pid, member.via]))).toEqual([
			['t01', silent.process.pid, 'group'],
			['t02', grandchild, 'group'],
			['t03', job, 'session'],
		]);
		expect(orphanWarning([home])).toMatch(/^3 processes of a run whose hermes-delegate was killed are still running .*hermes-delegate gc/);

		// The grandchild ignores SIGTERM: SIGKILL after the grace period ends it.
		expect((await endOrphans(runs, {graceMs: 200})).forced).toBeGreaterThanOrEqual(1);
		expect([silent.process.pid, grandchild, job].filter(pid => isProcessRunning(pid))).toEqual([]);
		expect(existsSync(path.join(folder.dir, 'swept.json'))).toBe(true);
		expect(findOrphans([home])).toEqual([]);
		expect(orphanWarning([home])).toBeUndefined();
	});

	it('does not take a later, unrelated session that got a dead agent\'s pid as its id for the agent\'s family', async () => {
		// The pid of an agent that died after its hermes-delegate was killed is given to a later
		// process that setsid()s, leaves a child and exits: the child's group and session id are the
		// recorded agent pid, and it started after the agent. Arranged here the other way round, with
		// real processes and a real record: the run recorded an agent, under the pid that such a
		// session has now, as started before that session began and written nothing for it since.
		const home = makeHome();
		const folder = ownedBy(createRunFolder(home), await deadOwner());
		const recordedAt = Date.now();
		const recordedTicks = startTicksAt(recordedAt)!;
		await waitFor(() => startTicksAt(Date.now())! > recordedTicks + 2, {message: 'the clock to pass the record by more than its rounding'});
		const daemon = spawn('sh', ['-c', 'sleep 600 & echo $!'], {detached: true, stdio: ['ignore', 'pipe', 'ignore']});
		let printed = '';
		daemon.stdout.on('data', (chunk: Buffer) => {
			printed += chunk.toString();
		});
		await new Promise(resolve => daemon.on('exit', resolve));
		await waitFor(() => printed.endsWith('\n'), {message: 'the daemon to name its child'});
		const child = Number(printed);
		remember(child);
		const stat = readProcStat(child)!;
		expect([stat.session, stat.pgrp, readProcStat(daemon.pid!)]).toEqual([daemon.pid, daemon.pid, undefined]);
		recordProcess(folder, {event: 'started', task: 't01', pid: daemon.pid!, pgid: daemon.pid!, start_ticks: recordedTicks - 1, at: new Date(recordedAt).toISOString()});

		expect(findOrphans([home])).toEqual([]);
	});

	it('finds a descendant recorded as having left the session, while it is the same process', async () => {
		const home = makeHome();
		const folder = ownedBy(createRunFolder(home), await deadOwner());
		const agent = await startHostile('setsid-child.sh');
		const escapee = await announcedPid(agent, /^escapee (\d+)/m);
		recordStarted(folder, 't01', agent.process.pid);
		recordProcess(folder, {event: 'escaped', task: 't01', pid: escapee, pgid: agent.process.pid, start_ticks: processStartTicks(escapee), at: ''});
		process.kill(agent.process.pid, 'SIGKILL');
		await agent.process.exited;

		expect(findOrphans([home])[0]?.families[0]?.members.map(member => [member.pid, member.via])).toEqual([[escapee, 'seen']]);

		await endOrphans(findOrphans([home]), {graceMs: 30_000});
		expect(isProcessRunning(escapee)).toBe(false);
	});

	it('leaves alone runs still owned, finished runs, ended tasks, and pids that name another process now', async () => {
		const agent = await startHostile('silent.sh');
		const {pid} = agent.process;
		const home = makeHome();
		recordStarted(createRunFolder(home), 't01', pid); // Owned by this very process, alive.
		const finished = ownedBy(createRunFolder(home), await deadOwner());
		recordStarted(finished, 't01', pid);
		writeFileSync(finished.resultsPath, '{}');
		const ended = ownedBy(createRunFolder(home), await deadOwner());
		recordStarted(ended, 't01', pid);
		recordProcess(ended, {event: 'ended', task: 't01', pid, pgid: pid, start_ticks: null, at: ''});
		const recycled = ownedBy(createRunFolder(home), await deadOwner());
		recordStarted(recycled, 't01', pid, processStartTicks(pid)! - 1);
		const unverifiable = ownedBy(createRunFolder(home), await deadOwner());
		recordStarted(unverifiable, 't01', pid, null as unknown as number);

		expect(findOrphans([home])).toEqual([]);
		expect(isProcessRunning(pid)).toBe(true);
	});

	it('marks a run of a gone owner once nothing of it runs, and skips it from then on', async () => {
		const home = makeHome();
		const folder = ownedBy(createRunFolder(home), await deadOwner());
		const agent = await startHostile('silent.sh');
		recordStarted(folder, 't01', agent.process.pid, processStartTicks(agent.process.pid)! - 1);

		expect(findOrphans([home])).toEqual([]);
		expect(existsSync(path.join(folder.dir, 'swept.json'))).toBe(true);

		recordStarted(folder, 't02', agent.process.pid); // Would match, but the run is settled.
		expect(findOrphans([home])).toEqual([]);
	});

	it('looks at the newest runs only when asked to (the start-up check)', async () => {
		const home = makeHome();
		const agent = await startHostile('silent.sh');
		const old = ownedBy(createRunFolder(home, newRunId(new Date('2020-01-01T00:00:00Z'))), await deadOwner());
		recordStarted(old, 't01', agent.process.pid);
		createRunFolder(home, newRunId(new Date('2021-01-01T00:00:00Z')));

		expect(orphanCount(findOrphans([home], {newest: 1}))).toBe(0);
		expect(orphanCount(findOrphans([home]))).toBe(1);
	});

	it('skips a processes.jsonl line cut short by the SIGKILL', async () => {
		const home = makeHome();
		const folder = ownedBy(createRunFolder(home), await deadOwner());
		const agent = await startHostile('silent.sh');
		recordStarted(folder, 't01', agent.process.pid);
		writeFileSync(folder.processesPath, `${readFileSync(folder.processesPath, 'utf8')}{"event":"started","task":"t02","pi`);

		expect(orphanCount(findOrphans([home]))).toBe(1);
	});
});

describe.runIf(process.platform === 'linux')('run owner', () => {
	it('is alive while the process that made the run folder runs', () => {
		const owner = readRunOwner(createRunFolder(makeHome()).dir)!;

		expect(owner).toMatchObject({pid: process.pid, host: hostname()});
		expect(isOwnerAlive(owner)).toBe(true);
	});

	it('is gone once killed, on another boot, or when its pid names a later process; unknown on another host', async () => {
		const owner = await deadOwner();
		const self = readRunOwner(createRunFolder(makeHome()).dir)!;

		expect(isOwnerAlive(owner)).toBe(false);
		expect(isOwnerAlive({...self, boot_id: 'another-boot'})).toBe(false);
		expect(isOwnerAlive({...self, start_ticks: self.start_ticks! + 1})).toBe(false);
		expect(isOwnerAlive({...owner, host: `not-${hostname()}`})).toBe(true);
	});

	it('reads an owner record that has only pid and start time', async () => {
		const folder = createRunFolder(makeHome());
		const dead = await deadOwner();
		writeFileSync(path.join(folder.dir, 'owner.json'), JSON.stringify({pid: dead.pid, start_ticks: dead.start_ticks, started_at: 'then'}));

		expect(readRunOwner(folder.dir)).toEqual({pid: dead.pid, start_ticks: dead.start_ticks, boot_id: null, host: null, at: 'then'});
		expect(isOwnerAlive(readRunOwner(folder.dir)!)).toBe(false);
	});

	it('reads no owner from a missing or broken owner.json', () => {
		const folder = createRunFolder(makeHome());
		writeFileSync(path.join(folder.dir, 'owner.json'), '{"pid": 12');

		expect(readRunOwner(folder.dir)).toBeUndefined();
		expect(readRunOwner(makeHome())).toBeUndefined();
	});
});
