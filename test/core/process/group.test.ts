import {chmodSync, closeSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {
	SpawnError,
	killUnfinishedGroupsNow,
	listGroupMembers,
	processStartTicks,
	signalGroup,
	spawnInGroup,
	startKillCascade,
} from '../../../src/core/process/group.js';
import {familyMembers, familyOf, signalFamily, watchFamily} from '../../../src/core/process/family.js';
import {readProcStat, scanProcesses} from '../../../src/core/process/proc-tree.js';
import {announcedPid, killKnownProcesses, startHostile} from '../../helpers/hostile.js';
import {collect, fakeAgentArgs, fakeAgentPath, isProcessRunning, killStartedAgents, sigtermPending, startFakeAgent} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';

const hasProc = isProcessRunning(process.pid) && process.platform === 'linux';

afterEach(() => {
	killStartedAgents();
});

async function startRunaway() {
	const agent = await startFakeAgent('runaway [fake:ignore-term] [fake:grandchild] [fake:forever] [fake:ready]');
	await waitFor(() => agent.stdout.text.includes('READY\n'), {message: 'READY from the fake agent'});
	const grandchild = Number(/grandchild pid (\d+)/.exec(agent.stdout.text)?.[1]);
	expect(grandchild).toBeGreaterThan(1);
	return {...agent, grandchild};
}

describe('kill cascade', () => {
	it('kills a runaway that ignores SIGTERM, and its grandchild, once the grace period is over', async () => {
		const agent = await startRunaway();
		const pgid = agent.process.pid;
		expect(listGroupMembers(pgid).sort()).toEqual([pgid, agent.grandchild].sort());

		let kills = 0;
		const cascade = startKillCascade(pgid, {graceMs: 300, onKill: () => kills++});
		const outcome = await cascade.done;

		expect(outcome).toEqual({forced: true});
		expect(kills).toBe(1);
		expect(listGroupMembers(pgid)).toEqual([]);
		expect(isProcessRunning(agent.grandchild)).toBe(false);
		expect(await agent.process.exited).toEqual({exitCode: null, signal: 'SIGKILL'});
		// The grandchild held the agent's stdout open; with it gone the output is complete.
		await agent.process.closed;
	});

	it('lets a process that honours SIGTERM exit without SIGKILL', async () => {
		const agent = await startFakeAgent('cooperative [fake:forever] [fake:ready]');
		await waitFor(() => agent.stdout.text.includes('READY\n'), {message: 'READY from the fake agent'});

		let kills = 0;
		const cascade = startKillCascade(agent.process.pid, {graceMs: 30_000, onKill: () => kills++});

		expect(await cascade.done).toEqual({forced: false});
		expect(kills).toBe(0);
		// As Hermes does: SIGTERM becomes a KeyboardInterrupt, and the process dies by SIGINT.
		expect(await agent.process.exited).toEqual({exitCode: null, signal: 'SIGINT'});
	});

	it('sends SIGTERM to the whole group first, and skipGrace() kills at once', async () => {
		const agent = await startRunaway();
		const cascade = startKillCascade(agent.process.pid, {graceMs: 600_000});
		// Both the leader and the grandchild got SIGTERM and chose to ignore it.
		await waitFor(
			() => agent.stderr.text.includes('grandchild ignoring SIGTERM') && /^ignoring SIGTERM$/m.test(agent.stderr.text),
			{message: 'both processes to report ignoring SIGTERM'},
		);

		cascade.skipGrace();

		expect(cascade.killDueAt).toBeLessThan(cascade.termSentAt + 600_000);
		expect(await cascade.done).toEqual({forced: true});
		expect(isProcessRunning(agent.grandchild)).toBe(false);
	});

	it.runIf(hasProc)('calls onStart with the cascade before SIGTERM goes out, and sends it even if onStart throws', async () => {
		for (const throws of [false, true]) {
			const agent = await startFakeAgent('[fake:forever] [fake:ready]');
			await waitFor(() => agent.stdout.text.includes('READY\n'), {message: 'READY from the fake agent'});
			// Stopped, the agent holds a SIGTERM pending (readable in /proc) instead of acting on it.
			process.kill(agent.process.pid, 'SIGSTOP');
			await waitFor(() => readProcStat(agent.process.pid)?.state === 'T', {message: 'the agent stopped'});
			const heard: Array<{pending: boolean; killDueAt: number}> = [];
			const start = () => startKillCascade(agent.process.pid, {
				graceMs: 30_000,
				onStart(cascade) {
					heard.push({pending: sigtermPending(agent.process.pid), killDueAt: cascade.killDueAt});
					if (throws) throw new Error('a listener failed');
				},
			});

			if (throws) expect(start).toThrow('a listener failed');
			else start();

			expect(heard).toEqual([{pending: false, killDueAt: expect.any(Number) as number}]);
			expect(sigtermPending(agent.process.pid)).toBe(true);
			signalGroup(agent.process.pid, 'SIGKILL');
			await agent.process.exited;
		}
	});

	it('finishes quietly for a group that is already gone', async () => {
		const agent = await startFakeAgent('[fake:duration=0]');
		await agent.process.closed;

		expect(signalGroup(agent.process.pid, 'SIGTERM')).toBe(false);
		expect(listGroupMembers(agent.process.pid)).toEqual([]);
		expect(await startKillCascade(agent.process.pid, {graceMs: 0}).done).toEqual({forced: false});
	});

	it('refuses ids that would signal our own group or every process', () => {
		expect(() => signalGroup(0, 'SIGTERM')).toThrow(RangeError);
		expect(() => signalGroup(1, 'SIGTERM')).toThrow(RangeError);
		expect(() => startKillCascade(-5, {graceMs: 0})).toThrow(RangeError);
	});
});

describe('spawnInGroup', () => {
	it('keeps output for a caller that subscribes late', async () => {
		const child = await spawnInGroup(fakeAgentPath, fakeAgentArgs('[fake:lines=100]'));
		await child.exited;
		const stdout = collect(child.stdout);
		collect(child.stderr);
		await child.closed;

		expect(stdout.lines()).toHaveLength(100);
	});

	it('gives the agent exactly the environment it is handed', async () => {
		const child = await spawnInGroup('/usr/bin/env', [], {env: {ONLY_THIS: 'yes'}});
		const stdout = collect(child.stdout);
		collect(child.stderr);
		await child.closed;

		expect(stdout.lines()).toEqual(['ONLY_THIS=yes']);
	});

	it('rejects with SpawnError when the binary does not exist', async () => {
		const missing = '/nonexistent/bin/hermes';
		const error: unknown = await spawnInGroup(missing, []).catch((error: unknown) => error);

		expect(error).toBeInstanceOf(SpawnError);
		expect(error).toMatchObject({code: 'ENOENT', file: missing});
		expect((error as Error).message).toContain(missing);
	});

	it('rejects with SpawnError when the file is not executable', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'process-group-'));
		try {
			const file = join(dir, 'hermes');
			writeFileSync(file, '#!/bin/sh\necho hi\n');
			chmodSync(file, 0o644);
			const error: unknown = await spawnInGroup(file, []).catch((error: unknown) => error);

			expect(error).toBeInstanceOf(SpawnError);
			expect(error).toMatchObject({code: 'EACCES', file});
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});

	it('rejects with SpawnError, and nothing crashes, when no file descriptor is left for the pipes', async () => {
		const taken: number[] = [];
		try {
			for (;;) taken.push(openSync('/dev/null', 'r'));
		} catch {}

		let error: unknown;
		try {
			error = await spawnInGroup(fakeAgentPath, []).catch((error: unknown) => error);
		} finally {
			for (const fd of taken) closeSync(fd);
		}

		expect(error).toBeInstanceOf(SpawnError);
		expect(error).toMatchObject({code: expect.stringMatching(/^E[MN]FILE$/), file: fakeAgentPath});
	});

	it('names a missing working directory instead of blaming the binary', async () => {
		const error: unknown = await spawnInGroup(fakeAgentPath, [], {cwd: '/nonexistent/dir'}).catch((error: unknown) => error);

		expect(error).toBeInstanceOf(SpawnError);
		expect((error as Error).message).toContain('/nonexistent/dir');
	});
});

describe.runIf(hasProc)('listGroupMembers on /proc', () => {
	it('reads a member whose command name contains spaces and parentheses', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'process-group-'));
		// /proc/<pid>/stat shows this name inside "(...)"; splitting at the first ')' would read
		// "Z" as the state and take the member for a zombie.
		const odd = join(dir, 'a) Z 1 1 (b');
		symlinkSync(process.execPath, odd);
		const child = await spawnInGroup(odd, ['-e', 'console.log("up"); setInterval(() => {}, 1e9)']);
		const stdout = collect(child.stdout);
		collect(child.stderr);
		try {
			await waitFor(() => stdout.text.includes('up'), {message: 'the oddly named process to start'});
			expect(listGroupMembers(child.pid)).toEqual([child.pid]);
		} finally {
			signalGroup(child.pid, 'SIGKILL');
			await child.exited;
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe.runIf(hasProc)('kill cascade and processes that leave the group', () => {
	afterEach(() => {
		killKnownProcesses();
	});

	it('spawns each agent as the leader of its own session, so its pid is also its session id', async () => {
		const agent = await startHostile('silent.sh');
		const stat = readProcStat(agent.process.pid);

		expect(stat).toMatchObject({pgrp: agent.process.pid, session: agent.process.pid});
	});

	it.each([
		['a job-control shell (bash with set -m)', 'job-control.sh', /^job (\d+)/m],
		['Python with process_group=0', 'process-group0.sh', /^child (\d+)/m],
	])('ends what %s moved out of the group, in the agent\'s session', async (_case, name, announcement) => {
		const agent = await startHostile(name);
		const job = await announcedPid(agent, announcement);
		// The premise: out of the group, still in the session.
		expect(readProcStat(job)).toMatchObject({session: agent.process.pid});
		expect(readProcStat(job)?.pgrp).not.toBe(agent.process.pid);

		const cascade = startKillCascade(agent.process.pid, {graceMs: 30_000});

		expect(await cascade.done).toEqual({forced: false});
		expect(isProcessRunning(job)).toBe(false);
	});

	it('ends a descendant that left the session too (setsid), once the watcher has seen it', async () => {
		const agent = await startHostile('setsid-child.sh');
		const escapee = await announcedPid(agent, /^escapee (\d+)/m);
		const leftSession: number[] = [];
		const watch = watchFamily({pid: agent.process.pid, startTicks: processStartTicks(agent.process.pid)}, {intervalMs: 20, onLeftSession: stat => leftSession.push(stat.pid)});
		try {
			await waitFor(() => leftSession.includes(escapee), {message: 'the watcher to see the escapee outside the session'});
			expect(readProcStat(escapee)?.session).toBe(escapee);

			expect(await startKillCascade(watch.family, {graceMs: 30_000}).done).toEqual({forced: false});
			expect(isProcessRunning(escapee)).toBe(false);
		} finally {
			watch.stop();
		}
	});

	it('on the way out (killUnfinishedGroupsNow) kills every watched family, session included', async () => {
		const agent = await startHostile('job-control.sh');
		const job = await announcedPid(agent, /^job (\d+)/m);
		const watch = watchFamily({pid: agent.process.pid, startTicks: processStartTicks(agent.process.pid)}, {intervalMs: 0});
		try {
			expect(killUnfinishedGroupsNow()).toEqual([agent.process.pid]);
			expect(await agent.process.exited).toMatchObject({signal: 'SIGKILL'});
			await waitFor(() => !isProcessRunning(job), {message: 'the job to die of SIGKILL'});
		} finally {
			watch.stop();
		}
	});

	it('never signals processes whose group and session ids were recycled (another start time)', async () => {
		const stranger = await startHostile('silent.sh');
		const pid = stranger.process.pid;
		const notTheAgent = familyOf({pid, startTicks: processStartTicks(pid)! - 1});

		expect(familyMembers(notTheAgent, scanProcesses())).toEqual([]);
		expect(signalFamily(notTheAgent, 'SIGKILL', scanProcesses())).toBe(false);
		expect(isProcessRunning(pid)).toBe(true);
	});
});
