// The dashboard as a client of a runner host (`tui`, `demo` and `attach` all end up here): the
// store is rebuilt from the host's snapshot and fed by its events; every intent goes back over
// the socket. The batch lives in the host, so what ends this process decides nothing about it:
// - q → y (the cascade prompt while tasks run; q alone once nothing runs) and Ctrl-C/SIGINT/SIGTERM
//   stop the batch through the host, and the results are printed as before, once the host has
//   written them; a quit then waits for the host's last write (leaveHost);
// - SIGHUP, the terminal gone (EIO on write), or detach() leave it running (detach): exit 0;
// - the host gone before the batch finished (killed with SIGKILL) ends the dashboard with a
//   message that names `ls` and `gc`.
import {exitCodes} from '../core/errors.js';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';
import {exitCodeOf} from '../core/run/results.js';
import type {Theme} from '../core/theme/themes.js';
import type {BatchReport} from '../core/types.js';
import {storeFromSnapshot} from '../client/attach-store.js';
import type {BatchConnection} from '../client/connection.js';
import {attachCommandFor} from '../client/live-runs.js';
import {feedStore} from '../state/feed.js';
import type {BatchStore} from '../state/store-types.js';
import type {Bindings} from '../ui/keys/keys.js';
import type {CommandIO} from './io.js';
import {mountDashboard, type DashboardIO} from './mount-dashboard.js';

export type DashboardEnd =
	| {kind: 'finished'; report: BatchReport; stoppedFromOutside: boolean}
	| {kind: 'detached'; terminalGone: boolean}
	| {kind: 'lost'; reason: string};


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

	const mount = mountDashboard(store, io, {theme: options.theme, bindings: options.bindings, mouse: options.mouse, runId: connection.snapshot.runId, onStopSignal: stop, onTerminalGone: () => detach(true)});
	void untilExit(store, options.exitWhenDone).then(report => settle({kind: 'finished', report, stoppedFromOutside}));
	const stopWatchingDetach = store.subscribe(state => {
		if (state.detachRequested) detach(false);
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
		stopWatchingDetach();
		stopConfig();
		stopFeed();
		await mount.unmount(terminalGone);
		if (end === undefined) connection.close();
	}

	// The terminal's keys are read a moment longer after a quit, so that the y of an operator who
	// pressed q then y (the batch finished while the finger moved: q quit at once, without the
	// question) is swallowed here instead of landing in the shell.
	const swallowed = end.kind === 'finished' ? mount.swallowStrayKeys() : undefined;
	await leaveHost(connection, end, io, options.hostExited);
	await swallowed;
	return end;
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
