// What the fake does at start-up that Hermes 0.21 does differently, read from upstream's source
// (docs/hermes-releases.md; no 0.21 release was run here), in the fake's own words:
// - config.yaml is read by ruamel.yaml in YAML 1.1 mode: a duplicate key or a syntax error is a
//   warning on stderr and the file is not used (Hermes may run on a last-known-good copy instead);
// - a run without HERMES_HOME whose default home has a sticky non-default active_profile warns on
//   stderr that its spawner should have passed HERMES_HOME;
// - a refused start names its machine-readable reason on the line before the message.
// And what every release since June 2026 does (upstream PR 42389): `max_concurrent_sessions`, at
// the top of config.yaml or else under `gateway:`, caps the chat sessions open at once in a home;
// one over it is refused and exits 1.
import {existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {parseDocument} from 'yaml';
import type {ChatCommand} from './command-line.js';
import {isRealDefaultHome} from './state-db.js';
import type {FakeVersion} from './versions.js';

/** The home a run uses: -p NAME's, else the root (HERMES_HOME, or ~/.hermes). */
export function runHome(command: ChatCommand, env: NodeJS.ProcessEnv): string {
	const root = env['HERMES_HOME']?.trim() || join(homedir(), '.hermes');
	return command.profile === undefined || command.profile === 'default' ? root : join(root, 'profiles', command.profile);
}

type Config = {value: Record<string, unknown>; problem?: string};

/** config.yaml as the release reads it: 0.21 refuses duplicate keys (ruamel), older ones keep the last. */
export function readConfig(home: string, version: FakeVersion): Config {
	let text: string;
	try {
		text = readFileSync(join(home, 'config.yaml'), 'utf8');
	} catch {
		return {value: {}};
	}

	const document = parseDocument(text, {version: '1.1', uniqueKeys: version.newer === true});
	const error = document.errors[0];
	if (error) return {value: {}, problem: error.message.split('\n')[0]};
	const value: unknown = document.toJS();
	return {value: typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}};
}

/** The stderr lines a 0.21 start prints before anything else. */
export function startWarnings(command: ChatCommand, env: NodeJS.ProcessEnv, config: Config, home: string): string[] {
	const lines: string[] = [];
	if (!env['HERMES_HOME']?.trim() && command.profile === undefined) {
		const root = join(homedir(), '.hermes');
		const active = existsSync(join(root, 'active_profile')) ? readFileSync(join(root, 'active_profile'), 'utf8').trim() : '';
		if (active !== '' && active !== 'default') {
			lines.push(`[HERMES_HOME fallback] no HERMES_HOME is set, yet the active profile is '${active}': this run uses ${root}, the default profile, so what it writes lands there; whoever starts hermes should pass HERMES_HOME`);
		}
	}

	if (config.problem !== undefined) {
		lines.push(`Warning: ${join(home, 'config.yaml')} could not be read (${config.problem}); it is not used for this run`);
	}

	return lines;
}

/** The cap as upstream's resolve_max_concurrent_sessions reads it: a positive whole number, else none. */
export function sessionCap(config: Record<string, unknown>): number | undefined {
	const gateway = config['gateway'];
	const raw = 'max_concurrent_sessions' in config
		? config['max_concurrent_sessions']
		: typeof gateway === 'object' && gateway !== null ? (gateway as Record<string, unknown>)['max_concurrent_sessions'] : undefined;
	const parsed = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
	return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as {code?: string}).code === 'EPERM';
	}
}

/**
 * Takes one of the home's `cap` session slots, or says why not. A slot is a file named by our pid
 * under runtime/fake-sessions/ (Hermes keeps a locked lease list, runtime/active_sessions.json):
 * written first, then the live ones counted, so two starts at once may both be refused, never both
 * let in over the cap. The slot is given back when the process exits.
 */
export function takeSessionSlot(home: string, cap: number, version: FakeVersion): string | undefined {
	if (isRealDefaultHome(home)) return undefined; // the user's real home: the fake writes nothing there
	const folder = join(home, 'runtime', 'fake-sessions');
	mkdirSync(folder, {recursive: true});
	const mine = join(folder, String(process.pid));
	writeFileSync(mine, '');
	const release = () => {
		try {
			unlinkSync(mine);
		} catch {}
	};

	const held = readdirSync(folder).map(Number).filter((pid) => Number.isInteger(pid) && alive(pid));
	if (held.length > cap) {
		release();
		const message = `Hermes is at the active session limit (${held.length - 1}/${cap}). Try again when another session finishes.`;
		return version.newer ? `hermes-refusal-reason: MAX_CONCURRENT_SESSIONS\n${message}\n` : `${message}\n`;
	}

	process.on('exit', release);
	return undefined;
}
