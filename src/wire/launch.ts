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
	/** Who started the batch, when not the operator at a terminal: the MCP client's name (`ls` shows it). */
	origin?: string | undefined;
};

export const hostSpecSchema = z.object({
	command: z.enum(['tui', 'demo', 'run']),
	taskArg: z.string().optional(),
	options: z.record(z.string(), z.union([z.string(), z.boolean()])),
	stdinIsTTY: z.boolean(),
	stdin: z.string().nullable(),
	color: z.boolean(),
	origin: z.string().max(200).optional(),
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

export const statusSchema = z.discriminatedUnion('type', [
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
