// The last step of saving config.yaml: new text in place of old by rename, so a reader sees the
// old file or the new one and never half of one, and only if the file still holds what the
// caller expects. Writers that take no lock (`hermes config edit`) can still slip in between the
// last check and the rename; the window is kept to a few system calls, and the file the rename
// replaced is held by a hard link until it has been checked, so an edit made in place in that
// window is handed back to the caller instead of lost.
import {closeSync, fchmodSync, fchownSync, fstatSync, fsyncSync, linkSync, openSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats} from 'node:fs';
import path from 'node:path';
import {decodeUtf8} from './read.js';
import {inputLimits, readBoundedFile} from '../text/read-text.js';
import {errnoCode, InputError, messageOf} from '../errors.js';

export type ReplaceOutcome =
	/** Saved. `replaced` is the text the rename replaced: not the expected one means a writer slipped in. */
	| {kind: 'saved'; target: string; replaced: string | undefined; otherHardLinks: number}
	/** Not saved: the file no longer holds the expected text (`now` is what it holds). */
	| {kind: 'changed'; now: string | undefined};

/** The file written for `configPath`: a symlink's target, or the path itself when absent. */
export function targetOf(configPath: string): string {
	try {
		return realpathSync(configPath);
	} catch {
		return path.resolve(configPath);
	}
}

export function readCurrent(configPath: string): string | undefined {
	try {
		return decodeUtf8(readBoundedFile(configPath, inputLimits.config), configPath);
	} catch (error) {
		if (errnoCode(error) === 'ENOENT') {
			return undefined;
		}

		throw error instanceof InputError ? error : new InputError(`cannot be read again before saving: ${errnoCode(error) ?? messageOf(error)}`, {file: configPath}, 'check the file and its folder, then try again');
	}
}

/**
 * Writes `text` to the file `configPath` names if it still holds `expected` (undefined: it must
 * not exist). Call with the config's lock held: leftovers of killed saves are swept here.
 */
export function replaceFile(configPath: string, text: string, expected: string | undefined): ReplaceOutcome {
	const target = targetOf(configPath);
	const existing = expected === undefined ? undefined : statSync(target);
	if (existing && (existing.mode & 0o222) === 0) {
		// Replacing by rename would succeed (the folder is writable) and silently undo the chmod.
		throw new InputError(`is read-only (mode ${(existing.mode & 0o777).toString(8).padStart(4, '0')}); nothing was saved`, {file: configPath}, `make it writable (\`chmod u+w ${target}\`) if it is meant to be changed, then try again`);
	}

	const folder = path.dirname(target);
	sweepLeftovers(target);
	const stamp = `${process.pid}-${Date.now().toString(36)}`;
	const temporary = path.join(folder, `.${path.basename(target)}.hermes-delegate-${stamp}.tmp`);
	const held = path.join(folder, `.${path.basename(target)}.hermes-delegate-${stamp}.kept`);
	let fd: number | undefined;
	try {
		// 0600 until the very end: the text may hold API keys, and a save killed midway leaves
		// this file behind (swept by the next save).
		fd = openSync(temporary, 'wx', 0o600);
		if (existing && (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.())) {
			fchownSync(fd, existing.uid, existing.gid);
		}

		writeAll(fd, Buffer.from(text, 'utf8'));
		fsyncSync(fd);
		fchmodSync(fd, existing ? existing.mode & 0o7777 : 0o644);
		closeSync(fd);
		fd = undefined;
		if (expected === undefined) {
			return createOnly(temporary, target);
		}

		const holding = hold(target, held);
		const now = decodeUtf8(readBoundedFile(holding ? held : target, inputLimits.config), configPath);
		if (now !== expected || (holding && statSync(target).ino !== holding.ino)) {
			return {kind: 'changed', now: readCurrent(configPath)};
		}

		renameSync(temporary, target);
		const replaced = holding ? decodeUtf8(readBoundedFile(held, inputLimits.config), configPath) : expected;
		syncFolder(folder);
		return {kind: 'saved', target, replaced, otherHardLinks: existing!.nlink - 1};
	} catch (error) {
		if (fd !== undefined) {
			closeSync(fd);
		}

		if (error instanceof InputError) {
			throw error;
		}

		throw saveProblem(configPath, folder, error);
	} finally {
		removeQuietly(temporary);
		removeQuietly(held);
	}
}

/** A new file by link, which (unlike rename) fails when someone created the file meanwhile. */
function createOnly(temporary: string, target: string): ReplaceOutcome {
	try {
		linkSync(temporary, target);
	} catch (error) {
		if (errnoCode(error) === 'EEXIST') {
			return {kind: 'changed', now: readCurrent(target)};
		}

		throw error;
	}

	syncFolder(path.dirname(target));
	return {kind: 'saved', target, replaced: undefined, otherHardLinks: 0};
}

function writeAll(fd: number, bytes: Buffer): void {
	let written = 0;
	while (written < bytes.length) {
		written += writeSync(fd, bytes, written);
	}
}

/** A hard link to the file about to be replaced; undefined where the file system has none. */
function hold(target: string, held: string): Stats | undefined {
	try {
		linkSync(target, held);
	} catch (error) {
		if (['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK'].includes(errnoCode(error) ?? '')) {
			return undefined;
		}

		throw error;
	}

	const fd = openSync(held, 'r');
	try {
		return fstatSync(fd);
	} finally {
		closeSync(fd);
	}
}

function removeQuietly(file: string): void {
	try {
		unlinkSync(file);
	} catch {
		// Never made, or already renamed into place.
	}
}

/**
 * Removes what killed saves of this file left beside it (temporary copies that may hold API
 * keys, held links, lock drafts), when the process that made them is gone.
 */
export function sweepLeftovers(target: string): void {
	const folder = path.dirname(target);
	const prefix = `.${path.basename(target)}.hermes-delegate`;
	let names: string[];
	try {
		names = readdirSync(folder);
	} catch {
		return;
	}

	for (const name of names) {
		if (!name.startsWith(prefix)) {
			continue;
		}

		const owner = /^(?:-(\d+)-[\da-z]+\.(?:tmp|kept)|\.lock\.(\d+)\.[\da-z]+|\.lock\.stale\.(\d+))$/.exec(name.slice(prefix.length));
		const pid = Number(owner?.[1] ?? owner?.[2] ?? owner?.[3]);
		if (owner && pid !== process.pid && !isRunning(pid)) {
			removeQuietly(path.join(folder, name));
		}
	}
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return errnoCode(error) === 'EPERM';
	}
}

export function saveProblem(file: string, folder: string, error: unknown): InputError {
	const unchanged = 'the file was not changed';
	switch (errnoCode(error)) {
		case 'EROFS': {
			return new InputError(`cannot save: ${folder} is on a read-only file system; ${unchanged}`, {file}, 'save on a writable file system, or make the change by hand where you can write');
		}

		case 'EACCES':
		case 'EPERM': {
			return new InputError(`cannot save: no permission to create files in ${folder} or to keep the file's owner; ${unchanged}`, {file}, `run as the owner of ${file}, or let this user write to ${folder} (the file is replaced by rename, so the folder must be writable)`);
		}

		case 'ENOSPC':
		case 'EDQUOT': {
			return new InputError(`cannot save: no space left on the disk of ${folder}; ${unchanged}`, {file}, 'free some disk space and try again');
		}

		default: {
			return new InputError(`cannot save: ${errnoCode(error) ?? messageOf(error)}; ${unchanged}`, {file}, 'check the file and its folder, then try again');
		}
	}
}

/** The rename is durable only once the folder's entry is on disk too. */
function syncFolder(folder: string): void {
	try {
		const fd = openSync(folder, 'r');
		try {
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	} catch {
		// Some file systems cannot fsync a folder; the rename itself has happened.
	}
}
