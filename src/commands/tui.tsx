// `hermes-delegate tui` (and `demo`): the same preparation and runner as `run`, with the
// dashboard on top. The runner feeds the store; the Ink app reads it and sends intents back.
import {openSync} from 'node:fs';
import {ReadStream} from 'node:tty';
import {render} from 'ink';
import {exitCodes, InputError} from '../core/errors.js';
import {exitCodeOf} from '../core/results.js';
import {loadTheme, ThemeError} from '../core/themes.js';
import {runnerControl} from '../state/control.js';
import {feedStore} from '../state/feed.js';
import {createBatchStore, type BatchStore} from '../state/store.js';
import {App} from '../ui/App.js';
import {KeyBindingError, resolveBindings} from '../ui/keys.js';
import {createRunner, prepareBatch, type BatchOptions} from './prepare.js';
import type {CommandIO} from './run.js';
import {onShutdownSignals} from './signals.js';
import {allWarnings} from '../core/routing.js';
import {terminalSafe} from '../core/visible-text.js';

export type TuiOptions = BatchOptions & {theme?: string; exitWhenDone?: boolean};

export async function tuiCommand(taskArg: string | undefined, options: TuiOptions, io: CommandIO & {stdin: NodeJS.ReadStream}): Promise<number> {
	if (!io.stdout.isTTY) {
		throw new InputError('the dashboard needs a terminal, but stdout is not one', {}, 'use `hermes-delegate run` for scripts and pipes: it prints JSON');
	}

	const batch = await prepareBatch(taskArg, options, {...io, stdinIsTTY: io.stdin.isTTY ?? false});
	const theme = asInputError(() => loadTheme(options.theme ?? batch.settings.theme, {noColor: !io.color}));
	const bindings = asInputError(() => resolveBindings(batch.settings.keys));
	const {runner, folder} = createRunner(batch, {display: true});
	const store = createBatchStore({control: runnerControl(runner), plan: batch.plan, runId: folder.runId, runDir: folder.dir, concurrency: batch.concurrency, graceMs: batch.graceMs});
	const stopFeed = feedStore(store, runner);
	// Stopped from outside (a signal, the terminal gone) rather than by the operator's q or by the
	// batch finishing: the demo keeps exit code 130 for that (see demoExitCode).
	let stoppedFromOutside = false;
	const stopSignals = onShutdownSignals(shutdown => {
		stoppedFromOutside = true;
		store.setState({quitting: true});
		runner.shutdown(shutdown);
	});

	// The alternate screen keeps the operator's scrollback intact and gives the frame a fixed canvas.
	io.stdout.write('\u001B[?1049h\u001B[H');
	const keyboard = keyboardStream(io.stdin);
	// The terminal went away (window closed, ssh dropped): Ink's next write fails with EIO. As for
	// SIGHUP, every task gets the cascade and the results are written; nothing may crash here.
	const terminalGone = () => {
		stoppedFromOutside = true;
		store.setState({quitting: true});
		runner.shutdown({skipGrace: false});
	};

	io.stdout.on('error', terminalGone);
	keyboard.on('error', terminalGone);
	const app = render(<App store={store} theme={theme} bindings={bindings}/>, {stdout: io.stdout, stdin: keyboard, exitOnCtrlC: false, patchConsole: true, maxFps: 20});
	const finished = runner.start();
	let report;
	try {
		await untilExit(store, options.exitWhenDone ?? false);
		report = await finished;
	} finally {
		stopFeed();
		stopSignals();
		app.unmount();
		await app.waitUntilExit().catch(() => undefined);
		io.stdout.write('\u001B[?1049l');
		if (keyboard !== io.stdin) {
			keyboard.destroy();
		}
	}

	for (const warning of allWarnings(batch.plan)) {
		io.stderr.write(`hermes-delegate: warning: ${terminalSafe(warning)}\n`);
	}

	io.stdout.write(`${report.summary}\nresults: ${report.results_file}\n`);
	return options.demo ? demoExitCode(report, stoppedFromOutside) : exitCodeOf(report);
}

/**
 * The demo's failures are staged (a failing task, a runaway, a refused route) and quitting it is
 * how it ends, so a demo that ran as designed exits 0: `npm run demo` then ends without npm's
 * error block, and `npm run demo && npm test` goes on. A signal from outside still exits 130.
 * `run --demo` keeps the honest codes (1 for the staged failures): scripts check those.
 */
function demoExitCode(report: Parameters<typeof exitCodeOf>[0], stoppedFromOutside: boolean): number {
	return stoppedFromOutside ? exitCodeOf(report) : exitCodes.ok;
}

/** Tasks piped in on stdin leave the keyboard on the controlling terminal: read keys from there. */
function keyboardStream(stdin: NodeJS.ReadStream): NodeJS.ReadStream {
	if (stdin.isTTY) {
		return stdin;
	}

	try {
		return new ReadStream(openSync('/dev/tty', 'r')) as NodeJS.ReadStream;
	} catch {
		return stdin; // no controlling terminal: the dashboard runs without keys (q via signals)
	}
}

function untilExit(store: BatchStore, exitWhenDone: boolean): Promise<void> {
	return new Promise(resolve => {
		const check = () => {
			const state = store.getState();
			if (state.report && (state.exitRequested || exitWhenDone)) {
				unsubscribe();
				resolve();
			}
		};

		const unsubscribe = store.subscribe(check);
		check();
	});
}

function asInputError<T>(load: () => T): T {
	try {
		return load();
	} catch (error) {
		if (error instanceof ThemeError || error instanceof KeyBindingError) {
			throw new InputError(error.message);
		}

		throw error;
	}
}
