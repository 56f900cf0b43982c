// Step four of the config: RouteEdits saved into config.yaml so that nothing of the operator's
// file is lost. Atomic (a temporary file in the same folder, fsync, rename), mode and owner kept,
// a symlink written through to its target, and never over a change someone else made since the
// file was loaded: that change is kept, and the edit is re-applied on top only when it does not
// touch what the edit touches. hermes-delegate's saves of one file take turns (config/lock.ts);
// the rename itself, and catching a lock-less writer around it, is config/replace.ts.
import path from 'node:path';
import {parse} from 'yaml';
import {applyRouteEdit, describeEdit, routesPath} from './edit.js';
import type {RouteEdit} from '../types.js';
import {withConfigLock} from './lock.js';
import {readCurrent, replaceFile, saveProblem, targetOf} from './replace.js';
import {InputError} from '../errors.js';
import {normaliseProfileName} from '../hermes/home.js';
import {formatDiff, lineDiff} from '../text/line-diff.js';
import {terminalSafe} from '../output/visible-text.js';
import {hermesYamlOptions} from '../text/yaml-locate.js';
import {readSettled} from './settle.js';

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
	/** A writer that takes no lock saved at the same instant; the edit was re-applied over it (its change kept). */
	savedOver?: boolean | undefined;
	/** Other hard links to the file, which keep the old text: saving replaces the file by rename. */
	otherHardLinks?: number | undefined;
};

/** A change made on disk since loading touches what the edit changes: nothing was saved. */
export class ConfigConflictError extends InputError {}

const maxAttempts = 8;

export function commitRouteEdits(options: CommitOptions): CommitResult {
	// Refused against the text it was made on before anything else: a bad value never waits for a lock.
	applyAll(options.loadedText ?? '', options);
	try {
		return withConfigLock(targetOf(options.configPath), () => commitLocked(options));
	} catch (error) {
		throw error instanceof InputError ? error : saveProblem(options.configPath, path.dirname(targetOf(options.configPath)), error);
	}
}

/**
 * With the lock held no other hermes-delegate saves; a writer that takes no lock still can, so
 * every step re-reads: the edit goes on top of what the file holds, and after the rename the
 * file must still hold the edit, or it is re-applied (never reported saved while missing).
 */
function commitLocked(options: CommitOptions): CommitResult {
	const {configPath, edits} = options;
	const loaded = options.loadedText ?? '';
	// Never built on a file another program is still writing (settle.ts): half of it is valid YAML.
	const settled = readSettled(configPath, () => readCurrent(configPath));
	if (!settled.ok) {
		throw new InputError(`is being written by another program (${settled.why}); nothing was saved`, {file: configPath}, 'let the other program finish (or close the editor that writes it), then make the change again');
	}

	let onDisk = settled.value;
	let base = onDisk;
	let savedOver = false;
	for (let attempt = 0; attempt < maxAttempts; attempt++) {
		if ((base ?? '') !== loaded || (base === undefined) !== (options.loadedText === undefined)) {
			const touched = edits.filter(edit => snapshot(loaded, edit) !== snapshot(base ?? '', edit));
			if (touched.length > 0) {
				if (onDisk !== base && base !== undefined) {
					// The other writer's text was replaced by this save an instant ago: it goes back.
					replaceFile(configPath, base, onDisk);
				}

				throw conflict(configPath, loaded, base ?? '', `it changes what this edit changes (${touched.map(describeEdit).join('; ')})`);
			}
		}

		const externalChange = (base ?? '') === loaded ? undefined : {before: loaded, after: base ?? ''};
		const after = applyAll(base ?? '', options);
		refuseUnshownDrops(configPath, base ?? '', after, loaded, options);
		if (after === onDisk) {
			return {configPath, writtenPath: undefined, before: base ?? '', after, externalChange, savedOver};
		}

		const outcome = replaceFile(configPath, after, onDisk);
		if (outcome.kind === 'changed') {
			// Changed between the re-read and the rename: nothing was written; start from it.
			onDisk = outcome.now;
			base = outcome.now;
			continue;
		}

		if (outcome.replaced !== onDisk) {
			// Written in place in the last instant before the rename: that text was replaced, and is
			// put back with the edit on top of it.
			savedOver = true;
			onDisk = after;
			base = outcome.replaced;
			continue;
		}

		const now = readCurrent(configPath);
		if (now !== after && edits.some(edit => snapshot(now ?? '', edit) !== snapshot(after, edit))) {
			// Saved over right after the rename by a writer that had read the file before it.
			savedOver = true;
			onDisk = now;
			base = now;
			continue;
		}

		return {configPath, writtenPath: outcome.target, before: base ?? '', after, externalChange, savedOver, otherHardLinks: outcome.otherHardLinks};
	}

	throw new InputError(`kept being changed by another program while saving (${maxAttempts} tries); the edit may not be in it`, {file: configPath}, 'stop the other program that is editing it (e.g. `hermes config edit`), look at the file, and make the change again');
}

/**
 * The edit, re-applied on top of the file as it now is, may remove only the lines it removed from
 * the text it was made on: anything more would be lost without the diff ever showing it.
 */
function refuseUnshownDrops(file: string, base: string, after: string, loaded: string, options: CommitOptions): void {
	const removable = new Map<string, number>();
	for (const line of lineDiff(loaded, applyAll(loaded, options)).flatMap(hunk => hunk.removed)) removable.set(line, (removable.get(line) ?? 0) + 1);
	const unshown = lineDiff(base, after).flatMap(hunk => hunk.removed).filter(line => {
		const left = removable.get(line) ?? 0;
		removable.set(line, left - 1);
		return left <= 0;
	});
	if (unshown.length > 0) {
		throw new InputError(`saving this edit would also drop ${unshown.length} line(s) it does not change (${unshown.slice(0, 3).map(line => JSON.stringify(terminalSafe(line))).join(', ')}${unshown.length > 3 ? ', …' : ''}); nothing was saved`, {file}, 'look at the file as it is now and make the change again');
	}
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
