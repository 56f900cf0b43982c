// How a planned task becomes a `hermes` command line. Always an argv array: the goal is
// untrusted text and must never pass through a shell. What is passed was decided by the plan
// (hermes/flags.ts) against the installed Hermes's flags; this file only spells it out.
import {accessSync, constants, statSync} from 'node:fs';
import path from 'node:path';
import {InputError} from '../errors.js';
import {baseUrlEnv, outputModeOf, promptOf, type OutputMode} from './flags.js';
import {resolveHermesHome} from './home.js';
import type {HermesCapabilities, PlannedTask} from '../types.js';

export type Launch = {
	file: string;
	args: string[];
	/** Added to the child's environment (a base_url route's endpoint and key), see childEnv. Never printed. */
	env: Record<string, string>;
	output: OutputMode;
};

export {promptOf} from './flags.js';

export type LaunchContext = {
	capabilities: HermesCapabilities;
	/** Where the runner wrote the prompt, for a task whose plan says prompt_file. */
	promptFile?: string | undefined;
	/** The batch's --timeout in ms; a task's own timeout wins. Passed as --run-budget (a soft nudge) where Hermes has it. */
	batchTimeoutMs?: number | undefined;
};

export function buildLaunch(task: PlannedTask, hermesBin: string, context: LaunchContext): Launch {
	const {decision, effective, launch, spec} = task;
	const {flags} = context.capabilities;
	const route = decision.route;
	// -p always, and first: without it Hermes follows a sticky `active_profile` and a model route
	// would silently run inside some profile. `default` is the home itself.
	const args: string[] = ['-p', route?.kind === 'profile' ? route.name : 'default', 'chat'];
	if (launch.prompt_file) {
		if (!context.promptFile) {
			throw new Error(`task ${task.id}: its prompt goes through --query-file, but no file was written for it`);
		}

		args.push('--query-file', context.promptFile);
	} else {
		args.push(...queryArgs(promptOf(spec)));
	}

	// --source tool keeps these third-party runs out of the operator's own session list.
	if (flags.source) {
		args.push('--source', 'tool');
	}

	// --cli: a home whose config.yaml says `display.interface: tui` would otherwise hand this run to
	// Hermes's TUI, which without a terminal exits 0 having done nothing (upstream issue 40095).
	if (flags.cli) {
		args.push('--cli');
	}

	const output = outputModeOf(flags);
	// -Q: stdout is the answer verbatim and a failure exits 1 (without it Hermes exits 0 on a failed
	// model call). stream-json implies quiet and adds live tool calls and tokens.
	args.push(...(output === 'stream-json' ? ['--format', 'stream-json'] : output === 'quiet' ? ['-Q'] : []));
	if (effective.model) {
		args.push('-m', effective.model);
	}

	if (effective.provider) {
		args.push('--provider', effective.provider);
	}

	if (effective.reasoning_effort) {
		args.push('--reasoning', effective.reasoning_effort);
	}

	if (spec.toolsets) {
		args.push('-t', spec.toolsets.join(','));
	}

	for (const skill of spec.skills ?? []) {
		args.push('-s', skill);
	}

	if (launch.max_turns !== null) {
		args.push('--max-turns', String(launch.max_turns));
	}

	if (spec.worktree) {
		args.push('-w');
	}

	// --run-budget is a soft nudge, not a limit: Hermes warns the model once 80 % of it is spent and
	// carries on; it neither wraps up nor stops at 100 %. Our timeout's kill cascade is what ends
	// a task that runs over.
	const timeoutMs = spec.timeout === undefined ? context.batchTimeoutMs : spec.timeout * 1000;
	if (flags.runBudget && timeoutMs !== undefined) {
		args.push('--run-budget', String(Math.max(1, Math.floor(timeoutMs / 1000))));
	}

	return {file: hermesBin, args, env: launchEnv(task), output};
}

/**
 * The HERMES_* variables a child inherits: the ones an operator sets on purpose for every Hermes
 * run. HERMES_HOME picks the home (profiles, config, state.db); HERMES_BUNDLED_SKILLS where the
 * bundled skills come from; HERMES_ACCEPT_HOOKS is --accept-hooks for headless runs.
 */
export const inheritedHermesVariables: readonly string[] = ['HERMES_HOME', 'HERMES_BUNDLED_SKILLS', 'HERMES_ACCEPT_HOOKS'];

/**
 * The environment a task's `hermes` starts with. Every other HERMES_* stays out: when
 * hermes-delegate itself runs under Hermes (a terminal tool, a kanban worker), our environment
 * carries that Hermes's own state (HERMES_KANBAN_TASK, its session, its profile), and a child
 * that inherits it would act as part of that task. HERMES_INFERENCE_MODEL stays out as well:
 * the plan decides each task's model, and a model the plan cannot see would make the result's
 * route wrong. Our own HERMES_BIN means nothing to Hermes. HERMES_TUI=1 stays out too: it would
 * hand a `chat -q` to Hermes's TUI, which without a terminal exits 0 having done nothing.
 */
export function childEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(base)) {
		if (!name.startsWith('HERMES_') || inheritedHermesVariables.includes(name)) env[name] = value;
	}

	// Always an explicit home: a Hermes started without HERMES_HOME while the default home's
	// active_profile names a profile warns on stderr that its spawner should pass HERMES_HOME
	// (docs/hermes-releases.md). The same folder Hermes would fall back to, so nothing else changes.
	// The child's own HOME decides that folder (Python's Path.home()), not ours.
	if (!env['HERMES_HOME']?.trim()) env['HERMES_HOME'] = base['HOME']?.trim() ? path.join(base['HOME'], '.hermes') : resolveHermesHome({});
	return {...env, ...extra};
}

/** A base_url route: Hermes reads its endpoint and key from the environment (hermes/flags.ts). */
function launchEnv(task: PlannedTask): Record<string, string> {
	const route = task.decision.route;
	return task.launch.base_url === null || route?.kind !== 'model' ? {} : baseUrlEnv(route);
}

/**
 * argparse reads a separate argument starting with '-' as an option, so a prompt like
 * "--help me fix the build" would be taken for one. Attached (`-qPROMPT`) it can only be the
 * value of -q; otherwise the two-item form, which reads better in --dry-run. A value of exactly
 * "--" is dropped by argparse in every form (`-q--`, `--query=--`: Python 3.11's argparse gives
 * an empty value; test/core/hermes/query-argparse.test.ts runs it), so that one goes with a leading
 * space, which argparse keeps and Hermes strips from the prompt (flags.ts).
 */
export function queryArgs(prompt: string): string[] {
	if (prompt === '--') return ['-q', ' --'];
	return prompt.startsWith('-') ? [`-q${prompt}`] : ['-q', prompt];
}

/** What the operator asked for: --hermes-bin, else $HERMES_BIN, else `hermes` (searched on PATH). */
export function requestedHermesBin(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
	// An empty HERMES_BIN is unset, as shells treat it.
	return flag || env['HERMES_BIN'] || 'hermes';
}

/** --hermes-bin, else $HERMES_BIN, else `hermes` on PATH; checked before any task starts. */
export function resolveHermesBin(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
	const requested = requestedHermesBin(flag, env);
	const origin = flag ? '--hermes-bin' : env['HERMES_BIN'] ? 'HERMES_BIN' : 'PATH';
	if (requested.includes('/')) {
		const resolved = path.resolve(requested);
		checkExecutable(resolved, origin);
		return resolved;
	}

	for (const directory of (env['PATH'] ?? '').split(path.delimiter).filter(Boolean)) {
		const candidate = path.join(directory, requested);
		if (isExecutableFile(candidate)) {
			return candidate;
		}
	}

	throw new InputError(
		`the Hermes binary "${requested}" was not found on PATH`,
		{},
		'install Hermes Agent, or point --hermes-bin / HERMES_BIN at it (try `hermes-delegate demo` to see the tool without Hermes)',
	);
}

function checkExecutable(file: string, origin: string): void {
	let isFile = false;
	try {
		isFile = statSync(file).isFile();
	} catch {
		throw new InputError(`the Hermes binary ${file} (from ${origin}) does not exist`, {}, 'fix the path, or install Hermes Agent');
	}

	if (!isFile || !isExecutableFile(file)) {
		throw new InputError(`the Hermes binary ${file} (from ${origin}) is not an executable file`, {}, `make it executable (chmod +x ${file}) or point ${origin} at the real hermes`);
	}
}

function isExecutableFile(file: string): boolean {
	try {
		accessSync(file, constants.X_OK);
		return statSync(file).isFile();
	} catch {
		return false;
	}
}
