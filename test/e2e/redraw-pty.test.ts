// Ctrl-L redraws the whole screen. The frame writer sends only the cells that changed, so what
// another program writes to the terminal (a `wall` message) stays on a still dashboard until those
// cells change; Ctrl-L paints every row again. The message is written to the pane's terminal
// device itself, as wall does, beside the dashboard: the dashboard never sees it.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {cliPath, makeHome, runCli, tasksJson} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';

describe('Ctrl-L', () => {
	it('paints the dashboard whole again over what another program wrote on it', async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const ran = await runCli(test, ['run', tasksJson(
			{name: 'lookup', goal: 'Answer at once', context: '[fake:duration=0] [fake:tools=3]'},
			{name: 'second', goal: 'Say the second thing', context: '[fake:duration=0]'},
		)]);
		expect(ran.exitCode, ran.stderr).toBe(0);
		// A finished run: nothing on its screen changes by itself, so nothing else repaints it.
		const screen = startTmux([process.execPath, cliPath, 'attach', test.runs()[0]!], {columns: 120, rows: 40, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
		onTestFinished(() => screen.kill());
		const whole = await screen.waitForScreen(current => ['read-only', 'Fake answer: Answer at once', 't02 second'].every(text => current.includes(text)), {message: 'the finished run, its panes filled'});

		// As wall writes: on whatever line the cursor is, with line feeds that scroll the screen.
		writeFileSync(screen.display('#{pane_tty}').trim(), '\r\nBroadcast message from root@host\r\n\r\nthe system is going down\r\n');
		const spoilt = await screen.waitForScreen(/the system is going down/, {message: 'the message over the dashboard'});
		expect(spoilt).not.toBe(whole);

		screen.sendKeys('C-l');
		const again = await screen.waitForScreen(text => !text.includes('Broadcast message'), {message: 'the dashboard redrawn'});
		expect(again).toBe(whole);
		screen.sendKeys('q');
		expect((await screen.waitForExit()).code).toBe(0);
	});
});
