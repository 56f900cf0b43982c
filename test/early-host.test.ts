// Which command lines get a runner host started before the CLI loads (src/early-host.ts): exactly
// those that will start a batch under one. A wrong yes costs a host that ends unused; a wrong no,
// the overlap. The names it shares with wire/launch.ts must stay the same.
import {describe, expect, it} from 'vitest';
import {earlyHostCommand, earlyStatusFd, wantsHost} from '../src/early-host.js';
import {hostCommandName, statusFd} from '../src/wire/launch.js';

describe('the runner host started early', () => {
	it('is wanted by tui, demo and run --detach, wherever the options sit', () => {
		for (const args of [['tui', 'tasks.json'], ['demo'], ['run', '--detach', 'tasks.json'], ['run', 'tasks.json', '--detach'], ['--no-color', 'tui'], ['tui', '--', '--detach']]) {
			expect(wantsHost(args), args.join(' ')).toBe(true);
		}
	});

	it('is not wanted by run without --detach, by other commands, or when --detach is only an argument after --', () => {
		for (const args of [['run', 'tasks.json'], ['run', '--', '--detach'], ['attach'], ['ls', '--detach'], ['mcp'], [], ['--version']]) {
			expect(wantsHost(args), args.join(' ')).toBe(false);
		}
	});

	it('starts the host as client/launch.ts does: the same hidden command and status pipe', () => {
		expect(earlyHostCommand).toBe(hostCommandName);
		expect(earlyStatusFd).toBe(statusFd);
	});
});
