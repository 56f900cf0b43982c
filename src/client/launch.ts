// Starting a runner host from the operator's terminal (wire/launch.ts says what passes between the
// two and why the host prepares the batch itself). The host can be started ahead of its batch
// (spawnHost, then launch): Node's start and the loading of the bundle, most of what the foreground
// waits for, are then behind it; the host reads nothing of the batch until its spec comes, so
// what it plans is the config and the binary as they are at launch.
import {spawn, type ChildProcess} from 'node:child_process';
import type {Socket} from 'node:net';
import type {Readable} from 'node:stream';
import {hostCommandName, statusFd, statusSchema, type HostReady, type HostRefused, type HostSpec} from '../wire/launch.js';

export type Launched = (HostReady & {exited: Promise<string>}) | HostRefused;

/** A runner host that has been started and waits on its stdin for the batch it is to run. */
export type PendingHost = {
	/** False once the process has ended (or could not start): a spec sent to it would be lost. */
	alive(): boolean;
	/** Hands over the batch; resolves with the host's one status line. Once per host. */
	launch(spec: HostSpec): Promise<Launched>;
	/** Not wanted after all: its stdin is closed, and a host that got no spec ends by itself. */
	discard(): void;
};

/**
 * Spawns a runner host. It is detached (setsid: its own session and process group), so the
 * terminal's SIGHUP and Ctrl-C never reach it.
 */
export function spawnHost(options: {env: NodeJS.ProcessEnv; entry?: string}): PendingHost {
	const entry = options.entry ?? process.argv[1];
	if (entry === undefined) throw new Error('cannot tell which script to start the runner host from (process.argv[1] is unset)');
	return adoptHost(spawn(process.execPath, [...process.execArgv, entry, hostCommandName], {
		detached: true,
		stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
		env: options.env,
	}));
}

/** A host process spawned as spawnHost does (src/early-host.ts starts one before the CLI loads). */
export function adoptHost(child: ChildProcess): PendingHost {
	let ended = child.exitCode !== null || child.signalCode !== null;
	const exited = new Promise<string>(resolve => {
		if (ended) resolve(child.signalCode ? `killed by ${child.signalCode}` : `exit code ${child.exitCode ?? '?'}`);
		child.once('exit', (code, signal) => {
			ended = true;
			resolve(signal ? `killed by ${signal}` : `exit code ${code ?? '?'}`);
		});
		child.once('error', error => {
			ended = true;
			resolve(error.message);
		});
	});
	// The host may refuse before it read everything (a bad flag): a broken pipe here is no error.
	child.stdin!.on('error', () => undefined);
	return {
		alive: () => !ended,
		async launch(spec) {
			// Held again while the host is waited for (an early host was let go of: early-host.ts).
			child.ref();
			(child.stdio[statusFd] as Socket).ref();
			return handOver(child, spec, exited);
		},
		discard() {
			child.stdin!.end();
			(child.stdio[statusFd] as Readable).destroy();
			child.unref();
		},
	};
}

/** Spawns the runner host for `spec` and resolves with its one status line. */
export async function launchHost(spec: HostSpec, options: {env: NodeJS.ProcessEnv; entry?: string}): Promise<Launched> {
	return spawnHost(options).launch(spec);
}

async function handOver(child: ChildProcess, spec: HostSpec, exited: Promise<string>): Promise<Launched> {
	const statusPipe = child.stdio[statusFd] as Readable;
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
