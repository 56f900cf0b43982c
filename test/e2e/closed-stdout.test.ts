// A reader that goes away (`ls | true`, `| head -1`) ends every command quietly:
// no unhandled EPIPE and its stack trace, and no command left following output
// that nobody reads.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makeHome, runCli, runCliIntoClosedPipe, tasksJson, type TestHome} from '../helpers/run-cli.js';

let home: TestHome;
let live: string;

beforeAll(async () => {
	home = makeHome();
	const detached = await runCli(home, ['run', '--detach', tasksJson({goal: 'Run until stopped', name: 'forever', context: '[fake:forever]'})]);
	expect(detached.exitCode).toBe(0);
	live = detached.stdout.trim();
});

afterAll(() => home.remove());

describe('a closed stdout', () => {
	// These write and then go on (following a live run): before, they never ended, or crashed.
	it.each([['logs', 'RUN', 't01', '--follow'], ['wait', 'RUN', '--jsonl']])('ends `%s %s %s %s` at once, quietly', async (...args) => {
		const {exitCode, stderr} = await runCliIntoClosedPipe(home, args.map(arg => (arg === 'RUN' ? live : arg)));
		expect(stderr).toBe('');
		// As a process killed by SIGPIPE (`yes | head -1`): the output was cut short.
		expect(exitCode).toBe(141);
	});

	it.each([['ls'], ['ls', '--json'], ['logs'], ['spend'], ['config', 'show'], ['--help']])('ends `%s` quietly', async (...args) => {
		const {exitCode, stderr} = await runCliIntoClosedPipe(home, args);
		expect(stderr).toBe('');
		// 0 when the command had finished before the error came.
		expect([0, 141]).toContain(exitCode);
	});
});
