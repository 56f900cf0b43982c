// The foreground's half of starting a batch under a runner host (`tui`, `demo`, `run --detach`):
// it reads the tasks from stdin when they come from there (the host has no stdin of the
// operator's), launches the host (client/launch.ts) and either returns where it serves the batch or
// prints the host's refusal exactly as the in-process command would have, with its exit code.
import {adoptHost, launchHost} from '../client/launch.js';
import {takeEarlyHost} from '../early-host.js';
import type {HostCommand, HostReady} from '../wire/launch.js';
import type {BatchOptions} from './flags.js';
import type {CommandIO} from './io.js';

/** `hostExited`: the host process has ended (this process started it, and reaps it). */
export type Started = {ready: HostReady; hostExited: Promise<string>} | {exitCode: number};

export async function startUnderHost(command: HostCommand, taskArg: string | undefined, options: BatchOptions & Record<string, unknown>, io: CommandIO): Promise<Started> {
	const demoTasks = (command === 'demo' || options.demo === true) && taskArg === undefined;
	const fromStdin = !demoTasks && !io.stdinIsTTY && (taskArg === undefined || taskArg === '-');
	const stdin = fromStdin ? await io.readStdin() : null;
	const plainOptions = Object.fromEntries(Object.entries(options).filter((entry): entry is [string, string | boolean] => typeof entry[1] === 'string' || typeof entry[1] === 'boolean'));
	const spec = {command, taskArg, options: plainOptions, stdinIsTTY: io.stdinIsTTY, stdin, color: io.color};
	// The host bin.ts started before the CLI loaded (src/early-host.ts), when it is still there; its
	// env is the process's, which is what cli.ts gives io.env.
	const early = takeEarlyHost();
	const adopted = early === undefined ? undefined : adoptHost(early);
	const status = adopted?.alive() ? await adopted.launch(spec) : await launchHost(spec, {env: io.env});
	if (status.type === 'refused') {
		io.stderr.write(status.message);
		return {exitCode: status.exitCode};
	}

	const {exited, ...ready} = status;
	return {ready, hostExited: exited};
}
