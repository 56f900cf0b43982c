// `hermes-delegate tui` (and `demo`): the same preparation and runner as `run`, with the
// dashboard on top. The runner feeds the store; the Ink app reads it and sends intents back.
import {openSync, writeSync} from 'node:fs';
import {ReadStream} from 'node:tty';
import {render} from 'ink';
import {exitCodes, InputError} from '../core/errors.js';
import {exitCodeOf} from '../core/run/results.js';
import type {BatchRunner} from '../core/run/runner.js';
import {loadTheme} from '../core/theme/themes.js';
import {runnerControl} from '../state/control.js';
import {feedStore} from '../state/feed.js';
import {createBatchStore} from '../state/store.js';
import type {BatchStore} from '../state/store-types.js';
import {App} from '../ui/App.js';
import {reportZeroSizeAsFallback} from '../ui/hooks/use-terminal-size.js';
import {resolveBindings} from '../ui/keys/keys.js';
import {agentNiceOption, type TuiOptions} from './flags.js';
import type {CommandIO} from './io.js';
import {createRunner, prepareBatch, withCleanup} from './prepare.js';
import {onShutdownSignals} from './signals.js';
import {BatchSteering} from '../core/config/steering.js';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';

export async function tuiCommand(taskArg: string | undefined, options: TuiOptions, io: CommandIO & {stdin: NodeJS.ReadStream}): Promise<number> {
	const agentNice = agentNiceOption(options.agentNice);
	if (!io.stdout.isTTY) {
		throw new InputError('the dashboard needs a terminal, but stdout is not one', {}, 'use `hermes-delegate run` for scripts and pipes: it prints JSON');
	}

	const batch = await prepareBatch(taskArg, options, {...io, stdinIsTTY: io.stdin.isTTY ?? false});
	const theme = loadTheme(options.theme ?? batch.settings.theme, {noColor: !io.color});
	const bindings = resolveBindings(batch.settings.keys);
	// Signals are ours before the run folder exists (see run.ts): a signal in between would kill us
	// and leave the folder empty. Handlers run on the event loop, when both are set.
	let runner: BatchRunner | undefined;
	let store: BatchStore | undefined;
	// Stopped from outside (a signal, the terminal gone) rather than by the operator's q or by the
	// batch finishing: the demo keeps exit code 130 for that (see demoExitCode).
	let stoppedFromOutside = false;
	const stopSignals = onShutdownSignals(shutdown => {
		stoppedFromOutside = true;
		store?.setState({quitting: true});
		runner?.shutdown(shutdown);
	});
	// The operator still looks at the failed pane after the last task ended: R there re-opens the batch.
	const created = withCleanup(() => createRunner(batch, {display: true, retryAfterFinish: true, agentNice}), stopSignals);
	runner = created.runner;
	const {folder} = created;
	const steering = new BatchSteering(batch.config, {runDir: folder.dir, applyRouting: delegation => created.runner.applyRouting(delegation)});
	store = createBatchStore({control: runnerControl(runner, steering), plan: batch.plan, runId: folder.runId, runDir: folder.dir, concurrency: batch.concurrency, graceMs: batch.graceMs});
	const stopFeed = feedStore(store, runner);
	// Someone else editing config.yaml meanwhile: the routes and the queue follow it.
	// An outside edit that cannot be used marks the header (⚠) until the file is usable again.
	const stopWatching = steering.watch(outcome => store?.getState().configChanged(outcome));

	const leaveAlternateScreen = enterAlternateScreen(io.stdout);
	const keyboard = keyboardStream(io.stdin);
	// The terminal went away (window closed, ssh dropped): Ink's next write fails with EIO. As for
	// SIGHUP, every task gets the cascade and the results are written; nothing may crash here.
	const terminalGone = () => {
		stoppedFromOutside = true;
		store?.setState({quitting: true});
		runner?.shutdown({skipGrace: false});
	};

	io.stdout.on('error', terminalGone);
	keyboard.on('error', terminalGone);
	// maxFps 250: frames are paced by the store (output is published a dozen times a second), so
	// this only lets a key's frame out without waiting for Ink's throttle: at 60 a key that came
	// just after an output frame waited up to 16 ms for the next, and under a flood that was much
	// of the keys' p95 (bench/RESULTS.md, session 14). Ink's
	// incrementalRendering is left off: it left stale lines on screen when the routes editor
	// changed the screen's layout (steer-pty test).
	reportZeroSizeAsFallback(io.stdout);
	const app = render(<App store={store} theme={theme} bindings={bindings}/>, {stdout: io.stdout, stdin: keyboard, exitOnCtrlC: false, patchConsole: true, maxFps: 250});
	const finished = runner.start();
	let report;
	try {
		// A run that cannot start (its plan cannot be written) ends the dashboard at once.
		await Promise.race([untilExit(store, options.exitWhenDone ?? false), finished.then(async () => new Promise<never>(() => undefined))]);
		// Not start()'s report: R after the finish re-opens the batch, and the exit waits for that
		// round (quitting stops it with the cascade) and takes its report, written to results.json.
		report = await runner.whenSettled();
	} finally {
		stopWatching();
		stopFeed();
		stopSignals();
		app.unmount();
		await app.waitUntilExit().catch(() => undefined);
		leaveAlternateScreen();
		if (keyboard !== io.stdin) {
			keyboard.destroy();
		}
	}

	if (report.results_error) {
		// Nowhere else holds them: the results go to the terminal, whole, before the warnings that say why.
		io.stdout.write(`${jsonText(report, 2)}\n`);
	}

	// The batch's warnings, then what happened to single tasks (a log cut or incomplete), which the
	// dashboard had no room for: the operator reads them once the screen is theirs again.
	const taskNotes = report.results.flatMap(result => (result.warnings ?? []).filter(warning => !report.warnings.includes(warning)).map(warning => `${result.id}: ${warning}`));
	for (const warning of [...report.warnings, ...taskNotes]) {
		io.stderr.write(`hermes-delegate: warning: ${terminalSafe(warning)}\n`);
	}

	// results_file starts with HERMES_HOME, which may hold an escape sequence.
	io.stdout.write(terminalSafe(report.results_error ? `${report.summary}\n` : `${report.summary}\nresults: ${report.results_file}\n`));
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

/**
 * The alternate screen keeps the operator's scrollback intact and gives the frame a fixed canvas.
 * Bracketed paste (?2004) makes the terminal mark a paste, so that it is read as text and never
 * as keys (ui/keys/paste-reader.ts). Whatever ends the process while they are on (an error nobody
 * expected included) turns both off, with the cursor shown, through a synchronous write on exit:
 * an asynchronous one would never flush, and a shell left in bracketed paste gets the markers.
 */
function enterAlternateScreen(stdout: NodeJS.WriteStream): () => void {
	const leave = '\u001B[?2004l\u001B[?25h\u001B[?1049l';
	const {fd} = stdout as Partial<{fd: number}>;
	const onExit = () => {
		try {
			if (fd !== undefined) writeSync(fd, leave);
		} catch {
			// The terminal is gone: nothing left to restore.
		}
	};

	stdout.write('\u001B[?1049h\u001B[H\u001B[?2004h');
	process.on('exit', onExit);
	return () => {
		process.off('exit', onExit);
		stdout.write(leave);
	};
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

/**
 * Resolves once the batch has finished (no retry running: R after the finish clears the report
 * until its round ends) and the operator asked to leave, or a signal did (quitting), or
 * --exit-when-done said to leave at the first finish.
 */
function untilExit(store: BatchStore, exitWhenDone: boolean): Promise<void> {
	return new Promise(resolve => {
		const check = () => {
			const state = store.getState();
			if (state.report && (state.exitRequested || state.quitting || exitWhenDone)) {
				unsubscribe();
				resolve();
			}
		};

		const unsubscribe = store.subscribe(check);
		check();
	});
}
