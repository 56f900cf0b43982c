// A run of the fake agent that has finished, and `attach` opened on it in tmux: what the e2e
// tests of a finished run's dashboard start from. Two tasks: `lookup` (three tool lines, then its
// answer) and `second`, both done at once.
import path from 'node:path';
import {expect, onTestFinished} from 'vitest';
import {cliPath, makeHome, runCli, tasksJson, type TestHome} from './run-cli.js';
import {startTmux, type TmuxSession} from './tmux.js';

/** A home with one finished run of two tasks, removed when the test ends. */
export async function finishedRun(): Promise<{test: TestHome; runId: string}> {
	const test = makeHome();
	onTestFinished(() => test.remove());
	const ran = await runCli(test, ['run', tasksJson(
		{name: 'lookup', goal: 'Answer at once', context: '[fake:duration=0] [fake:tools=3]'},
		{name: 'second', goal: 'Say the second thing', context: '[fake:duration=0]'},
	)]);
	expect(ran.exitCode, ran.stderr).toBe(0);
	return {test, runId: test.runs()[0]!};
}

/** The environment the CLI runs in against this home, in tmux, plus `env`. */
export function attachEnv(test: TestHome, env: Record<string, string> = {}): Record<string, string> {
	return {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache'), ...env};
}

/** `attach RUN` in a 120×40 tmux pane, killed when the test ends. */
export function attachRun(test: TestHome, runId: string, env: Record<string, string> = {}): TmuxSession {
	const screen = startTmux([process.execPath, cliPath, 'attach', runId], {columns: 120, rows: 40, env: attachEnv(test, env)});
	onTestFinished(() => screen.kill());
	return screen;
}
