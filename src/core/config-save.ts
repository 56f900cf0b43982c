// Step four of the config: RouteEdits saved into config.yaml so that nothing of the operator's
// file is lost. Atomic (a temporary file in the same folder, fsync, rename), mode and owner kept,
// a symlink written through to its target, and never over a change someone else made since the
// file was loaded: that change is kept, and the edit is re-applied on top only when it does not
// touch what the edit touches.
import {closeSync, fchmodSync, fchownSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats} from 'node:fs';
import path from 'node:path';
import {parse} from 'yaml';
import {applyRouteEdit, describeEdit, routesPath, type RouteEdit} from './config-edit.js';
import {decodeUtf8} from './config-read.js';
import {InputError} from './errors.js';
import {normaliseProfileName} from './hermes-home.js';
import {formatDiff, lineDiff} from './line-diff.js';
import {terminalSafe} from './visible-text.js';
import {hermesYamlOptions} from './yaml-locate.js';

export type CommitOptions = {
	configPath: string;
	/** The text the edits were made against (undefined: the file did not exist). */
	loadedText: string | undefined;
	edits: readonly RouteEdit[];
	/** The same validation as loading; throws an InputError for a config it would refuse. */
	validate(text: string): void;
};

export type CommitResult = {
	configPath: string;
	/** The file that was written: the symlink's target when configPath is a symlink. */
	writtenPath: string | undefined;
	before: string;
	after: string;
	/** Someone changed the file after it was loaded; the edit was re-applied on top of it. */
	externalChange?: {before: string; after: string} | undefined;
};

/** A change made on disk since loading touches what the edit changes: nothing was saved. */
export class ConfigConflictError extends InputError {}

export function commitRouteEdits(options: CommitOptions): CommitResult {
	const {configPath, edits} = options;
	const loaded = options.loadedText ?? '';
	const edited = applyAll(loaded, options);
	const current = readCurrent(configPath);
	let base = loaded;
	let after = edited;
	let externalChange: CommitResult['externalChange'];
	if ((current ?? '') !== loaded || (current === undefined) !== (options.loadedText === undefined)) {
		const touched = edits.filter(edit => snapshot(loaded, edit) !== snapshot(current ?? '', edit));
		if (touched.length > 0) {
			throw conflict(configPath, loaded, current ?? '', `it changes what this edit changes (${touched.map(describeEdit).join('; ')})`);
		}

		base = current ?? '';
		after = applyAll(base, options);
		externalChange = {before: loaded, after: base};
	}

	if (after === base) {
		return {configPath, writtenPath: undefined, before: base, after, externalChange};
	}

	const writtenPath = writeAtomically(configPath, after, current);
	return {configPath, writtenPath, before: base, after, externalChange};
}

function applyAll(text: string, options: CommitOptions): string {
	let out = text;
	for (const edit of options.edits) {
		out = applyRouteEdit(out, edit, options.configPath);
		options.validate(out);
	}

	return out;
}

function conflict(file: string, loaded: string, current: string, why: string): ConfigConflictError {
	// The other writer's lines are untrusted text like the rest of the file.
	const diff = formatDiff(lineDiff(loaded, current), terminalSafe);
	return new ConfigConflictError(
		`changed on disk since it was loaded, and ${why}; nothing was saved. What changed:\n${diff.map(line => `    ${line}`).join('\n')}`,
		{file},
		'look at the file as it is now and make the change again',
	);
}

/** What an edit depends on, as text: if it differs between two versions, the edit does not re-apply cleanly. */
function snapshot(text: string, edit: RouteEdit): string {
	let root: unknown;
	try {
		root = parse(text, {maxAliasCount: 100, ...hermesYamlOptions});
	} catch {
		return 'unreadable';
	}

	const get = (keys: string[]) => keys.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), root);
	if (edit.kind === 'set-mode') {
		return JSON.stringify(get(['delegation', 'backend']) ?? null);
	}

	const name = edit.kind === 'add-route' ? edit.route.name : edit.name;
	const wanted = edit.list === 'profile_routes' ? normaliseProfileName(name) ?? name.trim() : name.trim();
	const routes = get(routesPath(edit.list));
	const route = Array.isArray(routes) ? routes.find(item => {
		const written = (item as {name?: unknown} | null)?.name;
		return typeof written === 'string' && (edit.list === 'profile_routes' ? normaliseProfileName(written) ?? written.trim() : written.trim()) === wanted;
	}) as unknown : undefined;
	const fieldValue = edit.kind === 'set-default' ? get(['delegation', 'backends', edit.list, 'default']) : undefined;
	return JSON.stringify({route: route ?? null, default: fieldValue ?? null});
}

function readCurrent(configPath: string): string | undefined {
	try {
		return decodeUtf8(readFileSync(configPath), configPath);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}

		throw error instanceof InputError ? error : new InputError(`cannot be read again before saving: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {file: configPath}, 'check the file and its folder, then try again');
	}
}

/**
 * Writes `text` to the file `configPath` names (through a symlink) by rename, so a reader sees
 * the old file or the new one and never half of one. `expected` is what the file must still
 * hold just before the rename. Returns the path written.
 */
function writeAtomically(configPath: string, text: string, expected: string | undefined): string {
	const target = expected === undefined ? configPath : realpathSync(configPath);
	const existing: Stats | undefined = expected === undefined ? undefined : statSync(target);
	const folder = path.dirname(target);
	const temporary = path.join(folder, `.${path.basename(target)}.hermes-delegate-${process.pid}-${Date.now().toString(36)}.tmp`);
	let fd: number | undefined;
	try {
		fd = openSync(temporary, 'wx', 0o600);
		// Mode and owner first, while only we can see the file: it may hold API keys.
		fchmodSync(fd, existing ? existing.mode & 0o7777 : 0o644);
		if (existing && (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.())) {
			fchownSync(fd, existing.uid, existing.gid);
		}

		const bytes = Buffer.from(text, 'utf8');
		let written = 0;
		while (written < bytes.length) {
			written += writeSync(fd, bytes, written);
		}

		fsyncSync(fd);
		closeSync(fd);
		fd = undefined;
		const now = readCurrent(configPath);
		if (now !== expected) {
			throw conflict(configPath, expected ?? '', now ?? '', 'it changed again while saving');
		}

		renameSync(temporary, target);
	} catch (error) {
		if (fd !== undefined) {
			closeSync(fd);
		}

		try {
			unlinkSync(temporary);
		} catch {
			// It was never created, or the rename already moved it.
		}

		if (error instanceof InputError) {
			throw error;
		}

		throw saveProblem(configPath, folder, error as NodeJS.ErrnoException);
	}

	syncFolder(folder);
	return target;
}

function saveProblem(file: string, folder: string, error: NodeJS.ErrnoException): InputError {
	const unchanged = 'the file was not changed';
	switch (error.code) {
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
			return new InputError(`cannot save: ${error.code ?? error.message}; ${unchanged}`, {file}, 'check the file and its folder, then try again');
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
