// Under a tiny `ulimit -n` hermes-delegate says so and exits 2, whichever step runs out first:
// loading its own bundle (Node printed a stack trace and exited 1) or checking room for a task.
import {existsSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {describe, expect, it, onTestFinished} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {shellQuote} from '../helpers/tmux.js';

describe.skipIf(!existsSync('/proc/self/limits'))('a tiny open-files limit', () => {
	it('ends every run with exit 2 and a message naming the limit, never a stack trace', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const emptyScript = path.join(home.dir, 'empty.mjs');
		writeFileSync(emptyScript, '');
		const command = ['node', cliPath, 'run', tasksJson({goal: 'One', context: '[fake:duration=0.1]'}), '--hermes-bin', fakeAgentPath].map(shellQuote).join(' ');
		const outcomes: string[] = [];
		// Below about 19 Node cannot read its own entry file (or crashes), out of any program's reach
		// (Node 24 needs a few more just to start and read a script: at 19 it dies of SIGSEGV);
		// loading the bundle (the runner host, the SQLite addon) takes about 30, a task about 21 more.
		// One at a time up to the room check (on Node 24 loading runs out at one limit only), then by 3.
		const roomCheck = (line: string) => line.includes('too low to run even one task');
		for (let limit = 19; limit <= 100; limit += outcomes.some(roomCheck) ? 3 : 1) {
			const bare = await execa('sh', ['-c', `ulimit -n ${limit} && exec node ${shellQuote(emptyScript)}`], {reject: false});
			if (bare.exitCode !== 0) continue; // Node itself cannot start here
			const run = await execa('sh', ['-c', `ulimit -n ${limit} && exec ${command}`], {
				env: {HERMES_HOME: home.dir, TMPDIR: home.dir, XDG_CACHE_HOME: path.join(home.dir, '.cache'), NO_COLOR: '1', PATH: process.env['PATH']},
				extendEnv: false,
				reject: false,
			});
			if (run.exitCode === 0) break; // room enough for the batch: nothing below was short of descriptors
			expect(run.stderr, `ulimit -n ${limit}`).toMatch(/^hermes-delegate: .*(open files|open-files limit)/);
			expect(run.stderr, `ulimit -n ${limit}`).not.toMatch(/\n\s+at /);
			expect(run.exitCode, `ulimit -n ${limit}`).toBe(2);
			outcomes.push(run.stderr.split('\n')[0]!);
		}

		// The limits tried reach both steps: loading and the room check.
		// (Loading runs out at different limits on different Nodes: in the bundle's import on Node 20,
		// in what the CLI reads as it starts on Node 24.)
		expect(outcomes.some(line => /to (load|run) hermes-delegate/.test(line))).toBe(true);
		expect(outcomes.some(roomCheck)).toBe(true);
	});
});
