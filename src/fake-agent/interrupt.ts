// How Hermes ends on SIGTERM and SIGINT in `chat -q` mode. Its signal handler asks the agent to
// stop, waits a grace period (1.5 s, ~2 s observed), then raises KeyboardInterrupt. Observed on
// 0.19.0 and 0.20.0 (SIGTERM from a parent, 2-core machine):
// - while the agent starts up, the KeyboardInterrupt escapes: a Python traceback on stderr, and the
//   process dies BY SIGINT (the fake's default, delay [fake:term-delay=SECONDS], 0.2 s by default);
// - during the conversation, -Q catches it: `session_id: …` on stderr and exit(130), no signal
//   ([fake:term-exit] does that; stream-json then also writes a result with exit_code 130).
// [fake:ignore-term] is a test device: a process that ignores SIGTERM, which Hermes never is.
import {dirname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {setTimeout as sleep} from 'node:timers/promises';
import type {Directives} from './directives.js';

// Python's traceback layout (frames, the 3.11 caret line under a call, `KeyboardInterrupt` last) is
// what a reader of the log recognises; the frames themselves are invented, naming the fake's own
// files and made-up functions, so none of Hermes's source is quoted here.
function traceback(): string {
	const home = dirname(fileURLToPath(import.meta.url));
	return [
		'Traceback (most recent call last):',
		`  File "${home}/hermes.js", line 1, in <module>`,
		'    exit_code = run_fake_chat(argv)',
		'                ^^^^^^^^^^^^^^^^^^^',
		`  File "${home}/hermes.js", line 2, in run_fake_chat`,
		'    wait_for_reply(command)',
		`  File "${home}/interrupt.js", line 3, in stop_on_signal`,
		'    raise KeyboardInterrupt',
		'KeyboardInterrupt',
		'',
	].join('\n');
}

/** Installs the handlers; `exitQuietly` writes what Hermes writes when it catches the interrupt. */
export function handleInterrupts(directives: Directives, exitQuietly: () => Promise<void>): void {
	const delayMs = directives.number('term-delay', 0.2) * 1000;
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		await sleep(delayMs);
		if (directives.has('term-exit')) {
			await exitQuietly();
			process.exit(130);
		}

		process.stderr.write(traceback());
		// With no listener left, Node restores SIGINT's default action: we die by it, as Python does.
		process.removeAllListeners('SIGINT');
		process.kill(process.pid, 'SIGINT');
	};

	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => {
		if (directives.has('ignore-term')) {
			process.stderr.write('ignoring SIGTERM\n');
			return;
		}

		void stop();
	});
}
