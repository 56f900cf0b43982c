// Steering a running batch: a change to the routing is saved into Hermes's config.yaml (through
// the same RouteEdits as `hermes-delegate config`), recorded in the run folder's changes.jsonl,
// and only then sent to the runner as its routing message, which re-plans what has not started.
// An edit that cannot be saved changes nothing, the plan included. Changes made to the file by
// someone else while the batch runs are picked up the same way (watch()).
import {readdirSync, unwatchFile, watchFile, type Stats} from 'node:fs';
import path from 'node:path';
import {isDeepStrictEqual} from 'node:util';
import {appendChanges, changeRecords} from './changes.js';
import {describeEdit} from './edit.js';
import type {DelegationConfig, RouteEdit, SteerOutcome} from '../types.js';
import {parseHermesConfig} from './parse.js';
import {loadHermesConfig, parseOptionsFor, saveRouteEdits, type LoadedConfig} from './config.js';
import {readCurrent} from './replace.js';
import {readSettled} from './settle.js';
import {ConfigConflictError, type CommitResult} from './save.js';
import {errnoCode, InputError, messageOf} from '../errors.js';
import {normaliseProfileName} from '../hermes/home.js';
import {terminalSafe} from '../output/visible-text.js';
import {joinLines} from '../text/lines.js';

export type SteeringOptions = {
	/** The run folder: changes.jsonl is appended there. */
	runDir: string;
	/** The runner's routing message; returns the ids of the tasks whose plan changed. */
	applyRouting(delegation: DelegationConfig): string[];
};

export class BatchSteering {
	private loaded: LoadedConfig;

	constructor(loaded: LoadedConfig, private readonly options: SteeringOptions) {
		this.loaded = loaded;
	}

	/** The routing config as it now stands (as saved, or as last read from the file). */
	get delegation(): DelegationConfig {
		return this.loaded.delegation;
	}

	/**
	 * The profiles under $HERMES_HOME/profiles/ that no profile route names yet: what a new profile
	 * route can be. Only folders whose name Hermes would read as written (valid, lower-case).
	 */
	unroutedProfiles(): string[] {
		const routed = new Set(this.loaded.delegation.profileRoutes.profiles.map(route => route.name));
		let entries;
		try {
			entries = readdirSync(path.join(this.loaded.hermesHome, 'profiles'), {withFileTypes: true});
		} catch {
			return []; // no profiles folder: no profiles
		}

		return entries
			.filter(entry => entry.isDirectory() && normaliseProfileName(entry.name) === entry.name && !routed.has(entry.name))
			.map(entry => entry.name)
			.sort();
	}

	/** Saves the edits, records them, re-plans. Bad or conflicting edits save and re-plan nothing. */
	edit(edits: readonly RouteEdit[]): SteerOutcome {
		const what = edits.map(describeEdit).join('; ');
		const configPath = this.loaded.delegation.source.path;
		let after: LoadedConfig;
		let result: CommitResult;
		try {
			result = saveRouteEdits(this.loaded, edits);
			after = this.parsed(result.after);
		} catch (error) {
			if (error instanceof InputError) {
				// One line: it is shown in a notice or in place in the editor (a conflict's diff is in the message).
				return {ok: false, conflict: error instanceof ConfigConflictError, message: joinLines(`could not ${what}: ${terminalSafe(error.message)}${error.fix ? ` (${terminalSafe(error.fix)})` : ''}; nothing changed`)};
			}

			throw error;
		}

		const before = this.loaded.delegation;
		this.loaded = after;
		let recorded = '';
		try {
			appendChanges(this.options.runDir, changeRecords(edits, before, after.delegation));
		} catch (error) {
			recorded = `; but changes.jsonl could not be written: ${errnoCode(error) ?? messageOf(error)}`;
		}

		const replanned = this.options.applyRouting(after.delegation);
		const notes = [
			...(result.savedOver ? ['another program saved at the same moment: its change was kept, this edit re-applied on top'] : []),
			...(result.otherHardLinks ? [`the file had ${result.otherHardLinks} other hard link(s), which keep the old text`] : []),
		].map(note => `; ${note}`).join('');
		return {ok: true, delegation: after.delegation, replanned, message: `saved to ${terminalSafe(configPath)}: ${what}; ${replannedText(replanned)}${recorded}${notes}`};
	}

	/**
	 * Re-reads the config file now (the operator's reload after a conflict): the routing as the
	 * file says, re-planned when it differs. A file that cannot be used changes nothing.
	 */
	reload(): SteerOutcome {
		const configPath = this.loaded.delegation.source.path;
		let reloaded: LoadedConfig;
		try {
			reloaded = loadHermesConfig({configPath, hermesHome: this.loaded.hermesHome, explicit: this.loaded.delegation.source.exists});
		} catch (error) {
			return {ok: false, conflict: true, message: joinLines(`${terminalSafe(configPath)} cannot be used (${terminalSafe(messageOf(error))}); the plan is unchanged`)};
		}

		const before = this.loaded.delegation;
		this.loaded = reloaded;
		const changed = !isDeepStrictEqual({...before, source: null}, {...reloaded.delegation, source: null});
		const replanned = changed ? this.options.applyRouting(reloaded.delegation) : [];
		return {ok: true, delegation: reloaded.delegation, replanned, message: `re-read ${terminalSafe(configPath)}; ${changed ? replannedText(replanned) : 'the routing is as it was'}`};
	}

	/**
	 * Watches the config file for changes made by others (`hermes config edit` meanwhile): a
	 * changed, valid routing re-plans like an edit; an invalid file is reported and ignored.
	 * Polls the file's status (`intervalMs`), which also follows an editor's replace-by-rename.
	 */
	watch(onChange: (outcome: SteerOutcome) => void, intervalMs = 500): () => void {
		const configPath = this.loaded.delegation.source.path;
		let retry: NodeJS.Timeout | undefined;
		let waiting = false;
		const listener = (current: Stats, previous: Stats) => {
			if (current.mtimeMs === previous.mtimeMs && current.size === previous.size && current.ino === previous.ino) {
				return;
			}

			reloadSettled();
		};

		// A file another program is still writing is not re-planned from (settle.ts): looked at again
		// each interval until it has settled, since a writer that pauses changes no status to poll.
		const reloadSettled = () => {
			clearTimeout(retry);
			retry = undefined;
			let settled;
			try {
				settled = readSettled(configPath, () => readCurrent(configPath), {patience: 0});
			} catch {
				settled = {ok: true as const, value: undefined};
			}

			if (!settled.ok) {
				// Said once per wait: the dashboard shows why the plan has not followed the file yet.
				if (!waiting) onChange({ok: false, message: `${terminalSafe(configPath)} changed on disk and is still being written (${terminalSafe(settled.why)}); the plan waits until it has settled`});
				waiting = true;
				retry = setTimeout(reloadSettled, intervalMs);
				retry.unref();
				return;
			}

			waiting = false;

			let reloaded: LoadedConfig;
			try {
				reloaded = loadHermesConfig({configPath, hermesHome: this.loaded.hermesHome, explicit: this.loaded.delegation.source.exists});
			} catch (error) {
				onChange({ok: false, message: `${terminalSafe(configPath)} changed on disk but cannot be used (${terminalSafe(messageOf(error))}); the plan is unchanged`});
				return;
			}

			if (reloaded.text === this.loaded.text) {
				return; // our own save
			}

			const before = this.loaded.delegation;
			this.loaded = reloaded;
			if (isDeepStrictEqual({...before, source: null}, {...reloaded.delegation, source: null})) {
				return; // something outside the routing changed
			}

			const replanned = this.options.applyRouting(reloaded.delegation);
			onChange({ok: true, delegation: reloaded.delegation, replanned, message: `${terminalSafe(configPath)} changed on disk; ${replannedText(replanned)}`});
		};

		watchFile(configPath, {interval: intervalMs, persistent: false}, listener);
		return () => {
			clearTimeout(retry);
			unwatchFile(configPath, listener);
		};
	}

	private parsed(text: string): LoadedConfig {
		const {hermesHome} = this.loaded;
		const configPath = this.loaded.delegation.source.path;
		const parsed = parseHermesConfig(text, parseOptionsFor(hermesHome, configPath));
		return {delegation: parsed.delegation, document: parsed.located.document, text, hermesHome, warnings: parsed.warnings};
	}
}

function replannedText(ids: readonly string[]): string {
	return ids.length === 0 ? 'no queued task changed route' : `re-planned ${ids.join(', ')}`;
}
