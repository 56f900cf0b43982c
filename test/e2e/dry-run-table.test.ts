// `run --dry-run` in a real terminal prints a table (one line per task), not pages of JSON; piped
// or with --json it prints the JSON scripts read.
import {describe, expect, it, onTestFinished} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, runCli, tasksJson} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

const tasks = tasksJson(
	{goal: 'Design the cache layer', name: 'cache-design', option: 'deep'},
	{goal: 'Look up the capital of France'},
	{goal: 'Never runs', option: 'no-such-route'},
);

describe('run --dry-run', () => {
	it('on a terminal: a heading and one line per task with its route, model and reason', async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const file = test.write('tasks.json', tasks);
		const screen = startTmux([process.execPath, cliPath, 'run', '--dry-run', file, '--hermes-bin', fakeAgentPath], {env: {HERMES_HOME: test.dir, TMPDIR: test.dir, NO_COLOR: '1'}, columns: 150});
		onTestFinished(() => screen.kill());
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(/^id +name +route +model +reason +warnings$/m);
		expect(exit.screen).toMatch(/^t01 +cache-design +deep +claude-opus-5 \(anthropic\) +named by task\.option/m);
		// A long name is cut to its column, with an ellipsis.
		expect(exit.screen).toMatch(/^t02 +Look up the capital of … +fast +google\/gemini-3-flash-preview \(openrouter\) +characteristic quick/m);
		expect(exit.screen).toMatch(/^t03 +Never runs +refused +option "no-such-route" is not in model_map/m);
		expect(exit.screen).not.toContain('"argv"');
	});

	it('--json on a terminal, and any pipe: the JSON plan', async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const piped = await runCli(test, ['run', '--dry-run', tasks]);
		expect((JSON.parse(piped.stdout) as {tasks: unknown[]}).tasks).toHaveLength(3);
		const file = test.write('tasks.json', tasks);
		const screen = startTmux([process.execPath, cliPath, 'run', '--dry-run', '--json', file, '--hermes-bin', fakeAgentPath], {env: {HERMES_HOME: test.dir, TMPDIR: test.dir, NO_COLOR: '1'}});
		onTestFinished(() => screen.kill());
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		expect(exit.screen).toContain('"argv": [');
	});
});
