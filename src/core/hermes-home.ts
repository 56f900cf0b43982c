// Where Hermes keeps its files. Every path built from a profile name goes through
// validateProfileName first: a name from a config file is untrusted.
import {homedir} from 'node:os';
import path from 'node:path';

export function resolveHermesHome(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = env['HERMES_HOME'];
	return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.join(homedir(), '.hermes');
}

const profileNamePattern = /^[a-z\d][a-z\d_-]{0,63}$/;

/** Hermes's own normalisation: trimmed and lower-cased, then checked. Returns undefined when invalid. */
export function normaliseProfileName(raw: string): string | undefined {
	const name = raw.trim().toLowerCase();
	return profileNamePattern.test(name) ? name : undefined;
}

/** `default` is the home itself; any other profile lives in profiles/<name>/. */
export function profileDir(hermesHome: string, validName: string): string {
	return validName === 'default' ? hermesHome : path.join(hermesHome, 'profiles', validName);
}

export function runsDir(hermesHome: string): string {
	return path.join(hermesHome, 'delegate', 'runs');
}
