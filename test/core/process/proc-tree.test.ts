import {spawn} from 'node:child_process';
import {copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {hasProc, parseStat, processName, processTableFromNow, readProcStat, scanProcessesInSlices, type ProcStat} from '../../../src/core/process/proc-tree.js';

/** The stat line read the plain way (split into its fields), as the parser did before it read bytes. */
function parsedBySplitting(text: string): ProcStat | undefined {
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	const [state, ppid, pgrp, session, threads, startTicks] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3]), Number(fields[17]), Number(fields[19])];
	if (state === undefined || !Number.isInteger(pgrp) || !Number.isInteger(session)) return undefined;
	const stat: ProcStat = {pid: Number.parseInt(text, 10), state, ppid, pgrp, session, startTicks: Number.isInteger(startTicks) ? startTicks : null};
	if (Number.isInteger(threads) && threads > 0) stat.threads = threads;
	return stat;
}

describe('parseStat', () => {
	it('reads what splitting the line reads, whatever the command name holds and whatever the other fields are', () => {
		const count = fc.integer({min: 0, max: 2 ** 40});
		const signed = fc.integer({min: -(2 ** 31), max: 2 ** 31});
		// A command name is up to 15 bytes of anything but NUL; ')' and ' ' are what trips a parser.
		const comm = fc.array(fc.constantFrom('a', 'Z', '0', ' ', ')', '(', '-', '\u00e9', '\n'), {maxLength: 15}).map(chars => chars.join(''));
		fc.assert(fc.property(fc.integer({min: 1, max: 4_194_304}), comm, fc.constantFrom('R', 'S', 'D', 'Z', 'T', 't', 'X', 'I'), count, count, count, fc.array(signed, {minLength: 15, maxLength: 15}), count, fc.array(signed, {maxLength: 32}), (pid, name, state, ppid, pgrp, session, between, start, after) => {
			const line = `${pid} (${name}) ${state} ${ppid} ${pgrp} ${session} ${between.join(' ')} ${start}${after.map(value => ` ${value}`).join('')}\n`;
			const bytes = Buffer.from(line, 'latin1');

			expect(parseStat(bytes)).toEqual(parsedBySplitting(line));
			expect(parseStat(bytes)).toEqual({pid, state, ppid, pgrp, session, startTicks: start, ...(between[20 - 7]! > 0 ? {threads: between[20 - 7]} : {})});
		}));
	});

	it.runIf(hasProc)('reads every process on this machine as splitting its line does', () => {
		let read = 0;
		for (const name of readdirSync('/proc').filter(entry => /^\d+$/.test(entry))) {
			let bytes: Buffer;
			try {
				bytes = readFileSync(`/proc/${name}/stat`);
			} catch {
				continue; // gone meanwhile
			}

			expect(parseStat(bytes)).toEqual(parsedBySplitting(bytes.toString('latin1')));
			read++;
		}

		expect(read).toBeGreaterThan(0);
	});

	it('says nothing of a line without its command name or fields', () => {
		expect(parseStat(Buffer.from(''))).toBeUndefined();
		expect(parseStat(Buffer.from('12 (sh'))).toBeUndefined();
		expect(parseStat(Buffer.from('12 (sh) S 1'))).toBeUndefined();
	});
});

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

describe.runIf(hasProc)('processName', () => {
	it(`names a Node process by its program, on this Node too (${process.version}; Node 24 renames its main thread MainThread)`, async () => {
		const child = spawn(process.execPath, ['-e', 'process.stdout.write("up\\n"); setInterval(() => {}, 1000)'], {stdio: ['ignore', 'pipe', 'ignore']});
		try {
			await new Promise(resolve => child.stdout.once('data', resolve));
			expect(processName(child.pid!)).toBe(path.basename(process.execPath));
		} finally {
			child.kill('SIGKILL');
		}
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
