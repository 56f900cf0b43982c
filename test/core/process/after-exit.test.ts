// Once an agent has exited, whether anything of its family still runs: answered from the last scan
// of /proc only when every member that scan showed is gone and nothing was created since (the
// kernel's fork count); else from a scan read afresh, as before. Real processes; which reads are
// taken is seen through the injected reads.
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {afterEach, describe, expect, it} from 'vitest';
import {familyOutlivesAgent} from '../../../src/core/process/after-exit.js';
import {familyOf} from '../../../src/core/process/family.js';
import {processStartTicks} from '../../../src/core/process/group.js';
import {forksSinceBoot, freshProcessTable, noForkSince, readProcStat, scanProcesses} from '../../../src/core/process/proc-tree.js';
import {waitFor} from '../../helpers/wait-for.js';

const onLinux = process.platform === 'linux';
const started: ChildProcess[] = [];

afterEach(() => {
	for (const child of started.splice(0)) {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// gone
		}
	}
});

/** An agent leading its own session and group (as agents are spawned), with a background child in its group; resolves once both run. */
async function agentWithChild(): Promise<{leader: ChildProcess; exited: Promise<unknown>}> {
	const leader = spawn('sh', ['-c', 'sleep 1000 & echo started; wait'], {detached: true, stdio: ['ignore', 'pipe', 'ignore']});
	started.push(leader);
	const exited = new Promise(resolve => leader.once('exit', resolve));
	let said = '';
	leader.stdout!.on('data', (data: Buffer) => {
		said += data.toString();
	});
	await waitFor(() => said.includes('started'), {message: 'the agent and its child to start'});
	return {leader, exited};
}

/** A scan that counts itself. */
function countedScan() {
	const scan = {count: 0, read: async () => {
		scan.count++;
		return scanProcesses();
	}};
	return scan;
}

describe.runIf(onLinux)('whether a family outlives its agent', () => {
	it('is no, without a scan, when every member of the last scan is gone and nothing was created since', async () => {
		const {leader, exited} = await agentWithChild();
		const family = familyOf({pid: leader.pid!, startTicks: processStartTicks(leader.pid!)});
		const earlier = freshProcessTable();
		process.kill(-leader.pid!, 'SIGKILL');
		await exited;
		await waitFor(() => !scanProcesses().byPid.has(leader.pid!) && [...scanProcesses().byPid.values()].every(stat => stat.pgrp !== leader.pid), {message: 'the group to be gone'});
		const scan = countedScan();
		expect(await familyOutlivesAgent(family, {earlier, noForkSince: () => true, scan: scan.read})).toBe(false);
		expect(scan.count).toBe(0);
	});

	it('reads /proc afresh when a member of the last scan still runs, and then says yes', async () => {
		const {leader, exited} = await agentWithChild();
		const family = familyOf({pid: leader.pid!, startTicks: processStartTicks(leader.pid!)});
		const earlier = freshProcessTable();
		process.kill(leader.pid!, 'SIGKILL'); // The agent only: its background child stays, in its group.
		await exited;
		const scan = countedScan();
		expect(await familyOutlivesAgent(family, {earlier, noForkSince: () => true, scan: scan.read})).toBe(true);
		expect(scan.count).toBe(1);
	});

	it('reads /proc afresh when anything was created since the last scan', async () => {
		const {leader, exited} = await agentWithChild();
		const family = familyOf({pid: leader.pid!, startTicks: processStartTicks(leader.pid!)});
		const earlier = freshProcessTable();
		process.kill(-leader.pid!, 'SIGKILL');
		await exited;
		const scan = countedScan();
		let asked = 0;
		const noFork = () => {
			asked++;
			return false;
		};

		await familyOutlivesAgent(family, {earlier, noForkSince: noFork, scan: scan.read});
		expect(scan.count).toBe(1);
		// Asked only once the members were checked, or not at all if one still ran.
		expect(asked).toBeLessThanOrEqual(1);
	});

	it('trusts a table only while the kernel counted no fork since just before it was read', () => {
		const table = freshProcessTable();
		expect(table.forks).toBeGreaterThan(0);
		expect(forksSinceBoot()).toBeGreaterThanOrEqual(table.forks!);
		spawnSync('true');
		expect(forksSinceBoot()).toBeGreaterThan(table.forks!);
		expect(noForkSince(table)).toBe(false);
		expect(readProcStat(process.pid)).toBeDefined();
	});
});
