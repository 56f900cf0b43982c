// Untrusted input is read up to a limit (core/text/read-text.ts inputLimits): an endless or huge input
// ends with exit 2 naming the limit, instead of growing without bound or never ending.
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {describe, expect, it, onTestFinished} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, runCli, tasksJson} from '../helpers/run-cli.js';

describe.skipIf(!existsSync('/dev/zero'))('input limits', () => {
	// A config file is read only when it is a regular file (an endless device never gets to the limit).
	it('--config /dev/zero ends with exit 2 naming the file, and starts nothing', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const run = await runCli(home, ['run', tasksJson({goal: 'One'}), '--config', '/dev/zero']);
		expect(run.stderr).toContain('/dev/zero: is a device, not a regular file: hermes-delegate reads a Hermes config file only from a regular file');
		expect(run.exitCode).toBe(2);
		expect(home.agentRuns()).toEqual([]);
	});

	it('an endless stdin (yes | run) ends with exit 2 naming the limit, and starts nothing', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const yes = spawn('yes', [JSON.stringify([{goal: 'Again'}])], {stdio: ['ignore', 'pipe', 'ignore']});
		onTestFinished(() => {
			yes.kill('SIGKILL');
		});
		const run = await execa(process.execPath, [cliPath, 'run', '-', '--hermes-bin', fakeAgentPath], {
			env: {HERMES_HOME: home.dir, TMPDIR: home.dir, XDG_CACHE_HOME: path.join(home.dir, '.cache'), FAKE_HERMES_ARGV_FILE: home.argvFile, NO_COLOR: '1', PATH: process.env['PATH']},
			extendEnv: false,
			input: yes.stdout,
			reject: false,
			// A safety net only: unbounded, this run grew by a quarter of a gigabyte a second.
			timeout: 20_000,
		});
		expect(run.stderr).toContain('<stdin>: is larger than 64 MiB, the most hermes-delegate reads from a tasks file or stdin');
		expect(run.exitCode).toBe(2);
		expect(home.agentRuns()).toEqual([]);
	});
});
