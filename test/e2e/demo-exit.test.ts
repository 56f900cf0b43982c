// The demo's exit code: quitting it is how it ends and its failures are staged, so it exits 0
// (test/e2e/dashboard-pty.test.ts quits it with q → y). Stopped from outside by a signal, it
// exits 130 like any interrupted batch: something other than the operator ended it.
import {existsSync, mkdirSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {demoHomePath} from '../../src/core/input/demo.js';
import {signalGroup} from '../../src/core/process/group.js';
import type {BatchReport} from '../../src/core/types.js';
import {cliPath, makeHome, recordedGroups} from '../helpers/run-cli.js';
import {startTmux} from '../helpers/tmux.js';
import {waitFor} from '../helpers/wait-for.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe('the demo', () => {
	it('exits 130 when a signal stops it, and says the batch was interrupted', async () => {
		const test = makeHome();
		cleanups.push(() => test.remove());
		// The demo keeps its HERMES_HOME in the temp dir: point that into the test's home.
		const tmp = path.join(test.dir, 'tmp');
		mkdirSync(tmp);
		const runs = path.join(demoHomePath({}, tmp), 'delegate', 'runs');
		cleanups.push(() => {
			for (const run of existsSync(runs) ? readdirSync(runs) : []) {
				for (const pgid of recordedGroups(path.join(runs, run))) signalGroup(pgid, 'SIGKILL');
			}
		});
		const pidFile = path.join(test.dir, 'cli.pid');
		const screen = startTmux(['/bin/sh', '-c', 'echo $$ > "$0"; exec "$@"', pidFile, process.execPath, cliPath, 'demo'], {env: {TMPDIR: tmp}});
		cleanups.push(() => screen.kill());

		await screen.waitForScreen(/t08 turbo-route +⊖ refused/, {message: 'the demo dashboard'});
		process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
		const exit = await screen.waitForExit({timeoutMs: 30_000});

		expect(exit.code).toBe(130);
		const file = /^results: (.+results\.json)$/m.exec(exit.screen)?.[1];
		expect(file, exit.screen).toBeDefined();
		await waitFor(() => existsSync(file!), {message: 'results.json'});
		expect((JSON.parse(readFileSync(file!, 'utf8')) as BatchReport).interrupted).toBe(true);
	});
});
