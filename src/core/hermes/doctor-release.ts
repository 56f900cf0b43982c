// doctor's findings about the Hermes release and the homes a batch uses, for what changed in
// Hermes 0.21 (docs/hermes-releases.md): how well the release is known, a home whose config asks
// for the TUI, a home's session cap, a config.yaml Hermes reads differently or not at all, the
// built-in delegation's own fan-out, and what spend figures are.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {parse} from 'yaml';
import {duplicateKeyIn} from '../text/yaml-duplicates.js';
import {hermesYamlOptions} from '../text/yaml-locate.js';
import {profileDir} from './home.js';
import {sessionCapOf} from './session-cap.js';
import type {HermesCapabilities} from '../types.js';

/** One line of doctor: a level and, when something is wrong, the fix (doctor.ts re-exports it). */
export type Finding = {level: 'ok' | 'warn' | 'error'; topic: string; message: string; fix?: string | undefined};

/** Releases whose behaviour recordings of real runs hold (docs/hermes-releases.md, test/contract/). */
const recorded = new Set(['0.19.0', '0.20.0']);

/** How well hermes-delegate knows `version`: recorded, read from upstream's source, or newer than both. */
export function releaseStanding(version: string | null): 'recorded' | 'source' | 'newer' | 'unknown' {
	if (version === null) return 'unknown';
	if (recorded.has(version)) return 'recorded';
	const [major, minor] = version.split('.').map(Number) as [number, number];
	return major === 0 && minor <= 21 ? 'source' : 'newer';
}

export function releaseFinding(caps: HermesCapabilities): Finding {
	const named = caps.versionLabel ? `${caps.version ?? 'of no release'} (${caps.versionLabel})` : caps.version ?? '';
	const standing = releaseStanding(caps.version);
	const message = {
		recorded: `Hermes ${named} is verified by recorded runs of the real release`,
		source: `Hermes ${named} is known from reading upstream's source only (no run of it was recorded): see docs/hermes-releases.md`,
		newer: `Hermes ${named} is newer than any release hermes-delegate was checked against; its flags are probed, what changed since 0.21 is not known`,
		unknown: `this Hermes names no release (${caps.versionLabel ?? 'its --version says none'}): nothing is assumed of it; its flags come from its chat --help`,
	}[standing];
	return {level: standing === 'recorded' || standing === 'source' ? 'ok' : 'warn', topic: 'release', message};
}

type HomeConfig = {file: string; text: string | undefined};

function readConfig(home: string): HomeConfig {
	const file = path.join(home, 'config.yaml');
	try {
		return {file, text: readFileSync(file, 'utf8')};
	} catch {
		return {file, text: undefined};
	}
}

function plain(text: string): Record<string, unknown> {
	try {
		const value: unknown = parse(text, hermesYamlOptions);
		return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

/** Findings for each home a batch opens sessions in: the root and each profile route's. */
export function homeReleaseFindings(hermesHome: string, profiles: readonly string[], caps: HermesCapabilities): Finding[] {
	const findings: Finding[] = [];
	for (const home of [hermesHome, ...profiles.map(name => profileDir(hermesHome, name))]) {
		const {file, text} = readConfig(home);
		if (text === undefined) continue;
		const duplicate = duplicateKeyIn(text);
		if (duplicate) {
			findings.push({level: 'error', topic: 'config keys', message: `${file}:${duplicate.line}: the key "${duplicate.key}" is written twice in one map: Hermes 0.21 and later (ruamel.yaml) refuse the whole file and may run on a last-known-good copy; older Hermes kept the last value`, fix: `keep one "${duplicate.key}:" in that map`});
		}

		const config = plain(text);
		const wantsTui = typeof record(config['display'])['interface'] === 'string' && String(record(config['display'])['interface']).trim().toLowerCase() === 'tui';
		if (wantsTui && !caps.probed) {
			findings.push({level: 'warn', topic: 'interface', message: `${file}: display.interface is tui; whether this Hermes takes --cli (so that its tasks answer instead of opening the TUI) is not known: no Hermes was probed`});
		} else if (wantsTui) {
			findings.push(caps.flags.cli
				? {level: 'ok', topic: 'interface', message: `${file}: display.interface is tui; hermes-delegate passes --cli, so its tasks answer instead of opening the TUI`}
				: {level: 'error', topic: 'interface', message: `${file}: display.interface is tui and this Hermes lists no --cli: a task may hand its run to the TUI, which without a terminal exits 0 having done nothing (counted as failed, no_answer)`, fix: 'set display.interface: cli in that config.yaml, or upgrade Hermes'});
		}

		const cap = sessionCapOf(config);
		if (cap !== undefined) {
			findings.push({level: 'ok', topic: 'session cap', message: `${file}: max_concurrent_sessions ${cap}: at most ${cap} session${cap === 1 ? '' : 's'} at once in this home, yours included; a batch's tasks there wait for a free slot, and one refused anyway fails as session_limit`});
		}

		const children = record(config['delegation'])['max_concurrent_children'];
		findings.push({level: 'ok', topic: 'fan-out', message: `${file}: each task's own delegate_task may run up to ${typeof children === 'number' && children > 0 ? children : '10 (Hermes\'s default)'} children at once (delegation.max_concurrent_children), inside the task and beside this batch's concurrency`});
	}

	findings.push({level: 'ok', topic: 'spend', message: 'spend figures are a lower bound: Hermes\'s own records (state.db) leave out auxiliary calls, retries, fallbacks and cache writes; a cost is Hermes\'s estimate where cost_status says estimated'});
	return findings;
}
