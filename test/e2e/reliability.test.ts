// The built CLI under the conditions that used to crash it, made real: a full disk (a small tmpfs
// mounted over the runs folder in a private mount namespace, `unshare -rm`), a low open-files
// limit (`ulimit -n`), and a flooding task against the log limit. Nothing is mocked.
import {execFileSync} from 'node:child_process';
import {mkdirSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {execa} from 'execa';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

// These tests are about the engine and need the agent's whole stdout in `result`: Hermes 0.20.0's -Q
// gives exactly that (stream-json would keep only the reply).
process.env['FAKE_HERMES_VERSION'] = '0.20.0';

const trivialAgent = fileURLToPath(new URL('../../bench/trivial-agent.sh', import.meta.url));

function home(): TestHome {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

/** Whether this machine lets us mount a tmpfs in a private user and mount namespace. */
const canMountTmpfs = (() => {
	try {
		execFileSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=4k tmpfs /mnt'], {stdio: 'ignore'});
		return true;
	} catch {
		return false;
	}
})();

/**
 * argv that runs `command` with a `sizeKiB` tmpfs mounted over the home's runs folder, seen only
 * by it; `fill` fills the tmpfs first. The listing of the runs folder follows the command's own
 * output, after a `RUNS:` line, and the command's exit code is the shell's.
 */
function onSmallDisk(test: TestHome, sizeKiB: number, command: readonly string[], {fill = false} = {}): string[] {
	mkdirSync(test.runsDir, {recursive: true});
	const script = [
		'runs="$1"; shift',
		`mount -t tmpfs -o size=${sizeKiB}k tmpfs "$runs" || exit 99`,
		fill ? 'dd if=/dev/zero of="$runs/filler" bs=4k 2>/dev/null' : ':',
		'"$@"; code=$?',
		'echo RUNS: $(ls -A "$runs")',
		'exit $code',
	].join('\n');
	return ['unshare', '-rm', 'sh', '-c', script, 'sh', test.runsDir, ...command];
}

function cliEnv(test: TestHome): NodeJS.ProcessEnv {
	return {...process.env, HERMES_HOME: test.dir, NO_COLOR: '1', HERMES_BIN: undefined};
}

describe.skipIf(!canMountTmpfs)('a full disk', () => {
	it('run: the task whose log fills the disk is marked, the others finish, the results come out on stdout', async () => {
		const test = home();
		const tasks = test.write('tasks.json', tasksJson(
			{goal: 'floods the log', context: '[fake:bytes=2000000] [fake:line-bytes=100]'},
			{goal: 'answers', context: '[fake:duration=0] [fake:answer=still here]'},
		));
		const [file, ...args] = onSmallDisk(test, 256, [process.execPath, cliPath, 'run', tasks, '--hermes-bin', fakeAgentPath, '-j', '1']);
		const result = await execa(file!, args, {env: cliEnv(test), reject: false});
		const report = JSON.parse(result.stdout.slice(0, result.stdout.lastIndexOf('\nRUNS:'))) as BatchReport;

		expect(result.stderr).not.toMatch(/internal error/);
		expect(result.exitCode).toBe(0);
		expect(report.summary).toBe('2/2 tasks succeeded');
		expect(report.results[0]!.warnings).toEqual([expect.stringMatching(/^log incomplete: cannot write it: ENOSPC \(no space left on device\)/)]);
		expect(report.results[0]!.result).toMatch(/^line 00020000 /m);
		expect(report.results[1]!.result.split('\n').at(-1)).toBe('still here');
		expect(report.results_error).toMatch(/^the results could not be written to .*results\.json: no space left on device \(ENOSPC\); they are only in this output$/);
		expect(result.stderr).toMatch(/2\/2 tasks succeeded; the results could not be written to/);
	});

	it('run: a disk too full for the plan starts nothing, exits 2 and leaves no run folder', async () => {
		const test = home();
		const [file, ...args] = onSmallDisk(test, 64, [process.execPath, cliPath, 'run', tasksJson({goal: 'never runs', context: '[fake:duration=0]'}), '--hermes-bin', fakeAgentPath], {fill: true});
		const result = await execa(file!, args, {env: {...cliEnv(test), FAKE_HERMES_ARGV_FILE: test.argvFile}, reject: false});

		expect(result.exitCode).toBe(2);
		// Whichever write of the new run meets the full disk first (its owner record or its plan).
		expect(result.stderr).toMatch(/(plan\.json: cannot write the run's plan: no space left on device|cannot create the folder \S+: the disk is full) \(ENOSPC\)(; nothing was started)?\n {2}fix: free space/);
		expect(result.stdout).toBe('RUNS: filler');
		expect(test.agentRuns()).toEqual([]);
	});

	it('tui: the batch ends normally, the results are printed, and the terminal is restored', async () => {
		const test = home();
		const tasks = test.write('tasks.json', tasksJson({goal: 'floods the log', context: '[fake:bytes=2000000] [fake:line-bytes=100]'}));
		const screen = startTmux(onSmallDisk(test, 256, [process.execPath, cliPath, 'tui', tasks, '--hermes-bin', fakeAgentPath, '--exit-when-done']), {env: {HERMES_HOME: test.dir}});
		onTestFinished(() => screen.kill());
		const exit = await screen.waitForExit({timeoutMs: 30_000});

		expect(exit.screen).not.toMatch(/internal error/);
		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(/^hermes-delegate: warning: the results could not be written to .*ENOSPC/m);
		expect(exit.screen).toMatch(/"results_error": "the results could not be written to/);
		expect(exit.screen).toMatch(/^1\/1 tasks succeeded$/m);
		expect(exit.screen).toMatch(/^hermes-delegate: warning: t01: log incomplete: cannot write it: ENOSPC/m);
		expect(screen.display('#{alternate_on} #{cursor_flag}')).toBe('0 1');
	});

	it('tui: a disk too full for the plan ends the dashboard at once: exit 2, the message readable, the terminal restored', async () => {
		const test = home();
		const tasks = test.write('tasks.json', tasksJson({goal: 'never runs', context: '[fake:duration=0]'}));
		const screen = startTmux(onSmallDisk(test, 64, [process.execPath, cliPath, 'tui', tasks, '--hermes-bin', fakeAgentPath], {fill: true}), {env: {HERMES_HOME: test.dir}});
		onTestFinished(() => screen.kill());
		const exit = await screen.waitForExit({timeoutMs: 30_000});

		expect(exit.screen).not.toMatch(/internal error|Unhandled|at async/);
		expect(exit.code).toBe(2);
		expect(exit.screen).toMatch(/(cannot write the run's plan: no space left on device \(ENOSPC\); nothing was started|cannot create the folder \S+: the disk is full \(ENOSPC\))/);
		expect(exit.screen).toMatch(/^RUNS: filler$/m);
		expect(screen.display('#{alternate_on} #{cursor_flag}')).toBe('0 1');
	});
});

describe('a low open-files limit', () => {
	const eighty = tasksJson(...Array.from({length: 80}, (_, index) => ({goal: `task ${index + 1}`})));

	it('runs -j 80 under `ulimit -n 256` with fewer at once and a warning, never crashing', async () => {
		const test = home();
		const tasks = test.write('tasks.json', eighty);
		const result = await execa('sh', ['-c', 'ulimit -n 256 && exec "$@"', 'sh', process.execPath, cliPath, 'run', tasks, '-j', '80', '--hermes-bin', trivialAgent], {env: cliEnv(test), reject: false});
		const report = JSON.parse(result.stdout) as BatchReport;

		expect(result.stderr).not.toMatch(/internal error/);
		expect(result.exitCode).toBe(0);
		expect(report.summary).toBe('80/80 tasks succeeded');
		expect(result.stderr).toMatch(/warning: running \d+ tasks at once instead of 80: the open-files limit \(ulimit -n\) is 256/);
		expect(report.warnings.join('\n')).toMatch(/instead of 80/);
	});

	it('raises the soft limit toward the hard one when it can, and then runs all 80 at once', async () => {
		const test = home();
		const tasks = test.write('tasks.json', eighty);
		const result = await execa('sh', ['-c', 'ulimit -Sn 256 && ulimit -Hn 4096 && exec "$@"', 'sh', process.execPath, cliPath, 'run', tasks, '-j', '80', '--dry-run'], {env: cliEnv(test), reject: false});

		expect(result.exitCode).toBe(0);
		expect(JSON.parse(result.stdout)).toMatchObject({concurrency: 80, warnings: []});
	});

	it('refuses up front (exit 2) when not even one task fits', async () => {
		const test = home();
		const result = await execa('sh', ['-c', 'ulimit -n 40 && exec "$@"', 'sh', process.execPath, cliPath, 'run', tasksJson({goal: 'one'}), '--hermes-bin', trivialAgent], {env: {...cliEnv(test), FAKE_HERMES_ARGV_FILE: test.argvFile}, reject: false});

		expect(result.exitCode).toBe(2);
		expect(result.stderr).toMatch(/the open-files limit \(ulimit -n\) is 40, too low to run even one task/);
		expect(test.runs()).toEqual([]);
	});
});

describe('the log limit', () => {
	it('--log-limit cuts a flooding task\'s log, and the result says so', async () => {
		const test = home();
		const result = await runCli(test, ['run', tasksJson({goal: 'floods', context: '[fake:bytes=1048576] [fake:line-bytes=64]'}), '--log-limit', '64KiB']);
		const report = JSON.parse(result.stdout) as BatchReport;
		const log = readFileSync(report.results[0]!.log!, 'utf8');

		expect(result.exitCode).toBe(0);
		expect(report.results[0]!.warnings).toEqual([expect.stringMatching(/^log cut at its limit of 64 KiB: 960 KiB of output were dropped/)]);
		expect(log).toContain(`[hermes-delegate: ${1_048_576 - 65_536} bytes of output dropped here`);
		expect(Buffer.byteLength(log)).toBeLessThan(65_536 + 200);
		expect(readdirSync(path.dirname(report.results[0]!.log!))).toEqual(['t01.log']);
	});

	it('a log limit without a unit below 64 KiB is refused as the typo it is', async () => {
		const test = home();
		const result = await runCli(test, ['run', tasksJson({goal: 'never runs'}), '--log-limit', '512']);

		expect(result.exitCode).toBe(2);
		expect(result.stderr).toMatch(/--log-limit: log limit 512 bytes is below the minimum of 64 KiB\n {2}fix: add the unit, e\.g\. "512MB"/);
		expect(test.agentRuns()).toEqual([]);
	});
});
