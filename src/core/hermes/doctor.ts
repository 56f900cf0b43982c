// `hermes-delegate doctor`: what stands between this machine and a batch that runs as planned.
// Each check is a finding with a level and, when something is wrong, the fix. The checks read
// files and ask the probe; they start no subagent.
import {existsSync, readFileSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import path from 'node:path';
import {parse} from 'yaml';
import {z} from 'zod';
import {profileDir, profileModelIn} from './home.js';
import {describeCapabilities} from './probe.js';
import {homeReleaseFindings, releaseFinding, type Finding} from './doctor-release.js';
import {routeFlags} from './flags.js';
import type {DelegationConfig, HermesCapabilities} from '../types.js';

export type {Finding} from './doctor-release.js';

export type DoctorInput = {
	hermesHome: string;
	capabilities: HermesCapabilities;
	/** undefined when the config could not be loaded (configProblem says why). */
	delegation: DelegationConfig | undefined;
	configProblem?: string | undefined;
	configWarnings: string[];
	concurrency: number;
};

export function runChecks(input: DoctorInput): Finding[] {
	const profiles = (input.delegation?.profileRoutes.profiles ?? []).map(route => route.name);
	return [
		...hermesFindings(input.capabilities),
		...configFindings(input),
		...homeFindings(input),
		...homeReleaseFindings(input.hermesHome, profiles, input.capabilities),
		...loadFinding(input.concurrency),
	];
}

function hermesFindings(caps: HermesCapabilities): Finding[] {
	if (!caps.probed) {
		// Nothing below reasons about a Hermes that was not found or did not answer: its flags are unknown.
		return [{level: 'error', topic: 'hermes', message: caps.problem ?? 'could not be probed', fix: 'install Hermes Agent (then `hermes --version` answers), or point --hermes-bin / HERMES_BIN at it; `hermes-delegate demo` shows the tool without Hermes'}];
	}

	const findings: Finding[] = [{level: 'ok', topic: 'hermes', message: `${caps.bin}: ${describeCapabilities(caps)}`}, releaseFinding(caps)];
	const {flags} = caps;
	if (flags.streamJson) {
		findings.push({level: 'ok', topic: 'hermes', message: 'output read as --format stream-json: live reply, tool calls, model used and tokens'});
	} else if (flags.quiet) {
		findings.push({level: 'ok', topic: 'hermes', message: 'output read with -Q: exact answers and honest exit codes; no live tool calls or tokens (they need --format stream-json, Hermes 0.20.6+)'});
	} else {
		findings.push({level: 'error', topic: 'hermes', message: 'this hermes chat has neither -Q nor --format: failures exit 0 and answers are formatted transcripts', fix: 'upgrade Hermes Agent'});
	}

	if (!flags.reasoning) {
		findings.push({level: 'warn', topic: 'hermes', message: `Hermes ${caps.version ?? ''} has no --reasoning: a route's reasoning_effort is not passed (the profile's agent.reasoning_effort applies)`, fix: 'upgrade to Hermes 0.20.0 or later, or set agent.reasoning_effort in the profile that runs the task'});
	}

	if (!flags.queryFile) {
		findings.push({level: 'warn', topic: 'hermes', message: 'no --query-file: a task whose prompt is over 128 KiB is refused before the batch starts', fix: 'upgrade to Hermes 0.20.6 or later for long prompts'});
	}

	return findings;
}

function configFindings(input: DoctorInput): Finding[] {
	if (!input.delegation) {
		return [{level: 'error', topic: 'config', message: input.configProblem ?? 'could not be loaded', fix: 'see the message above; `hermes-delegate config show` prints the same error'}];
	}

	const delegation = input.delegation;
	const findings: Finding[] = [{level: 'ok', topic: 'config', message: `${delegation.source.path}${delegation.source.exists ? '' : ' (not found)'}: active mode ${delegation.mode}`}];
	findings.push(...input.configWarnings.map(warning => ({level: 'warn' as const, topic: 'config', message: warning})));
	// What each model route will and will not pass on this Hermes: the same code the plan uses.
	// Without a probed Hermes nothing is known of its flags: what the route asks for, unchecked.
	const probed = input.capabilities.probed;
	for (const route of delegation.modelMap.options) {
		const flags = routeFlags({spec: {goal: 'x'}, decision: {route, refused: false, reason: ''}, capabilities: probed ? input.capabilities : undefined});
		const passed = [`-m ${flags.model}`, flags.provider && `--provider ${flags.provider}`, flags.reasoning_effort && `--reasoning ${flags.reasoning_effort}`, flags.baseUrl && `endpoint ${flags.baseUrl}`].filter(Boolean).join(' ');
		const message = probed ? [`passes ${passed}`, ...flags.warnings] : [`asks for ${passed}; not checked against Hermes's flags (no Hermes was probed)`, ...flags.warnings];
		findings.push({level: flags.warnings.length > 0 ? 'warn' : 'ok', topic: `route ${route.name}`, message: message.join('; ')});
	}

	if (delegation.mode === 'profile_routes' || delegation.profileRoutes.profiles.length > 0) {
		// As the plan reads it (config.ts), so doctor and the panes name the same model.
		const profileModel = profileModelIn(input.hermesHome);
		for (const route of delegation.profileRoutes.profiles) {
			const dir = profileDir(input.hermesHome, route.name);
			const model = profileModel(route.name);
			findings.push(existsSync(dir)
				? {level: 'ok', topic: `profile ${route.name}`, message: `${dir}: model ${model ?? '(not set: the root config\'s)'}`}
				: {level: delegation.mode === 'profile_routes' ? 'error' : 'warn', topic: `profile ${route.name}`, message: `no folder ${dir}`, fix: `hermes profile create ${route.name}`});
		}
	}

	return findings;
}

function homeFindings(input: DoctorInput): Finding[] {
	const findings: Finding[] = [];
	const homes = [input.hermesHome, ...(input.delegation?.profileRoutes.profiles ?? []).map(route => profileDir(input.hermesHome, route.name))];
	for (const home of homes) {
		const security = securityOf(path.join(home, 'config.yaml'));
		if (security.allow_lazy_installs !== false) {
			findings.push({level: 'warn', topic: 'lazy installs', message: `${home}/config.yaml: security.allow_lazy_installs is not false: each hermes chat may first try to pip-install optional packages (offline: ~8 s per call)`, fix: 'set security.allow_lazy_installs: false in that config.yaml'});
		}

		if (security.tirith_enabled !== false && !hasTirith()) {
			findings.push({level: 'warn', topic: 'tirith', message: `${home}/config.yaml: the tirith scanner is enabled but not installed: Hermes prints a warning as the first line of stdout (even with -Q, so it lands in the answer) and tries to download it on every call`, fix: 'install tirith, or set security.tirith_enabled: false'});
		}
	}

	const activeProfile = readText(path.join(input.hermesHome, 'active_profile'))?.trim();
	if (activeProfile && activeProfile !== 'default') {
		findings.push({level: 'warn', topic: 'active profile', message: `${input.hermesHome}/active_profile is "${activeProfile}": a bare \`hermes\` runs in that profile. hermes-delegate always passes -p (default for model routes), so its tasks are not redirected`, fix: '`hermes profile use default` if that is not what you want for your own sessions'});
	}

	return findings;
}

function loadFinding(concurrency: number): Finding[] {
	const cores = availableParallelism();
	const message = `concurrency ${concurrency} on ${cores} core${cores === 1 ? '' : 's'}: each hermes chat spends ~3.5–5 CPU-seconds starting before its first model request, so starts beyond the core count queue for CPU`;
	return [{level: concurrency > cores * 4 ? 'warn' : 'ok', topic: 'load', message}];
}

// Only these two switches are read. A file that is missing, unreadable or shaped otherwise reads
// as neither being set to false, so both warnings are given.
const securitySettings = z.object({security: z.object({allow_lazy_installs: z.unknown(), tirith_enabled: z.unknown()})});

function securityOf(configFile: string): {allow_lazy_installs?: unknown; tirith_enabled?: unknown} {
	const parsed = securitySettings.safeParse(readYaml(configFile));
	return parsed.success ? parsed.data.security : {};
}

function readYaml(file: string): unknown {
	const text = readText(file);
	try {
		return text === undefined ? undefined : parse(text);
	} catch {
		return undefined;
	}
}

function readText(file: string): string | undefined {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return undefined;
	}
}

function hasTirith(): boolean {
	return (process.env['PATH'] ?? '').split(path.delimiter).some(dir => dir && existsSync(path.join(dir, 'tirith')));
}
