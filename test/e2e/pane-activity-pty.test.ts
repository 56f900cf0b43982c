// The pane's "last output … ago · last tool call … ago" in a real terminal (tmux), in a dashboard
// attached to a runner host: the times are the host's, so a dashboard that attaches to a task
// quiet for seconds shows those seconds at once, not a clock that starts at its own attach.
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {cliPath, makeHome, runCli, tasksJson} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

describe('the pane\'s activity line in a real terminal', () => {
	it('counts the quiet of a running task, and a dashboard attached later shows the same quiet at once', async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const go = path.join(test.dir, 'go');
		const detached = await runCli(test, ['run', '--detach', tasksJson({name: 'hung', goal: 'Wait on a slow provider', context: `[fake:steps=1] [fake:duration=1000] [fake:until-file=${go}]`})]);
		expect(detached.exitCode, detached.stderr).toBe(0);
		const runId = detached.stdout.trim();
		const attach = () => {
			const screen = startTmux([process.execPath, cliPath, 'attach', runId], {columns: 120, rows: 30, env: {HERMES_HOME: test.dir, TMPDIR: test.dir}});
			onTestFinished(() => screen.kill());
			return screen;
		};

		const first = attach();
		const quiet = /last output (\d+)s ago · last tool call (\d+)s ago/;
		// Both clocks: the fake's tool call can come a moment after its last output.
		await first.waitForScreen(screen => {
			const [, output = -1, tool = -1] = quiet.exec(screen) ?? [];
			return Number(output) >= 4 && Number(tool) >= 4;
		}, {message: 'four seconds of quiet on the pane, since output and since the tool call', timeoutMs: 30_000});
		first.sendKeys('d');
		await first.waitForExit();

		const second = attach();
		const shown = await second.waitForScreen(quiet, {message: 'the activity line in the second dashboard'});
		const [, output, tool] = quiet.exec(shown)!;
		expect(Number(output)).toBeGreaterThanOrEqual(4);
		expect(Number(tool)).toBeGreaterThanOrEqual(4);
		second.sendKeys('d');
		test.write('go', '');
		const waited = await runCli(test, ['wait', runId]);
		expect(waited.exitCode, waited.stderr).toBe(0);
	});
});
