// `hermes-delegate tui` (and `demo`): the batch starts under a runner host, a process of its own
// (client/launch.ts), and this dashboard is its first client (dashboard.tsx), as `attach` is later.
// Everything up to the first process is checked before: bad input exits 2 with nothing started.
import {InputError} from '../core/errors.js';
import {loadTheme} from '../core/theme/themes.js';
import {connectToRun} from '../client/live-runs.js';
import {resolveBindings} from '../ui/keys/keys.js';
import {reportDashboardEnd, showDashboard} from './dashboard.js';
import {dashboardMouse} from './dashboard-mouse.js';
import {agentNiceOption, type TuiOptions} from './flags.js';
import type {CommandIO} from './io.js';
import {startUnderHost} from './start-host.js';

export async function tuiCommand(taskArg: string | undefined, options: TuiOptions, io: CommandIO & {stdin: NodeJS.ReadStream}): Promise<number> {
	agentNiceOption(options.agentNice);
	if (!io.stdout.isTTY) {
		throw new InputError('the dashboard needs a terminal, but stdout is not one', {}, 'use `hermes-delegate run` for scripts and pipes: it prints JSON');
	}

	const started = await startUnderHost(options.demo ? 'demo' : 'tui', taskArg, options, io);
	if (!('ready' in started)) return started.exitCode;
	const {ready} = started;
	// Checked by the host already (a bad theme or key is refused before anything starts).
	const theme = loadTheme(options.theme ?? ready.theme ?? undefined, {noColor: !io.color});
	const bindings = resolveBindings(ready.keys);
	const connection = await connectToRun({runId: ready.runId, socket: ready.socket}, options.demo ? 'demo' : 'tui');
	const end = await showDashboard(connection, io, {theme, bindings, exitWhenDone: options.exitWhenDone ?? false, hostExited: started.hostExited, mouse: dashboardMouse(options.mouse, ready.hermesHome)});
	return reportDashboardEnd(end, ready, io, {demo: options.demo ?? false});
}
