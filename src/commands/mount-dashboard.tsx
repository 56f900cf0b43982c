// The dashboard on the terminal, for a live run (dashboard.tsx) and a finished one
// (finished-dashboard.tsx) alike: the signals, the alternate screen and its modes, the keyboard,
// the frame writer, Ink, and what the store asks of the terminal (y: the clipboard, o: the pager).
// Each command says only what a signal, or the terminal going away, means to it.
import {render, type Instance} from 'ink';
import type {Theme} from '../core/theme/themes.js';
import type {BatchStore} from '../state/store-types.js';
import {App} from '../ui/App.js';
import {reportZeroSizeAsFallback} from '../ui/hooks/use-terminal-size.js';
import type {Bindings} from '../ui/keys/keys.js';
import {inkStdout} from '../ui/terminal/diff-writer.js';
import {handlesClosedOutput, type CommandIO} from './io.js';
import {showLogInPager, type TerminalHandover} from './pager.js';
import {enterAlternateScreen, keyboardStream} from './terminal-modes.js';

export type DashboardIO = Pick<CommandIO, 'stdout' | 'stderr'> & {stdin: NodeJS.ReadStream; env?: NodeJS.ProcessEnv};

export type MountOptions = {
	theme: Theme;
	bindings: Bindings;
	/** Mouse reporting (clicks, the wheel): on unless --no-mouse or delegate.yaml `mouse: false`. */
	mouse: boolean;
	/** The run whose task logs `o` opens. */
	runId: string;
	/** SIGINT and SIGTERM; SIGINT not while the pager has the terminal. */
	onStopSignal: () => void;
	/** SIGHUP, or the terminal gone (a write fails with EIO, the keyboard errors): nothing more may be written to it. */
	onTerminalGone: () => void;
};

export type MountedDashboard = {
	/** Takes the dashboard off the terminal and every handler with it; `terminalGone`: writes nothing more to it. */
	unmount(terminalGone: boolean): Promise<void>;
	/** After unmount: the keys of a q-then-y are read and dropped a moment (stdin a terminal only), instead of reaching the shell. */
	swallowStrayKeys(): Promise<void>;
};

export function mountDashboard(store: BatchStore, io: DashboardIO, options: MountOptions): MountedDashboard {
	const {onStopSignal: stop, onTerminalGone: gone} = options;
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	process.on('SIGHUP', gone);

	let leaveAlternateScreen = enterAlternateScreen(io.stdout, options.mouse);
	const keyboard = keyboardStream(io.stdin);
	// The terminal went away (window closed, ssh dropped): Ink's next write fails with EIO. Nothing may crash here.
	io.stdout.on('error', gone);
	// The command's own goodbye first: cli.ts's quiet exit on a closed stdout would cut it short.
	handlesClosedOutput(io.stdout);
	keyboard.on('error', gone);
	reportZeroSizeAsFallback(io.stdout);
	// Frames reach the terminal as the cells that changed (ui/terminal/diff-writer.ts), not through
	// Ink's incrementalRendering, which left stale lines when the layout changed (steer-pty test).
	// maxFps 250: see bench/RESULTS.md (2026-12-01, 1c331ad).
	let terminal = inkStdout(io.stdout);
	const draw = (): Instance => render(<App store={store} theme={options.theme} bindings={options.bindings} mouse={options.mouse}/>, {stdout: terminal.stream, stdin: keyboard, exitOnCtrlC: false, patchConsole: true, maxFps: 250});
	let app = draw();
	let mounted = true;

	// o: the terminal goes to the pager, then comes back with the dashboard drawn afresh. Ctrl+C
	// in the pager is the pager's (less stops a search with it): the terminal sends SIGINT to this
	// process too, which must not stop anything meanwhile (git ignores it while its pager runs too).
	const ignore = () => undefined;
	let paging = false;
	const handover: TerminalHandover = {
		async suspend() {
			process.on('SIGINT', ignore);
			process.off('SIGINT', stop);
			app.unmount();
			await app.waitUntilExit().catch(() => undefined);
			keyboard.pause();
			leaveAlternateScreen();
		},
		resume() {
			process.on('SIGINT', stop);
			process.off('SIGINT', ignore);
			// Ended while the pager ran: the terminal stays the operator's.
			if (!mounted) return;
			leaveAlternateScreen = enterAlternateScreen(io.stdout, options.mouse);
			// The screen the frame writer remembers is the pager's now: the first frame is drawn whole.
			terminal.dispose();
			terminal = inkStdout(io.stdout);
			app = draw();
		},
	};

	let copied = store.getState().clipboard?.serial ?? 0;
	let paged = store.getState().pager?.serial ?? 0;
	const unsubscribe = store.subscribe(state => {
		// y: OSC 52 to the terminal, which moves nothing on screen (the notice says where else the text is).
		if (state.clipboard && state.clipboard.serial !== copied) {
			copied = state.clipboard.serial;
			io.stdout.write(osc52(state.clipboard.text));
		}

		if (state.pager && state.pager.serial !== paged) {
			paged = state.pager.serial;
			if (paging) return;
			paging = true;
			void showLogInPager(options.runId, state.pager.taskId, io.env ?? process.env, handover).then(notice => {
				paging = false;
				store.setState({notice});
			});
		}
	});

	return {
		async unmount(terminalGone) {
			mounted = false;
			process.off('SIGINT', stop);
			process.off('SIGINT', ignore);
			process.off('SIGTERM', stop);
			process.off('SIGHUP', gone);
			unsubscribe();
			app.unmount();
			await app.waitUntilExit().catch(() => undefined);
			terminal.dispose();
			if (!terminalGone) leaveAlternateScreen();
			if (keyboard !== io.stdin) keyboard.destroy();
		},
		async swallowStrayKeys() {
			if (keyboard === io.stdin && keyboard.isTTY) await swallowStrayKeys(keyboard, strayKeysMs);
		},
	};
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
