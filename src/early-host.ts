// The runner host for `tui`, `demo` and `run --detach`, started by bin.ts before the CLI loads:
// the host's own Node start and the loading of its bundle then overlap the foreground's (commander,
// the commands and, for the dashboard, Ink), instead of following them. It waits on its stdin for
// the batch (client/launch.ts adopts it, commands/start-host.ts hands the batch over) and reads
// nothing of it before, so what it plans is exactly what a host started later would. A foreground
// that never hands it a batch (a bad flag, --help) ends, its stdin closes, and it ends having
// started nothing. Only node: imports here: bin.ts loads this before the Node version's check has
// let it load the rest.
import {spawn, type ChildProcess} from 'node:child_process';
import type {Socket} from 'node:net';

/** As wire/launch.ts's hostCommandName and statusFd (a test holds them equal): that module loads zod. */
export const earlyHostCommand = '__host';
export const earlyStatusFd = 3;

let early: ChildProcess | undefined;

/** `tui`, `demo`, or `run` with `--detach` (as commander will read it: options may come anywhere before `--`). */
export function wantsHost(args: readonly string[]): boolean {
	const end = args.indexOf('--');
	const words = end === -1 ? args : args.slice(0, end);
	const command = words.find(word => !word.startsWith('-'));
	return command === 'tui' || command === 'demo' || (command === 'run' && words.includes('--detach'));
}

/** Starts the host (detached: a session of its own), held by nothing until a foreground adopts it. */
export function startEarlyHost(entry: string): void {
	const child = spawn(process.execPath, [...process.execArgv, entry, earlyHostCommand], {
		detached: true,
		stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
		env: process.env,
	});
	child.on('error', () => undefined);
	child.stdin!.on('error', () => undefined);
	// Until adopted, it must not keep this process alive: a foreground that ends without it ends.
	child.unref();
	(child.stdin as Socket).unref();
	(child.stdio[earlyStatusFd] as Socket).unref();
	early = child;
}

/** The host bin.ts started, once: the first foreground that asks gets it. */
export function takeEarlyHost(): ChildProcess | undefined {
	const child = early;
	early = undefined;
	return child;
}
