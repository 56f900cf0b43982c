import {spawn} from 'node:child_process';
import {copyFileSync, mkdtempSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {hasProc, processTableFromNow, readProcStat, scanProcessesInSlices} from '../../../src/core/process/proc-tree.js';

describe.runIf(hasProc)('readProcStat', () => {
	it('reads a process whose name holds spaces and parentheses, and says nothing of one that is gone', async () => {
		// The kernel's stat line is "pid (comm) state ppid pgrp session ...": a name like this one
		// is what a parser that splits at the first ')' or at spaces gets wrong.
		const dir = mkdtempSync(path.join(os.tmpdir(), 'hd-stat-'));
		const oddName = path.join(dir, 'a) b (c');
		copyFileSync('/bin/sleep', oddName);
		const child = spawn(oddName, ['30'], {stdio: 'ignore', detached: true});
		try {
			await new Promise(resolve => child.once('spawn', resolve));
			const stat = readProcStat(child.pid!);

			expect(stat).toMatchObject({pid: child.pid, ppid: process.pid, pgrp: child.pid, session: child.pid});
			expect(stat!.state).toMatch(/^[RSD]$/);
			expect(stat!.startTicks).toBeGreaterThan(0);
		} finally {
			child.kill('SIGKILL');
			await new Promise(resolve => child.once('exit', resolve));
			rmSync(dir, {recursive: true, force: true});
		}

		expect(readProcStat(child.pid!)).toBeUndefined();
	});
});

describe.runIf(hasProc)('processTableFromNow', () => {
	it('reads the table after it is asked for, so a process started just before is in it', async () => {
		const child = spawn('sleep', ['30'], {stdio: 'ignore'});
		try {
			const table = await processTableFromNow();

			expect(table.complete).toBe(true);
			expect(table.byPid.get(child.pid!)).toMatchObject({pid: child.pid, ppid: process.pid});
		} finally {
			child.kill('SIGKILL');
		}
	});

	it('is one scan for everyone who asks in the same turn, and a new one for who asks later', async () => {
		const first = processTableFromNow();
		const second = processTableFromNow();
		const shared = await first;

		expect(await second).toBe(shared);
		const child = spawn('sleep', ['30'], {stdio: 'ignore'});
		try {
			const later = await processTableFromNow();

			expect(later).not.toBe(shared);
			expect(shared.byPid.has(child.pid!)).toBe(false);
			expect(later.byPid.has(child.pid!)).toBe(true);
		} finally {
			child.kill('SIGKILL');
		}
	});
});

describe.runIf(hasProc)('scanProcessesInSlices', () => {
	it('reads every process a few at a time, letting the event loop run in between', async () => {
		const child = spawn('sleep', ['30'], {stdio: 'ignore'});
		try {
			let ranMeanwhile = false;
			const scan = scanProcessesInSlices();
			setImmediate(() => {
				ranMeanwhile = true;
			});
			const table = await scan;

			expect(ranMeanwhile).toBe(true);
			expect(table.complete).toBe(true);
			expect(table.byPid.get(child.pid!)).toMatchObject({pid: child.pid, ppid: process.pid});
			expect(table.children(process.pid).map(stat => stat.pid)).toContain(child.pid);
		} finally {
			child.kill('SIGKILL');
		}
	});
});
