// Ctrl-L redraws the whole screen. The frame writer sends only the cells that changed, so what
// another program writes to the terminal (a `wall` message) stays on a still dashboard until those
// cells change; Ctrl-L paints every row again. The message is written to the pane's terminal
// device itself, as wall does, beside the dashboard: the dashboard never sees it.
import {writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {attachRun, finishedRun} from '../helpers/finished-run.js';

describe('Ctrl-L', () => {
	it('paints the dashboard whole again over what another program wrote on it', async () => {
		// A finished run: nothing on its screen changes by itself, so nothing else repaints it.
		const {test, runId} = await finishedRun();
		const screen = attachRun(test, runId);
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
