// A terminal that reports 0 columns and 0 rows (script -qfc, some CI ptys): Ink asked for the size
// on every frame through a package that opens /dev/tty and never closes it, so the dashboard leaked
// one descriptor per frame until spawning a task failed with EMFILE.
import {spawn} from 'node:child_process';
import {existsSync, readdirSync, readlinkSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {readProcStat} from '../../src/core/process/proc-tree.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {shellQuote} from '../helpers/tmux.js';
import {waitFor} from '../helpers/wait-for.js';

// Synchronized-output end: Ink closes every frame with it.
const frameEnd = '\u001B[?2026l';

function openTtyDescriptors(pid: number): number {
	let count = 0;
	for (const fd of readdirSync(`/proc/${pid}/fd`)) {
		try {
			if (readlinkSync(`/proc/${pid}/fd/${fd}`) === '/dev/tty') count++;
		} catch {} // closed between listing and reading
	}

	return count;
}

/** The dashboard's node process: the one child of the shell that script started (exec'd in place). */
function findCli(scriptPid: number): number | undefined {
	for (const entry of readdirSync('/proc')) {
		const stat = /^\d+$/.test(entry) ? readProcStat(entry) : undefined;
		if (stat?.ppid === scriptPid) return stat.pid;
	}

	return undefined;
}

describe.skipIf(!existsSync('/usr/bin/script') || !existsSync('/proc/self/fd'))('the dashboard on a zero-size terminal', () => {
	it('does not open /dev/tty once per frame', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const doneFile = path.join(home.dir, 'done');
		const tasks = tasksJson({goal: 'Busy', context: `[fake:until-file=${doneFile}] [fake:answer=done]`});
		const command = ['node', cliPath, 'tui', tasks, '--hermes-bin', fakeAgentPath].map(shellQuote).join(' ');
		const script = spawn('script', ['-qfc', `stty rows 0 cols 0; exec ${command}`, '/dev/null'], {
			env: {...process.env, HERMES_HOME: home.dir, TMPDIR: home.dir, XDG_CACHE_HOME: path.join(home.dir, '.cache'), NO_COLOR: '1'},
			stdio: ['pipe', 'pipe', 'pipe'],
			detached: true,
		});
		onTestFinished(() => {
			try {
				process.kill(-script.pid!, 'SIGKILL');
			} catch {}
		});
		let screen = '';
		script.stdout.on('data', (chunk: Buffer) => {
			screen += chunk.toString('utf8');
		});

		let cli: number | undefined;
		await waitFor(() => (cli = findCli(script.pid!)) !== undefined, {message: 'the dashboard to start under script'});
		// The running task's clock redraws the dashboard: wait for a dozen frames.
		await waitFor(() => screen.split(frameEnd).length > 12, {message: 'a dozen frames', timeoutMs: 30_000});
		expect(openTtyDescriptors(cli!)).toBeLessThanOrEqual(1);
	});
});
