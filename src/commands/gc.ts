// `hermes-delegate gc`: what a hermes-delegate killed with SIGKILL left running. Its last-resort
// clean-up never ran, so an agent that prints nothing (no SIGPIPE ever reaches it) or a grandchild
// that ignores SIGTERM lives on. The run folder recorded every agent as it started; gc ends those
// still running, with the same cascade the runner uses. `--dry-run` only lists them.
import path from 'node:path';
import {demoHomePath} from '../core/input/demo.js';
import {InputError} from '../core/errors.js';
import {resolveHermesHome} from '../core/hermes/home.js';
import {endOrphans, findOrphans, orphanCount, orphanWarning, type OrphanRun} from '../core/run-folder/orphans.js';
import {hasProc} from '../core/process/proc-tree.js';
import {loadSettings, settingsPath} from '../core/config/settings.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {parseNumber, type GcOptions} from './flags.js';
import type {CommandIO} from './io.js';
import {readRegularText} from '../core/regular-file.js';
import {distrustFix} from '../core/run-folder/trust.js';

type GcIO = Pick<CommandIO, 'stdout' | 'stderr' | 'env'>;

/** The user's home and the demo's: a demo killed with SIGKILL leaves its runaway behind too. */
function homesToSearch(env: NodeJS.ProcessEnv): string[] {
	return [resolveHermesHome(env), demoHomePath(env)];
}

export async function gcCommand(options: GcOptions, io: GcIO): Promise<number> {
	if (!hasProc) {
		throw new InputError('gc needs /proc to tell a recorded process from one that got its pid later', {}, 'run gc on Linux; elsewhere end the processes listed in the run folder\'s processes.jsonl by hand');
	}

	const graceSeconds = options.grace === undefined ? defaultGrace(io.env) : parseNumber(options.grace, '--grace', {min: 0});
	const runs = findOrphans(homesToSearch(io.env), {distrusted(dir, why) {
		io.stderr.write(`hermes-delegate: left alone ${terminalSafe(dir)}: ${why}; its process records could name any process. ${distrustFix(terminalSafe(dir))}\n`);
	}});
	const count = orphanCount(runs);
	if (count === 0) {
		io.stdout.write('no orphans: every recorded process of a run whose hermes-delegate is gone has ended\n');
		return 0;
	}

	io.stdout.write(`${describe(runs).join('\n')}\n`);
	const processes = `${count} process${count === 1 ? '' : 'es'}`;
	if (options.dryRun) {
		io.stdout.write(`dry run: ${processes} left running; \`hermes-delegate gc\` ends them\n`);
		return 0;
	}

	io.stdout.write(`ending ${processes}: SIGTERM, then SIGKILL to what is left after ${graceSeconds}s\n`);
	const {forced} = await endOrphans(runs, {graceMs: Math.round(graceSeconds * 1000)});
	io.stdout.write(`ended ${processes}${forced > 0 ? ` (SIGKILL needed for ${forced} agent${forced === 1 ? '' : 's'})` : ''}\n`);
	return 0;
}

const howFound = {group: 'in the agent\'s process group', session: 'in the agent\'s session', seen: 'left the agent\'s session (setsid)'} as const;

function describe(runs: readonly OrphanRun[]): string[] {
	return runs.flatMap(run => {
		const names = taskNames(run.dir);
		return [
			`run ${run.runId} (hermes-delegate ${run.owner.pid}, started ${run.owner.at}, is gone): ${run.dir}`,
			...run.families.flatMap(found => found.members.map(member => {
				const task = names.get(found.task);
				return `  ${terminalSafe(found.task)}${task ? ` ${task}` : ''}  pid ${member.pid}  ${terminalSafe(member.name)}  ${member.pid === member.agentPid ? 'the agent itself' : howFound[member.via]}`;
			})),
		];
	});
}

/** Task names (or goals) from plan.json, sanitised first and cut after: they are untrusted text. */
function taskNames(runDir: string): Map<string, string> {
	try {
		const plan = JSON.parse(readRegularText(path.join(runDir, 'plan.json'))) as {tasks?: Array<{id?: unknown; spec?: {name?: unknown; goal?: unknown}}>};
		return new Map((plan.tasks ?? []).flatMap(task => {
			const label = task.spec?.name ?? task.spec?.goal;
			return typeof task.id === 'string' && typeof label === 'string' ? [[task.id, cut(terminalSafe(label).replaceAll('\n', ' '), 40)] as const] : [];
		}));
	} catch {
		return new Map();
	}
}

function cut(text: string, length: number): string {
	const characters = [...text];
	return characters.length > length ? `${characters.slice(0, length - 1).join('')}…` : text;
}

function defaultGrace(env: NodeJS.ProcessEnv): number {
	try {
		return loadSettings(settingsPath(resolveHermesHome(env))).graceSeconds;
	} catch {
		return 5; // A broken delegate.yaml must not stand between the operator and the clean-up.
	}
}

/**
 * For every command but gc, at start: one warning on stderr when orphans exist. Looks at the
 * newest runs only, and scans /proc only when one of them lost its owner mid-run; never fails.
 */
export function warnAboutOrphans(io: Pick<CommandIO, 'stderr' | 'env'>): void {
	try {
		const warning = orphanWarning(homesToSearch(io.env));
		if (warning) io.stderr.write(`hermes-delegate: warning: ${warning}\n`);
	} catch {
		// The check is a courtesy; gc itself reports what it cannot read.
	}
}
