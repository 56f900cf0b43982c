// Where Hermes keeps its files. Every path built from a profile name goes through
// validateProfileName first: a name from a config file is untrusted.
import {existsSync, mkdirSync, statSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {parse} from 'yaml';
import {errnoCode, InputError, messageOf} from '../errors.js';
import {decodeUtf8, inputLimits, readBoundedFile} from '../text/read-text.js';
import {hermesYamlOptions} from '../text/yaml-locate.js';

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

const folderProblems: Record<string, string> = {
	EROFS: 'the file system is read-only',
	EACCES: 'no permission to write there',
	EPERM: 'no permission to write there',
	ENOSPC: 'the disk is full',
	EDQUOT: 'the disk quota is used up',
	ENOTDIR: 'a file stands where a folder is needed',
	EEXIST: 'a file stands where a folder is needed',
	ELOOP: 'a symlink loop is in the way',
	ENAMETOOLONG: 'the path is too long',
	// The folder above exists (the folders are made one by one from there): a file system such as /proc.
	ENOENT: 'the file system there does not take new folders',
};

/**
 * Creates `dir` and its missing parents (mode 0700), or throws an InputError naming the folder that
 * could not be made, the real reason and the fix. The folders are made one by one, never with a
 * recursive mkdir: that reports a read-only file system as ENOENT, and under /proc (where every
 * mkdir fails with ENOENT) Node's never returns.
 */
export function makeFolder(dir: string, fix: string): void {
	const failure = firstFailingFolder(dir);
	if (failure) throw folderError(failure.folder, failure.error, fix);
}

/** An error writing in `folder` as the operator needs it: the folder, the real reason, the fix. */
export function folderError(folder: string, error: unknown, fix: string): InputError {
	const code = errnoCode(error) ?? '';
	const message = messageOf(error);
	const why = folderProblems[code] ?? message;
	// A full disk is not a permission problem: say what would help.
	const specific = code === 'ENOSPC' || code === 'EDQUOT' ? `free space on that disk (or raise your quota), or point HERMES_HOME at another disk` : fix;
	return new InputError(`cannot create the folder ${folder}: ${why}${code && !message.includes(why) ? ` (${code})` : ''}`, {}, specific);
}

function firstFailingFolder(dir: string): {folder: string; error: unknown} | undefined {
	const missing: string[] = [];
	for (let folder = dir; !existsSync(folder); folder = path.dirname(folder)) {
		missing.unshift(folder);
		if (path.dirname(folder) === folder) break;
	}

	for (const folder of missing) {
		try {
			mkdirSync(folder, {mode: 0o700});
		} catch (error) {
			// Made meanwhile by someone else (a second dashboard starting): what is needed is there.
			if (errnoCode(error) !== 'EEXIST') return {folder, error};
		}
	}

	// Every folder exists now, so what failed was something else: a non-folder in the path.
	try {
		if (!statSync(dir).isDirectory()) {
			return {folder: dir, error: Object.assign(new Error('not a directory'), {code: 'ENOTDIR'})};
		}
	} catch (error) {
		return {folder: dir, error};
	}

	return undefined;
}

/** The fix for a HERMES_HOME we cannot write in. */
export function writableHomeFix(hermesHome: string): string {
	return `make ${hermesHome} writable for you, or point HERMES_HOME at a writable folder (runs are kept in $HERMES_HOME/delegate/runs)`;
}

/**
 * The model a profile's config.yaml names, read as Hermes reads it (YAML 1.1). A profile config
 * that is missing, too large or unreadable names none here: `doctor` is where its problems show,
 * and a pane only loses a label.
 */
export function profileModelIn(hermesHome: string): (name: string) => string | undefined {
	return name => {
		let value: unknown;
		try {
			const file = path.join(profileDir(hermesHome, name), 'config.yaml');
			value = parse(decodeUtf8(readBoundedFile(file, inputLimits.config), file), hermesYamlOptions);
		} catch {
			return undefined;
		}

		const model = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['model'] : undefined;
		const named = typeof model === 'string' ? model : typeof model === 'object' && model !== null ? (model as Record<string, unknown>)['default'] : undefined;
		return typeof named === 'string' && named.trim() !== '' ? named : undefined;
	};
}
