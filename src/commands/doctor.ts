// `hermes-delegate doctor`: probe the installed Hermes and check the config, the profiles and the
// home for what would make a batch run differently than planned. Exit 0 when nothing is wrong
// (warnings included), 1 when something is, so a setup script can stop on it.
import path from 'node:path';
import {defaultConfigPath, loadHermesConfig} from '../core/config/config.js';
import {runChecks, type Finding} from '../core/hermes/doctor.js';
import {InputError} from '../core/errors.js';
import {resolveHermesHome} from '../core/hermes/home.js';
import {defaultCachePath, hermesSummary, probeHermes, unprobed} from '../core/hermes/probe.js';
import {requestedHermesBin, resolveHermesBin} from '../core/hermes/launcher.js';
import {batchConcurrency, loadSettings, settingsPath, type LoadedSettings} from '../core/config/settings.js';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';
import type {DoctorOptions} from './flags.js';
import type {CommandIO} from './io.js';

export async function doctorCommand(options: DoctorOptions, io: Pick<CommandIO, 'stdout' | 'env'>): Promise<number> {
	const hermesHome = resolveHermesHome(io.env);
	let bin: string | undefined;
	let binProblem = '';
	try {
		bin = resolveHermesBin(options.hermesBin, io.env);
	} catch (error) {
		if (!(error instanceof InputError)) throw error;
		// Its own fix is doctor's too (the finding says it): the message alone, or the fix shows twice.
		binProblem = notFoundOnPath(options.hermesBin, io.env) ?? error.message;
	}

	const capabilities = bin ? await probeHermes(bin, {env: io.env, cachePath: defaultCachePath(io.env)}) : unprobed(options.hermesBin ?? 'hermes', binProblem);
	let delegation;
	let configProblem: string | undefined;
	let configWarnings: string[] = [];
	try {
		const loaded = loadHermesConfig({configPath: options.config ?? defaultConfigPath(hermesHome), hermesHome, explicit: options.config !== undefined});
		delegation = loaded.delegation;
		configWarnings = loaded.warnings;
	} catch (error) {
		if (!(error instanceof InputError)) throw error;
		configProblem = error.describe();
	}

	// As run and tui decide it; a delegate.yaml that does not load counts as none here.
	let settings: LoadedSettings | undefined;
	try {
		settings = loadSettings(settingsPath(hermesHome));
	} catch {}

	const concurrency = batchConcurrency(settings, delegation?.builtin.max_concurrent_children);

	const findings = runChecks({hermesHome, capabilities, delegation, configProblem, configWarnings, concurrency});
	const failed = findings.some(finding => finding.level === 'error');
	if (options.json) {
		// As `run` prints JSON: a route or path with a C1 control (an 8-bit CSI) must not reach the terminal raw.
		io.stdout.write(`${jsonText({ok: !failed, hermes: hermesSummary(capabilities), findings}, 2)}\n`);
	} else {
		io.stdout.write(`${findings.map(line).join('\n')}\n${verdict(findings)}\n`);
	}

	return failed ? 1 : 0;
}

/**
 * A bare name that no directory of PATH holds: where doctor looked, so that the operator can tell
 * a missing install from a PATH that leaves its folder out. Undefined for a path that was named.
 */
function notFoundOnPath(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
	const requested = requestedHermesBin(flag, env);
	if (requested.includes('/')) return undefined;
	const directories = (env['PATH'] ?? '').split(path.delimiter).filter(Boolean);
	const where = directories.length === 0 ? 'PATH is empty' : `looked in PATH: ${directories.join(', ')}`;
	const named = flag ? ' (--hermes-bin)' : env['HERMES_BIN'] ? ' (HERMES_BIN)' : '';
	return `Hermes was not found: no executable "${requested}"${named} in any folder of PATH (${where})`;
}

const marks = {ok: '✓', warn: '!', error: '✗'};

/** The last line: never 'no problems found' under warnings, which still change how a batch runs. */
function verdict(findings: readonly Finding[]): string {
	const count = (level: Finding['level']) => findings.filter(finding => finding.level === level).length;
	const [errors, warnings] = [count('error'), count('warn')];
	const warned = warnings === 0 ? '' : `${warnings} warning${warnings === 1 ? '' : 's'} (the ! lines)`;
	if (errors > 0) return `${errors} problem${errors === 1 ? '' : 's'} found (the ✗ lines)${warned ? `, and ${warned}` : ''}`;
	return warned ? `no problems, but ${warned}` : 'no problems found';
}

// Paths, route names and profile names come from files the operator may not have written.
function line(finding: Finding): string {
	const text = `${marks[finding.level]} ${finding.topic}: ${finding.message}${finding.fix ? `\n    fix: ${finding.fix}` : ''}`;
	return text.split('\n').map(part => terminalSafe(part)).join('\n');
}
