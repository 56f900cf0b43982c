// A HERMES_HOME the runs cannot be written in: a read-only file system (a real read-only tmpfs,
// mounted in a private mount namespace through `unshare -rm`) or a file where a folder should be.
// Exit 2, the folder and the real reason named, the fix given, no stack trace, nothing started.
import {execFileSync, spawnSync} from 'node:child_process';
import {chmodSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {cliForUser} from '../helpers/cli-for-user.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, runCli, tasksJson} from '../helpers/run-cli.js';

function canRun(file: string, args: string[]): boolean {
	try {
		execFileSync(file, args, {stdio: 'ignore'});
		return true;
	} catch {
		return false;
	}
}

const canUnshare = () => canRun('unshare', ['-rm', 'true']);

const oneTask = tasksJson({goal: 'Say hi', context: '[fake:duration=0.1]'});

describe('an unwritable HERMES_HOME', () => {
	it.runIf(canUnshare())('on a read-only file system: exit 2 naming the folder, EROFS and the fix', () => {
		const home = makeHome(undefined);
		onTestFinished(() => home.remove());
		const readOnly = path.join(home.dir, 'ro');
		home.write('ro/.keep', '');
		const script = 'mount -t tmpfs -o ro tmpfs "$1" && shift && exec "$@"';
		const run = spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', readOnly, process.execPath, cliPath, 'run', oneTask, '--hermes-bin', fakeAgentPath], {
			env: {...process.env, HERMES_HOME: readOnly, FAKE_HERMES_ARGV_FILE: home.argvFile, NO_COLOR: '1'},
			encoding: 'utf8',
		});
		expect(run.status).toBe(2);
		expect(run.stderr).toContain(`cannot create the folder ${path.join(readOnly, 'delegate')}: the file system is read-only`);
		expect(run.stderr).toContain('fix: ');
		expect(run.stderr).toContain('HERMES_HOME');
		expect(run.stderr).not.toContain('ENOENT');
		expect(run.stderr).not.toMatch(/\n\s+at /);
		expect(home.agentRuns()).toEqual([]);
	});

	// As root every folder is writable: the command runs as nobody (setpriv) in a folder of root's.
	it.runIf(process.getuid?.() === 0 && canRun('setpriv', ['--version']))('without permission: exit 2 naming the folder, EACCES and the fix', () => {
		const home = makeHome(undefined);
		onTestFinished(() => home.remove());
		const shared = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-shared-'));
		onTestFinished(() => rmSync(shared, {recursive: true, force: true}));
		chmodSync(shared, 0o755);
		const forNobody = cliForUser(65534);
		onTestFinished(() => forNobody.remove());
		const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, forNobody.cli, 'run', oneTask, '--hermes-bin', forNobody.fakeAgent], {
			env: {...process.env, HERMES_HOME: shared, FAKE_HERMES_ARGV_FILE: home.argvFile, NO_COLOR: '1'},
			encoding: 'utf8',
		});
		expect(run.status, run.stderr).toBe(2);
		expect(run.stderr).toContain(`cannot create the folder ${path.join(shared, 'delegate')}: no permission to write there (EACCES)`);
		expect(run.stderr).toContain('point HERMES_HOME at a writable folder');
		expect(run.stderr).not.toMatch(/\n\s+at /);
		expect(home.agentRuns()).toEqual([]);
	});

	it('below a file: exit 2 naming the folder and the fix', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const file = home.write('not-a-folder', 'x');
		const run = await runCli(home, ['run', oneTask], {env: {HERMES_HOME: path.join(file, 'home')}});
		expect(run.exitCode).toBe(2);
		// The first thing read below HERMES_HOME is its config.yaml: that read names the problem.
		expect(run.stderr).toContain(`${path.join(file, 'home', 'config.yaml')}: cannot be read: a part of its path is a file, not a folder`);
		expect(run.stderr).toContain('fix: check HERMES_HOME');
		expect(run.stderr).not.toMatch(/\n\s+at /);
		expect(home.agentRuns()).toEqual([]);
	});

	// Node's recursive mkdir never returns there: the command hung before it said anything.
	it('under /proc: exit 2 naming the folder and the fix', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const procHome = `/proc/hermes-delegate-test-${process.pid}`;
		const run = await runCli(home, ['run', oneTask], {env: {HERMES_HOME: procHome}, killAfterMs: 30_000});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain(`cannot create the folder ${procHome}: the file system there does not take new folders (ENOENT)`);
		expect(run.stderr).toContain('point HERMES_HOME at a writable folder');
		expect(home.agentRuns()).toEqual([]);
	});

	it('the probe cache under /proc costs only the cache: the batch runs', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const run = await runCli(home, ['run', oneTask], {env: {XDG_CACHE_HOME: `/proc/hermes-delegate-test-${process.pid}`}, killAfterMs: 30_000});
		expect(run.exitCode, run.stderr).toBe(0);
		expect(JSON.parse(run.stdout)).toMatchObject({summary: '1/1 tasks succeeded'});
	});

	it('the demo, with TMPDIR below a file: exit 2 naming the folder and TMPDIR', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const file = home.write('not-a-folder', 'x');
		const run = await runCli(home, ['run', '--demo', '--dry-run'], {env: {TMPDIR: path.join(file, 'tmp')}});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain(`cannot create the folder ${path.join(file, 'tmp')}: a file stands where a folder is needed`);
		expect(run.stderr).toContain('fix: point TMPDIR at a writable temporary folder');
		expect(run.stderr).not.toMatch(/\n\s+at /);
	});
});
