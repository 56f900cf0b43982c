import {spawn} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {hasProc, processTableFromNow, scanProcessesInSlices} from '../../src/core/proc-tree.js';

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
