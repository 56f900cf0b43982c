// The family watch's walk of process trees (tree-walk.ts) against the whole-of-/proc scan: the
// same descendants, including a child forked by a thread other than the main one.
import {spawn, type ChildProcess} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {hasProc, scanProcesses, type ProcessTable} from '../../../src/core/process/proc-tree.js';
import {walkTrees} from '../../../src/core/process/tree-walk.js';
import {waitFor} from '../../helpers/wait-for.js';

/** The pids under `root` in `table`, found through parent ids. */
function descendants(table: ProcessTable, root: number): number[] {
	const found: number[] = [];
	const queue = [root];
	for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
		for (const child of table.children(next)) {
			found.push(child.pid);
			queue.push(child.pid);
		}
	}

	return found.sort((a, b) => a - b);
}

async function started(child: ChildProcess): Promise<number> {
	await new Promise(resolve => child.once('spawn', resolve));
	return child.pid!;
}

function end(child: ChildProcess): void {
	try {
		process.kill(-child.pid!, 'SIGKILL');
	} catch {
		// gone already
	}
}

describe.runIf(hasProc)('walkTrees', () => {
	it('finds the descendants the whole scan finds, grandchildren included', async () => {
		const shell = spawn('sh', ['-c', 'sleep 30 & (sleep 30 & wait) & wait'], {detached: true, stdio: 'ignore'});
		try {
			const root = await started(shell);
			await waitFor(() => descendants(scanProcesses(), root).length === 3, {message: 'three sleeps under the shell'});
			const walked = await walkTrees([root], 10_000);
			if (typeof walked === 'string') throw new Error(`the walk gave ${walked}`);

			expect(descendants(walked, root)).toEqual(descendants(scanProcesses(), root));
			expect(walked.byPid.get(root)).toMatchObject({pid: root, session: root});
		} finally {
			end(shell);
		}
	});

	it('finds a child that a worker thread forked, which only that thread\'s children list holds', async () => {
		const script = `const {Worker} = require('node:worker_threads');
new Worker("require('node:child_process').spawn('sleep', ['30'], {stdio: 'ignore'}); setInterval(() => {}, 1000);", {eval: true});`;
		const agent = spawn(process.execPath, ['-e', script], {detached: true, stdio: 'ignore'});
		try {
			const root = await started(agent);
			await waitFor(() => descendants(scanProcesses(), root).length === 1, {message: 'the sleep the worker started'});
			const walked = await walkTrees([root], 10_000);
			if (typeof walked === 'string') throw new Error(`the walk gave ${walked}`);

			expect(descendants(walked, root)).toEqual(descendants(scanProcesses(), root));
		} finally {
			end(agent);
		}
	});

	it('gives up past its budget of reads, and leaves out a root that is gone', async () => {
		const shell = spawn('sh', ['-c', 'sleep 30 & sleep 30 & wait'], {detached: true, stdio: 'ignore'});
		try {
			const root = await started(shell);
			await waitFor(() => descendants(scanProcesses(), root).length === 2, {message: 'the two sleeps'});

			expect(await walkTrees([root], 2)).toBe('over-budget');
			const gone = spawn('true');
			const gonePid = await started(gone);
			await new Promise(resolve => gone.once('exit', resolve));
			const walked = await walkTrees([gonePid], 10);
			if (typeof walked === 'string') throw new Error(`the walk gave ${walked}`);
			expect(walked.byPid.size).toBe(0);
		} finally {
			end(shell);
		}
	});
});
