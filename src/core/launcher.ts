// How a planned task becomes a `hermes` command line. Always an argv array: the goal is
// untrusted text and must never pass through a shell.
import {accessSync, constants, statSync} from 'node:fs';
import path from 'node:path';
import {InputError} from './errors.js';
import type {PlannedTask} from './types.js';

export type Launch = {file: string; args: string[]};

export function promptOf(task: PlannedTask): string {
	const {goal, context} = task.spec;
	return context ? `${goal}\n\nContext:\n${context}` : goal;
}

export function buildLaunch(task: PlannedTask, hermesBin: string): Launch {
	const {decision, effective} = task;
	const route = decision.route;
	// -p goes first: Hermes accepts it in any position, and first reads like the docs.
	const args: string[] = route?.kind === 'profile' ? ['-p', route.name] : [];
	// --source tool keeps these third-party runs out of the operator's own session list.
	args.push('chat', ...queryArgs(promptOf(task)), '--source', 'tool');
	if (effective.model) {
		args.push('-m', effective.model);
	}

	if (effective.provider) {
		args.push('--provider', effective.provider);
	}

	if (effective.reasoning_effort) {
		args.push('--reasoning', effective.reasoning_effort);
	}

	return {file: hermesBin, args};
}

/**
 * argparse reads a separate argument starting with '-' as an option, so a prompt like
 * "--help me fix the build" would be taken for one. Attached (`-qPROMPT`) it can only be the
 * value of -q; otherwise the two-item form, which reads better in --dry-run.
 */
export function queryArgs(prompt: string): string[] {
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
