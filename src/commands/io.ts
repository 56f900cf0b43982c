// What every subcommand is handed to talk to the world (CommandIO), and the care its output
// streams need: a reader that goes away (EPIPE under `| head`) must not crash us, and a slow
// reader must get every byte before process.exit().
import {decodeUtf8, inputLimits, readBoundedStream} from '../core/text/read-text.js';

export type PrepareContext = {
	env: NodeJS.ProcessEnv;
	stdinIsTTY: boolean;
	readStdin(): Promise<string>;
	/** How long the demo's runaway may run before its timeout stops it (none: until cancelled or quit). */
	demoRunawaySeconds?: number;
};

export type CommandIO = PrepareContext & {
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	color: boolean;
};

export type Output = {write(text: string): void; readonly closed: boolean};

/** Streams whose command acts on a reader going away itself (guardOutput with onClosed: `run` stops its batch). */
const handledByCommand = new WeakSet<NodeJS.WritableStream>();

/** For a command that acts on a closed output itself (the dashboard leaves its host when its terminal goes): endQuietlyWhenClosed leaves it be. */
export function handlesClosedOutput(stream: NodeJS.WritableStream): void {
	handledByCommand.add(stream);
}

/** What a process killed by SIGPIPE exits with (128 + 13), as `yes | head -1` leaves `yes`: the output was cut short. */
export const closedOutputExitCode = 141;

/**
 * Installed once by cli.ts: a reader that goes away (`ls | true`, `wait --jsonl | head -1`) ends
 * the command at once and quietly, with no stack trace, unless the command acts on it itself.
 * A closed stderr is ignored: there is nowhere left to say anything.
 */
export function endQuietlyWhenClosed(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream, exit: (code: number) => void): void {
	stdout.on('error', () => {
		if (!handledByCommand.has(stdout)) {
			exit(closedOutputExitCode);
		}
	});
	stderr.on('error', () => undefined);
}

/**
 * A stream whose reader may go away (EPIPE under `| head`): its first error is reported once
 * and every later write is dropped, so it never ends the process with an unhandled 'error'.
 */
export function guardOutput(stream: NodeJS.WriteStream, onClosed?: (why: string) => void, clean: (text: string) => string = text => text): Output {
	let closed = false;
	const close = (error: NodeJS.ErrnoException) => {
		if (!closed) {
			closed = true;
			onClosed?.(error.code ?? error.message);
		}
	};

	// Never removed: the error of the very last write can arrive after the command has returned.
	stream.on('error', close);
	if (onClosed) {
		handlesClosedOutput(stream);
	}

	return {
		write(text) {
			if (closed) {
				return;
			}

			stream.write(clean(text));
			// A pipe write fails at once, but 'error' comes a tick later: by then the runner could
			// have started the next queued task. Acting now makes the stop exact.
			if (stream.errored) {
				close(stream.errored);
			}
		},
		get closed() {
			return closed;
		},
	};
}

/**
 * Resolves when `stream` has taken what was written to it: at its next 'drain' (`until: 'drain'`)
 * or once every write queued so far has completed (`until: 'flushed'`). A reader that went away
 * ('error', 'close') ends the wait too: what is left can never be delivered.
 */
export async function streamSettled(stream: NodeJS.WritableStream, until: 'drain' | 'flushed'): Promise<void> {
	await new Promise<void>(resolve => {
		const done = () => {
			stream.off('drain', done);
			stream.off('error', done);
			stream.off('close', done);
			resolve();
		};

		if (until === 'drain') stream.once('drain', done);
		stream.once('error', done);
		stream.once('close', done);
		// An empty write completes after every write queued before it.
		if (until === 'flushed') stream.write('', () => done());
	});
}

// Writes to a pipe are asynchronous: what the reader has not taken yet waits in our process.
// process.exit() would throw it away (a slow `| wc -c` got 64 KiB of a 228 KB report), so the
// CLI waits here until every byte written so far has been handed to the kernel.

/** Resolves once everything written to `stream` so far is flushed, or the stream has failed. */
export async function flushed(stream: NodeJS.WritableStream & {writableLength?: number; destroyed?: boolean}): Promise<void> {
	if (stream.destroyed || (stream.writableLength ?? 0) === 0) {
		return;
	}

	await streamSettled(stream, 'flushed');
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
	return decodeUtf8(await readBoundedStream(stream, inputLimits.tasks, '<stdin>'), '<stdin>');
}
