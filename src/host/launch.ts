// Starting a runner host from the operator's terminal, and the two messages that pass between them.
//
// Why the host prepares the batch itself, not the foreground: the host must own the run folder
// (owner.json names its pid, so `gc` and `ls` judge the host, not a dashboard that may come and
// go), and a batch prepared twice would read stdin twice and probe Hermes twice. So the foreground
// spawns the host (this same CLI, hidden `__host` command, same env and cwd) in a session of its
// own, hands it what it was asked (command, tasks argument, options, the tasks read from stdin) on
// the host's stdin, and waits on a pipe (fd 3) for one line: `ready` (run id, folder, socket) or
// `refused` (today's message and exit code, which the foreground prints and exits with: bad input
// still exits 2 with nothing started). After that line the host holds no pipe to the foreground:
// its stdout and stderr are /dev/null from the start (a pipe would fail with EPIPE once the
// terminal went), and what it has to say goes to host.log in the run folder.
import {spawn} from 'node:child_process';
import {closeSync, writeSync} from 'node:fs';
import type {Readable} from 'node:stream';
import {z} from 'zod';

export type HostCommand = 'tui' | 'demo' | 'run';

/** What the foreground was asked: the host prepares the batch from exactly this. */
export type HostSpec = {
	command: HostCommand;
	taskArg: string | undefined;
	/** The command's parsed options (strings and booleans, as commander gave them). */
	options: Record<string, string | boolean>;
	stdinIsTTY: boolean;
	/** The tasks the foreground read from its stdin (`-`, or none given and stdin piped); null otherwise. */
	stdin: string | null;
	/** False under NO_COLOR: the host checks the dashboard's theme as the dashboard will load it. */
	color: boolean;
};

export const hostSpecSchema = z.object({
	command: z.enum(['tui', 'demo', 'run']),
	taskArg: z.string().optional(),
	options: z.record(z.string(), z.union([z.string(), z.boolean()])),
	stdinIsTTY: z.boolean(),
	stdin: z.string().nullable(),
	color: z.boolean(),
});

export type HostReady = {
	type: 'ready';
	runId: string;
	runDir: string;
	socket: string;
	hermesHome: string;
	/** What `run` prints on stderr before it starts (the binary's problem, the plan's warnings). */
	warnings: string[];
	/** delegate.yaml's dashboard settings, so that the dashboard looks as it did before the host. */
	theme: string | null;
	keys: Record<string, string[]>;
};

export type HostRefused = {type: 'refused'; message: string; exitCode: number};

const statusSchema = z.discriminatedUnion('type', [
	z.object({
		type: z.literal('ready'),
		runId: z.string(),
		runDir: z.string(),
		socket: z.string(),
		hermesHome: z.string(),
		warnings: z.array(z.string()),
		theme: z.string().nullable(),
		keys: z.record(z.string(), z.array(z.string())),
	}),
	z.object({type: z.literal('refused'), message: z.string(), exitCode: z.number().int()}),
]);

/** The hidden command that runs a host (cli.ts); never typed by the operator. */
export const hostCommandName = '__host';
/** The host's end of the status pipe. */
export const statusFd = 3;

/**
 * Spawns the runner host for `spec` and resolves with its one status line. The host is detached
 * (setsid: its own session and process group), so the terminal's SIGHUP and Ctrl-C never reach it.
 */
export async function launchHost(spec: HostSpec, options: {env: NodeJS.ProcessEnv; entry?: string}): Promise<(HostReady & {exited: Promise<string>}) | HostRefused> {
	const entry = options.entry ?? process.argv[1];
	if (entry === undefined) throw new Error('cannot tell which script to start the runner host from (process.argv[1] is unset)');
	const child = spawn(process.execPath, [...process.execArgv, entry, hostCommandName], {
		detached: true,
		stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
		env: options.env,
	});
	const statusPipe = child.stdio[statusFd] as Readable;
	const exited = new Promise<string>(resolve => {
		child.once('exit', (code, signal) => resolve(signal ? `killed by ${signal}` : `exit code ${code ?? '?'}`));
		child.once('error', error => resolve(error.message));
	});
	// The host may refuse before it read everything (a bad flag): a broken pipe here is no error.
	child.stdin!.on('error', () => undefined);
	child.stdin!.end(JSON.stringify(spec));
	// Ctrl-C while the batch is prepared: the host is in a session of its own and would never hear
	// of it, so it is passed on (the host then refuses with 130, or stops the batch it has started).
	const forward = (signal: NodeJS.Signals) => {
		child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
	};

	const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const signal of signals) process.on(signal, forward);
	try {
		const line = await Promise.race([firstLine(statusPipe), exited.then(why => {
			throw new Error(`the runner host ended before it was ready (${why})`);
		})]);
		const status = statusSchema.parse(JSON.parse(line));
		// `exited`: a dashboard that quits waits for it (this process is the host's parent: waiting reaps it).
		return status.type === 'ready' ? {...status, exited} : status;
	} finally {
		for (const signal of signals) process.off(signal, forward);
		statusPipe.destroy();
		child.unref();
	}
}

async function firstLine(stream: Readable): Promise<string> {
	let text = '';
	for await (const chunk of stream) {
		text += String(chunk);
		const end = text.indexOf('\n');
		if (end !== -1) return text.slice(0, end);
	}

	// The pipe closed without a line: the exit (raced against this) says why.
	return new Promise<never>(() => undefined);
}

/** The host's side: its one status line, then the pipe is closed (the foreground may be gone already). */
export function tellLauncher(status: HostReady | HostRefused): void {
	try {
		writeSync(statusFd, `${JSON.stringify(status)}\n`);
		closeSync(statusFd);
	} catch {
		// Nobody waits any more (the foreground was killed): the batch runs on all the same.
	}
}
