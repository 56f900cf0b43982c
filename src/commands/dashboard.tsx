// The dashboard as a client of a runner host (`tui`, `demo` and `attach` all end up here): the
// store is rebuilt from the host's snapshot and fed by its events; every intent goes back over
// the socket. The batch lives in the host, so what ends this process decides nothing about it:
// - q → y (the cascade prompt while tasks run; q alone once nothing runs) and Ctrl-C/SIGINT/SIGTERM
//   stop the batch through the host, and the results are printed as before, once the host has
//   written them; a quit then waits for the host's last write (leaveHost);
// - SIGHUP, the terminal gone (EIO on write), or detach() leave it running (detach): exit 0;
// - the host gone before the batch finished (killed with SIGKILL) ends the dashboard with a
//   message that names `ls` and `gc`.
import {render} from 'ink';
import {exitCodes} from '../core/errors.js';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';
import {exitCodeOf} from '../core/run/results.js';
import type {Theme} from '../core/theme/themes.js';
import type {BatchReport} from '../core/types.js';
import {storeFromSnapshot} from '../client/attach-store.js';
import type {BatchConnection} from '../client/connection.js';
import {feedStore} from '../state/feed.js';
import type {BatchStore} from '../state/store-types.js';
import {App} from '../ui/App.js';
import {reportZeroSizeAsFallback} from '../ui/hooks/use-terminal-size.js';
import {inkStdout} from '../ui/terminal/diff-writer.js';
import type {Bindings} from '../ui/keys/keys.js';
import {attachCommandFor} from '../client/live-runs.js';
import {handlesClosedOutput, type CommandIO} from './io.js';
import {showLogInPager} from './pager.js';
import {enterAlternateScreen, keyboardStream} from './terminal-modes.js';

export type DashboardEnd =
	| {kind: 'finished'; report: BatchReport; stoppedFromOutside: boolean}
	| {kind: 'detached'; terminalGone: boolean}
	| {kind: 'lost'; reason: string};

export type DashboardIO = Pick<CommandIO, 'stdout' | 'stderr'> & {stdin: NodeJS.ReadStream; env?: NodeJS.ProcessEnv};

export type DashboardOptions = {
	theme: Theme;
	bindings: Bindings;
	exitWhenDone: boolean;
	/** Mouse reporting (clicks, the wheel): on unless --no-mouse or delegate.yaml `mouse: false`. */
	mouse: boolean;
	/** The runner host's exit, when this process started it (tui, demo): a quit waits for it too. */
	hostExited?: Promise<unknown>;
};

export async function showDashboard(connection: BatchConnection, io: DashboardIO, options: DashboardOptions): Promise<DashboardEnd> {
	const store = storeFromSnapshot(connection);
	// d (and the quit question's third answer) can leave the batch running: it is the host's.
	store.setState({canDetach: true});
	const stopFeed = feedStore(store, connection.source);
	// Someone else editing config.yaml meanwhile: the host re-plans and tells every client.
	const stopConfig = connection.onConfig(outcome => store.getState().configChanged(outcome));
	let settle: (end: DashboardEnd) => void = () => undefined;
	const ended = new Promise<DashboardEnd>(resolve => {
		settle = resolve;
	});
	let stoppedFromOutside = false;
	let terminalGone = false;
	const detach = (gone: boolean) => {
		terminalGone ||= gone;
		settle({kind: 'detached', terminalGone});
	};

	// A second signal skips the grace period, as signals.ts does for the in-process runner.
	let stopSignalsReceived = 0;
	const stop = () => {
		stopSignalsReceived++;
		stoppedFromOutside = true;
		store.setState({quitting: true});
		// A host that is gone already cannot be asked: connection.closed ends the dashboard then.
		void (async () => connection.control.shutdown({skipGrace: stopSignalsReceived > 1}))().catch(() => undefined);
	};

	const hangUp = () => detach(true);
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	process.on('SIGHUP', hangUp);

	let leaveAlternateScreen = enterAlternateScreen(io.stdout, options.mouse);
	const keyboard = keyboardStream(io.stdin);
	// The terminal went away (window closed, ssh dropped): Ink's next write fails with EIO. The
	// batch is the host's: this client just leaves, and nothing may crash here.
	io.stdout.on('error', hangUp);
	// Its own goodbye first: cli.ts's quiet exit on a closed stdout would cut it short.
	handlesClosedOutput(io.stdout);
	keyboard.on('error', hangUp);
	reportZeroSizeAsFallback(io.stdout);
	// Frames reach the terminal as the cells that changed (ui/terminal/diff-writer.ts), not through
	// Ink's incrementalRendering, which left stale lines when the layout changed (steer-pty test).
	// maxFps 250: see bench/RESULTS.md (2026-12-01, 1c331ad).
	let terminal = inkStdout(io.stdout);
	const draw = () => render(<App store={store} theme={options.theme} bindings={options.bindings} mouse={options.mouse}/>, {stdout: terminal.stream, stdin: keyboard, exitOnCtrlC: false, patchConsole: true, maxFps: 250});
	let app = draw();
	// o: the terminal goes to the pager, then comes back with the dashboard drawn afresh. Ctrl+C
	// in the pager is the pager's (less stops a search with it): the terminal sends SIGINT to this
	// process too, which must not stop the batch meanwhile (git ignores it while its pager runs too).
	const ignore = () => undefined;
	let paging = false;
	const handover = {
		async suspend() {
			process.on('SIGINT', ignore);
			process.off('SIGINT', stop);
			app.unmount();
			await app.waitUntilExit().catch(() => undefined);
			keyboard.pause();
			leaveAlternateScreen();
		},
		resume() {
			leaveAlternateScreen = enterAlternateScreen(io.stdout, options.mouse);
			// The screen the frame writer remembers is the pager's now: the first frame is drawn whole.
			terminal.dispose();
			terminal = inkStdout(io.stdout);
			app = draw();
			process.on('SIGINT', stop);
			process.off('SIGINT', ignore);
		},
	};
	let paged = store.getState().pager?.serial ?? 0;
	void untilExit(store, options.exitWhenDone).then(report => settle({kind: 'finished', report, stoppedFromOutside}));
	let copied = store.getState().clipboard?.serial ?? 0;
	const stopWatchingDetach = store.subscribe(state => {
		if (state.detachRequested) detach(false);
		// y: OSC 52 to the terminal, which moves nothing on screen (the notice says where else the text is).
		if (state.clipboard && state.clipboard.serial !== copied) {
			copied = state.clipboard.serial;
			io.stdout.write(osc52(state.clipboard.text));
		}

		if (state.pager && state.pager.serial !== paged) {
			paged = state.pager.serial;
			const {taskId} = state.pager;
			if (!paging) {
				paging = true;
				void showLogInPager(connection.snapshot.runId, taskId, io.env ?? process.env, handover).then(notice => {
					paging = false;
					store.setState({notice});
				});
			}
		}
	});
	void connection.closed.then(({reason}) => {
		const {report} = store.getState();
		// The host's last word was the report (SIGTERM: cascade, results, then it closes): that is an end like any other.
		settle(report ? {kind: 'finished', report, stoppedFromOutside: true} : {kind: 'lost', reason});
	});
	let end: DashboardEnd | undefined;
	try {
		end = await ended;
	} finally {
		process.off('SIGINT', stop);
		process.off('SIGINT', ignore);
		process.off('SIGTERM', stop);
		process.off('SIGHUP', hangUp);
		stopWatchingDetach();
		stopConfig();
		stopFeed();
		app.unmount();
		await app.waitUntilExit().catch(() => undefined);
		terminal.dispose();
		if (!terminalGone) leaveAlternateScreen();
		if (keyboard !== io.stdin) keyboard.destroy();
		if (end === undefined) connection.close();
	}

	// The terminal's keys are read a moment longer after a quit, so that the y of an operator who
	// pressed q then y (the batch finished while the finger moved: q quit at once, without the
	// question) is swallowed here instead of landing in the shell.
	const swallowed = end.kind === 'finished' && keyboard === io.stdin && keyboard.isTTY ? swallowStrayKeys(keyboard, strayKeysMs) : undefined;
	await leaveHost(connection, end, io, options.hostExited);
	await swallowed;
	return end;
}

/** The terminal's "set the clipboard" sequence: the text as base64, so nothing in it can act on the terminal. */
export function osc52(text: string): string {
	return `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}

/** How long after the dashboard is gone keys are still read and dropped: a finger's q-then-y, not a new command. */
export const strayKeysMs = 400;

export async function swallowStrayKeys(keyboard: NodeJS.ReadStream, ms: number): Promise<void> {
	const drop = () => undefined;
	try {
		keyboard.setRawMode(true);
		keyboard.on('data', drop);
		keyboard.resume();
		await new Promise(resolve => {
			setTimeout(resolve, ms);
		});
	} catch {
		// A terminal gone meanwhile: nothing to swallow.
	} finally {
		keyboard.off('data', drop);
		keyboard.pause();
		try {
			keyboard.setRawMode(false);
		} catch {}
	}
}

/** Past this, a dashboard still waiting for its host says so (the host is slow, or stuck). */
const leaveNoticeMs = 1000;
/** Past this, it stops waiting: the host normally lets a client go within milliseconds. */
const leaveTimeoutMs = 10_000;

/**
 * The dashboard's goodbye: a `detach` message that says why it leaves, then (the host ending
 * because it left) the host's last word, so that after a quit nothing more is written to the run
 * folder once this process has exited; the host's exit too when this process started it.
 */
async function leaveHost(connection: BatchConnection, end: DashboardEnd, io: Pick<DashboardIO, 'stderr'>, hostExited: Promise<unknown> | undefined): Promise<void> {
	if (end.kind === 'lost') {
		connection.close();
		return;
	}

	const reason = end.kind === 'finished' ? 'quit' : end.terminalGone ? 'terminal-gone' : 'detach';
	const canSay = end.kind === 'finished' || !end.terminalGone;
	const notice = setTimeout(() => {
		if (canSay) io.stderr.write(`hermes-delegate: waiting for the runner host of run ${connection.snapshot.runId} to write its last and end…\n`);
	}, leaveNoticeMs);
	try {
		const left = await connection.leave(reason, {timeoutMs: leaveTimeoutMs});
		// Nothing else may hold the event loop here (the host's child handle is unref'd): the timer does.
		let timer: NodeJS.Timeout | undefined;
		if (left.hostEnds && hostExited) await Promise.race([hostExited, new Promise(resolve => {
			timer = setTimeout(resolve, leaveTimeoutMs);
		})]);
		clearTimeout(timer);
		if (left.timedOut && canSay) io.stderr.write(`hermes-delegate: the runner host of run ${connection.snapshot.runId} did not answer within ${leaveTimeoutMs / 1000} s: \`hermes-delegate ls\` shows whether it still runs; its host.log is in ${terminalSafe(connection.snapshot.runDir)}\n`);
	} finally {
		clearTimeout(notice);
	}
}

/** What the operator reads once the screen is theirs again; the exit code `tui` and `attach` return. */
export function reportDashboardEnd(end: DashboardEnd, run: {runId: string}, io: Pick<CommandIO, 'stdout' | 'stderr'>, options: {demo: boolean}): number {
	if (end.kind === 'detached') {
		if (!end.terminalGone) io.stdout.write(`detached: run ${run.runId} runs on; come back with: ${attachCommandFor(run.runId)}\n`);
		return exitCodes.ok;
	}

	if (end.kind === 'lost') {
		io.stderr.write(`hermes-delegate: the runner host of run ${run.runId} went away before the batch finished (${terminalSafe(end.reason)}): \`hermes-delegate ls\` shows the run; \`hermes-delegate gc\` ends what it left running\n`);
		return exitCodes.taskFailed;
	}

	const {report} = end;
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
	return options.demo ? demoExitCode(report, end.stoppedFromOutside) : exitCodeOf(report);
}

/**
 * The demo's failures are staged (a failing task, a runaway, a refused route) and quitting it is
 * how it ends, so a demo that ran as designed exits 0: `npm run demo` then ends without npm's
 * error block, and `npm run demo && npm test` goes on. A signal from outside still exits 130.
 * `run --demo` keeps the honest codes (1 for the staged failures): scripts check those.
 */
function demoExitCode(report: BatchReport, stoppedFromOutside: boolean): number {
	return stoppedFromOutside ? exitCodeOf(report) : exitCodes.ok;
}

/**
 * Resolves with the report once the batch has finished (no retry running: R after the finish
 * clears the report until its round ends) and the operator asked to leave, or a signal did
 * (quitting), or --exit-when-done said to leave at the first finish.
 */
async function untilExit(store: BatchStore, exitWhenDone: boolean): Promise<BatchReport> {
	return new Promise(resolve => {
		const check = () => {
			const state = store.getState();
			if (state.report && (state.exitRequested || state.quitting || exitWhenDone)) {
				unsubscribe();
				resolve(state.report);
			}
		};

		const unsubscribe = store.subscribe(check);
		check();
	});
}
