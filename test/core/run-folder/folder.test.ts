// Run folders on a real disk: each records its owner (pid + kernel start time), and pruning
// removes only runs whose owner is gone, so two demos at once never delete each other's run.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {runsDir} from '../../../src/core/hermes/home.js';
import {processStartTicks} from '../../../src/core/process/group.js';
import {createRunFolder, isOwnerAlive, pruneRunFolders} from '../../../src/core/run-folder/folder.js';
import {readRunOwner} from '../../../src/core/run-folder/owner.js';

const homes: string[] = [];
afterEach(() => {
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
});

function makeHome(): string {
	const home = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-runs-'));
	homes.push(home);
	return home;
}

/** A process that has ended, with the start time it had: its pid is no longer ours. */
async function deadOwner(): Promise<{pid: number; start_ticks: number | null}> {
	const child = spawn('sleep', ['60']);
	const owner = {pid: child.pid!, start_ticks: processStartTicks(child.pid!)};
	child.kill('SIGKILL');
	await once(child, 'exit');
	return owner;
}

function runId(day: number): string {
	return `202601${String(day).padStart(2, '0')}-120000-abcdef`;
}

describe('run folders', () => {
	it('record their owner: this process, with its kernel start time', () => {
		const folder = createRunFolder(makeHome(), runId(1));
		expect(readRunOwner(folder.dir)).toMatchObject({pid: process.pid, start_ticks: processStartTicks(process.pid)});
		expect(isOwnerAlive(folder.dir)).toBe(true);
		expect(existsSync(path.join(folder.dir, 'logs'))).toBe(true);
		// Nothing is left under the name the folder was made with.
		expect(readdirSync(path.dirname(folder.dir))).toEqual([runId(1)]);
	});

	it('pruning keeps a run whose owner still runs, however old, and removes those whose owner is gone', async () => {
		const home = makeHome();
		const live = createRunFolder(home, runId(1)); // the oldest of all
		const dead = await deadOwner();
		for (let day = 2; day <= 12; day++) {
			const dir = path.join(runsDir(home), runId(day));
			mkdirSync(dir, {recursive: true});
			writeFileSync(path.join(dir, 'owner.json'), JSON.stringify({...dead, started_at: ''}));
		}

		const removed = pruneRunFolders(runsDir(home), 9);
		expect(removed.sort()).toEqual([runId(2), runId(3)]);
		expect(existsSync(live.dir)).toBe(true);
		expect(isOwnerAlive(path.join(runsDir(home), runId(12)))).toBe(false);
	});

	it('a pid reused by another process does not keep a run alive', () => {
		const home = makeHome();
		const dir = path.join(runsDir(home), runId(1));
		mkdirSync(dir, {recursive: true});
		// Our own pid, but another start time: the process that made the run is gone.
		writeFileSync(path.join(dir, 'owner.json'), JSON.stringify({pid: process.pid, start_ticks: (processStartTicks(process.pid) ?? 0) + 1}));
		expect(pruneRunFolders(runsDir(home), 0)).toEqual([runId(1)]);
	});
});
