// The dashboard on a finished run (commands/finished-run.ts made its store), mounted as a live
// one is (mount-dashboard.tsx), until the operator quits (q, Ctrl-C, SIGTERM) or the terminal
// goes. Nothing runs, so nothing is stopped or waited for on the way out.
import type {Theme} from '../core/theme/themes.js';
import type {BatchStore} from '../state/store-types.js';
import type {Bindings} from '../ui/keys/keys.js';
import {mountDashboard, type DashboardIO} from './mount-dashboard.js';

/** Resolves once the operator has left; `terminalGone`: the terminal went away (nothing more may be written to it). */
export async function showFinishedRun(store: BatchStore, io: DashboardIO, options: {theme: Theme; bindings: Bindings; mouse: boolean}): Promise<{terminalGone: boolean}> {
	let leave: (terminalGone: boolean) => void = () => undefined;
	const left = new Promise<boolean>(resolve => {
		leave = resolve;
	});
	const mount = mountDashboard(store, io, {...options, runId: store.getState().runId, onStopSignal: () => leave(false), onTerminalGone: () => leave(true)});
	const check = () => {
		if (store.getState().exitRequested) leave(false);
	};

	const unsubscribe = store.subscribe(check);
	check();
	let terminalGone = false;
	try {
		terminalGone = await left;
	} finally {
		unsubscribe();
		await mount.unmount(terminalGone);
	}

	// q never asks here (nothing runs): the `y` of a q-then-y habit is dropped, not given to the shell.
	if (!terminalGone) await mount.swallowStrayKeys();
	return {terminalGone};
}
