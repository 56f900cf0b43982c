// `max_concurrent_sessions` of a Hermes home: at most that many chat sessions open at once in it,
// counted across Hermes's CLI, TUI, desktop and messaging gateway (upstream
// hermes_cli/active_sessions.py; PR 42389, June 2026). A `hermes chat` over it is refused: "Hermes
// is at the active session limit (N/M)", exit 1. Each profile is a home of its own, with its own
// config.yaml and its own count. Read here as Hermes resolves it, so a batch never starts more in
// one home than Hermes lets in (docs/hermes-releases.md).
import path from 'node:path';
import {parse} from 'yaml';
import {decodeUtf8, inputLimits, readBoundedFile} from '../text/read-text.js';
import {hermesYamlOptions} from '../text/yaml-locate.js';
import {normaliseProfileName, profileDir} from './home.js';

/**
 * The cap as upstream's resolve_max_concurrent_sessions reads it: the top-level key when the file
 * has it (even empty), else `gateway.max_concurrent_sessions`; a positive whole number (or one
 * written as text), anything else (0, null, a boolean, a fraction) is no cap.
 */
export function sessionCapOf(config: unknown): number | undefined {
	if (typeof config !== 'object' || config === null) return undefined;
	const root = config as Record<string, unknown>;
	const gateway = root['gateway'];
	const raw = 'max_concurrent_sessions' in root
		? root['max_concurrent_sessions']
		: typeof gateway === 'object' && gateway !== null ? (gateway as Record<string, unknown>)['max_concurrent_sessions'] : undefined;
	const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw) ? Number.parseInt(raw, 10) : Number.NaN;
	return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The cap of `profile`'s home (`default`: the root), or undefined: none, or a config that cannot be read (doctor says why). */
export function sessionCapIn(hermesHome: string, profile: string): number | undefined {
	const name = normaliseProfileName(profile);
	if (name === undefined) return undefined;
	try {
		const file = path.join(profileDir(hermesHome, name), 'config.yaml');
		return sessionCapOf(parse(decodeUtf8(readBoundedFile(file, inputLimits.config), file), hermesYamlOptions));
	} catch {
		return undefined;
	}
}

/**
 * The cap of any home, each read once, when a task of it first asks: the batch's own homes and one
 * a task is re-routed into later. A config edited during the batch is not read again.
 */
export function sessionCapReader(hermesHome: string): (profile: string) => number | undefined {
	const known = new Map<string, number | undefined>();
	return profile => {
		if (!known.has(profile)) known.set(profile, sessionCapIn(hermesHome, profile));
		return known.get(profile);
	};
}
