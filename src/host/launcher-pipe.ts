// The host's end of the launch (wire/launch.ts): the one status line the foreground waits for.
import {closeSync, writeSync} from 'node:fs';
import {statusFd, type HostReady, type HostRefused} from '../wire/launch.js';

/** The host's side: its one status line, then the pipe is closed (the foreground may be gone already). */
export function tellLauncher(status: HostReady | HostRefused): void {
	try {
		writeSync(statusFd, `${JSON.stringify(status)}\n`);
		closeSync(statusFd);
	} catch {
		// Nobody waits any more (the foreground was killed): the batch runs on all the same.
	}
}
