// HERMES_HOME is text from outside like any other: a home named with an OSC (`$'/tmp/e\e]0;HT\a'`)
// would retitle the window from every path printed under it. And JSON on stdout escapes every
// control character, C1 included, as `run` does.
import {mkdirSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, modelMapConfig, runCli, tasksJson} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

/** Anything a terminal acts on: C0 except newline, DEL, C1. */
const control = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;
const retitle = '\u001B]0;HT\u0007';

function hostileHome() {
	const test = makeHome();
	onTestFinished(() => test.remove());
	const dir = path.join(test.dir, `e${retitle}`);
	mkdirSync(dir);
	test.write(path.join(dir, 'config.yaml'), modelMapConfig);
	return {test, dir, env: {HERMES_HOME: dir}};
}

describe('text from outside on stdout', () => {
	it('logs (the listing) prints paths under a hostile HERMES_HOME sanitised', async () => {
		const {test, env} = hostileHome();
		const ran = await runCli(test, ['run', tasksJson({goal: 'Say hi', context: '[fake:duration=0.05]'})], {env});
		expect(ran.exitCode).toBe(0);
		const listed = await runCli(test, ['logs'], {env});
		expect(listed.exitCode).toBe(0);
		expect(listed.stdout).toContain('t01');
		expect(listed.stdout).toContain('/e/delegate/runs/'); // the OSC is dropped whole, the rest of the path kept
		expect(listed.stdout).not.toMatch(control);
	});

	// A route name with a control in it is refused (config/route-name.ts), and the refusal quotes it:
	// that quoted name must still reach stdout escaped, not raw.
	it('doctor --json escapes a C1 control from a route name as \\u, keeping the data', async () => {
		const test = makeHome(modelMapConfig.replace('name: deep', 'name: "de\\x9bep"'));
		onTestFinished(() => test.remove());
		const result = await runCli(test, ['doctor', '--json', '--hermes-bin', fakeAgentPath]);
		expect(result.stdout).not.toMatch(control);
		expect(result.stdout).toContain('de\\u009bep');
		const report = JSON.parse(result.stdout) as {findings: Array<{topic: string; message: string}>};
		expect(report.findings.some(finding => finding.message.includes('"de\u009Bep" is not a valid route name'))).toBe(true);
	});

	it('tui\'s exit line does not retitle the window from a hostile HERMES_HOME', async () => {
		const {test, dir} = hostileHome();
		const file = test.write('tasks.json', tasksJson({goal: 'Say hi', name: 'greeter', context: '[fake:duration=0.05]'}));
		const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath], {env: {HERMES_HOME: dir, NO_COLOR: '1'}});
		onTestFinished(() => screen.kill());
		const before = screen.display('#{pane_title}');
		await screen.waitForScreen(/t01 greeter +✓ succeeded/, {message: 'the task to succeed'});
		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(/^results: .*results\.json$/m);
		expect(screen.display('#{pane_title}')).toBe(before);
	});
});
