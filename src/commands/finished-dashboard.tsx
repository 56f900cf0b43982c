// The dashboard on a finished run (commands/finished-run.ts made its store): the same App, on the
// alternate screen, until the operator quits (q, Ctrl-C) or the terminal goes. Nothing runs, so
// nothing is stopped or waited for on the way out.
import {render} from 'ink';
import type {Theme} from '../core/theme/themes.js';
import type {BatchStore} from '../state/store-types.js';
import {App} from '../ui/App.js';
import {reportZeroSizeAsFallback} from '../ui/hooks/use-terminal-size.js';
import type {Bindings} from '../ui/keys/keys.js';
import {inkStdout} from '../ui/terminal/diff-writer.js';
import {osc52, strayKeysMs, swallowStrayKeys, type DashboardIO} from './dashboard.js';
import {enterAlternateScreen, keyboardStream} from './terminal-modes.js';

/** Resolves once the operator has left; `terminalGone`: the terminal went away (nothing more may be written to it). */
export async function showFinishedRun(store: BatchStore, io: DashboardIO, options: {theme: Theme; bindings: Bindings; mouse: boolean}): Promise<{terminalGone: boolean}> {
	let leave: (terminalGone: boolean) => void = () => undefined;
	const left = new Promise<boolean>(resolve => {
		leave = resolve;
	});
	const quit = () => leave(false);
	const gone = () => leave(true);
	process.on('SIGINT', quit);
	process.on('SIGTERM', quit);
	process.on('SIGHUP', gone);
	const leaveAlternateScreen = enterAlternateScreen(io.stdout, options.mouse);
	const keyboard = keyboardStream(io.stdin);
	io.stdout.on('error', gone);
	keyboard.on('error', gone);
	reportZeroSizeAsFallback(io.stdout);
	const terminal = inkStdout(io.stdout);
	const app = render(<App store={store} theme={options.theme} bindings={options.bindings} mouse={options.mouse}/>, {stdout: terminal.stream, stdin: keyboard, exitOnCtrlC: false, patchConsole: true, maxFps: 250});
	let copied = store.getState().clipboard?.serial ?? 0;
	let paged = store.getState().pager?.serial ?? 0;
	const check = () => {
		const state = store.getState();
		if (state.exitRequested) quit();
		// y: the answer to the terminal's clipboard, as on a live run.
		if (state.clipboard && state.clipboard.serial !== copied) {
			copied = state.clipboard.serial;
			io.stdout.write(osc52(state.clipboard.text));
		}

		// o: the pager hand-over lives with the live dashboard; a finished run's log is a command away.
		if (state.pager && state.pager.serial !== paged) {
			paged = state.pager.serial;
			store.setState({notice: `read the whole log with \`hermes-delegate logs ${state.runId} ${state.pager.taskId}\``});
		}
	};

	const unsubscribe = store.subscribe(check);
	check();
	let terminalGone = false;
	try {
		terminalGone = await left;
	} finally {
		process.off('SIGINT', quit);
		process.off('SIGTERM', quit);
		process.off('SIGHUP', gone);
		unsubscribe();
		app.unmount();
		await app.waitUntilExit().catch(() => undefined);
		terminal.dispose();
		if (!terminalGone) leaveAlternateScreen();
		if (keyboard !== io.stdin) keyboard.destroy();
	}

	// q never asks here (nothing runs): the `y` of a q-then-y habit is dropped, not given to the shell.
	if (!terminalGone && keyboard === io.stdin && keyboard.isTTY) await swallowStrayKeys(keyboard, strayKeysMs);
	return {terminalGone};
}
