// `hermes-delegate attach [RUN]`: the dashboard on a batch a runner host serves, from any
// terminal, as many at once as wanted. Without RUN: the one live run, or (several live) a choice
// on a terminal and an error listing them elsewhere. A finished RUN opens read-only from its run
// folder (finished-run.ts); one without results (swept, unrecorded, its host died) says why not.
import path from 'node:path';
import {createInterface} from 'node:readline/promises';
import {demoHomePath} from '../core/input/demo.js';
import {loadSettings, settingsPath} from '../core/config/settings.js';
import {InputError} from '../core/errors.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {loadTheme} from '../core/theme/themes.js';
import {chooseRun, connectToRun, describeRunLine, listRecentRuns, notLive, runHomes, unrecordedWhere, type RunEntry} from '../client/live-runs.js';
import {resolveBindings} from '../ui/keys/keys.js';
import {reportDashboardEnd, showDashboard} from './dashboard.js';
import {showFinishedRun} from './finished-dashboard.js';
import {openFinishedRun} from './finished-run.js';
import {dashboardMouse} from './dashboard-mouse.js';
import type {AttachOptions} from './flags.js';
import type {CommandIO} from './io.js';

export async function attachCommand(runArg: string | undefined, options: AttachOptions, io: CommandIO & {stdin: NodeJS.ReadStream}): Promise<number> {
	if (!io.stdout.isTTY) {
		throw new InputError('the dashboard needs a terminal, but stdout is not one', {}, 'in a script, `hermes-delegate wait RUN` waits for the results and `hermes-delegate ls --json` lists the runs');
	}

	const homes = runHomes(io.env);
	const run = runArg === undefined ? await pickLiveRun(homes, io) : chooseRun(homes, runArg, {needLive: false, command: 'attach to'});
	if (run === undefined) return 0;
	if (run.state !== 'live') refuseUnshowable(run);
	const settings = dashboardSettings(run.hermesHome);
	const theme = loadTheme(options.theme ?? settings.theme, {noColor: !io.color});
	const bindings = resolveBindings(settings.keys);
	const demo = path.resolve(run.hermesHome) === path.resolve(demoHomePath(io.env));
	if (run.state === 'finished') {
		const {store} = openFinishedRun(run);
		// --exit-when-done leaves once the batch is finished: this one is, so nothing is shown.
		const {terminalGone} = options.exitWhenDone ? {terminalGone: false} : await showFinishedRun(store, io, {theme, bindings, mouse: dashboardMouse(options.mouse, run.hermesHome)});
		const {report} = store.getState();
		if (terminalGone || !report) return 0;
		return reportDashboardEnd({kind: 'finished', report, stoppedFromOutside: false}, run, io, {demo});
	}

	const connection = await connectToRun(run, 'attach');
	const end = await showDashboard(connection, io, {theme, bindings, exitWhenDone: options.exitWhenDone ?? false, mouse: dashboardMouse(options.mouse, run.hermesHome)});
	// A run in the demo's home is a demo: quitting it ends it as `demo` and `tui --demo` do (exit 0).
	return reportDashboardEnd(end, run, io, {demo});
}

/** A run that is neither live nor finished with its results: why it cannot be shown, and what to read instead. */
function refuseUnshowable(run: RunEntry): void {
	const logs = `\`hermes-delegate logs ${run.runId}\` shows what its folder keeps`;
	if (run.state === 'cleaned') {
		throw new InputError(`cannot open run ${run.runId}: its runner host died before the batch finished, and \`gc\` has swept it since (swept.json): there are no results to show`, {}, logs);
	}

	if (run.state === 'unrecorded') {
		throw new InputError(`cannot open run ${run.runId}: the batch finished, but its results.json could not be written (a full disk?): ${unrecordedWhere}`, {}, `free space in ${run.dir}; ${logs}`);
	}

	if (run.state !== 'finished') throw notLive(run, 'attach to');
}

/** delegate.yaml's theme and keys; a broken one is the batch's business (it was checked when it started): defaults then. */
function dashboardSettings(hermesHome: string): {theme: string | undefined; keys: Record<string, string[]>} {
	try {
		const {theme, keys} = loadSettings(settingsPath(hermesHome));
		return {theme, keys};
	} catch {
		return {theme: undefined, keys: {}};
	}
}

/** The one live run; several: a numbered choice on a terminal (Enter: the newest), an error listing them elsewhere. Undefined: the operator chose none. */
async function pickLiveRun(homes: readonly string[], io: CommandIO & {stdin: NodeJS.ReadStream}): Promise<RunEntry | undefined> {
	const live = listRecentRuns(homes).filter(run => run.state === 'live');
	if (live.length <= 1) return chooseRun(homes, undefined, {needLive: true, command: 'attach to'});
	const lines = live.map((run, index) => `  ${index + 1}) ${terminalSafe(describeRunLine(run))}`);
	if (!io.stdin.isTTY) {
		throw new InputError(`${live.length} runs are live:\n${lines.join('\n')}`, {}, `name one: hermes-delegate attach ${live[0]!.runId}`);
	}

	io.stderr.write(`${live.length} runs are live:\n${lines.join('\n')}\n`);
	const prompt = createInterface({input: io.stdin, output: io.stderr});
	try {
		const answer = (await prompt.question(`attach to which? [1-${live.length}, Enter: 1, q: none] `)).trim();
		if (answer.toLowerCase() === 'q') return undefined;
		const index = answer === '' ? 0 : Number(answer) - 1;
		const chosen = live[index];
		if (!Number.isInteger(index) || chosen === undefined) {
			throw new InputError(`no run numbered ${JSON.stringify(answer)}`, {}, `answer 1 to ${live.length}, or name the run: hermes-delegate attach ${live[0]!.runId}`);
		}

		return chosen;
	} finally {
		prompt.close();
	}
}
