// Hermes's own config.yaml, in four steps: read (config/read.ts, I/O), parse and validate
// (config/parse.ts, pure), edit (config/edit.ts, pure RouteEdits on the text), save
// (config/save.ts, atomic, with a conflict check). This file joins the first two for
// the commands that only read.
import {existsSync} from 'node:fs';
import path from 'node:path';
import type {Document} from 'yaml';
import type {DelegationConfig, RouteEdit} from '../types.js';
import {parseHermesConfig, type ParseConfigOptions} from './parse.js';
import {readConfigText} from './read.js';
import {commitRouteEdits, type CommitResult} from './save.js';
import {profileDir, profileModelIn} from '../hermes/home.js';

export type LoadedConfig = {
	delegation: DelegationConfig;
	/** The parsed file; undefined when the file does not exist. */
	document: Document | undefined;
	/** The file's text as loaded (undefined when absent): edits apply to it, saving checks it is unchanged. */
	text: string | undefined;
	hermesHome: string;
	warnings: string[];
};

export type LoadConfigOptions = {
	configPath: string;
	hermesHome: string;
	/**
	 * The path was given on purpose (`--config`): a missing file is then an error. The default
	 * path missing means Hermes was never configured for delegation: the built-in mode.
	 */
	explicit?: boolean | undefined;
};

export function loadHermesConfig(options: LoadConfigOptions): LoadedConfig {
	const {configPath, hermesHome} = options;
	const read = readConfigText(configPath, {explicit: options.explicit, defaultPath: defaultConfigPath(hermesHome)});
	const parsed = parseHermesConfig(read.text ?? '', {...parseOptionsFor(hermesHome, configPath), exists: read.exists});
	return {
		delegation: parsed.delegation,
		document: read.exists ? parsed.located.document : undefined,
		text: read.text,
		hermesHome,
		warnings: parsed.warnings,
	};
}

/**
 * Applies the edits to the file as it was loaded and saves it: each edit validated as loading
 * validates, nothing written when any is refused, and a change made on disk meanwhile kept.
 */
export function saveRouteEdits(loaded: LoadedConfig, edits: readonly RouteEdit[]): CommitResult {
	const configPath = loaded.delegation.source.path;
	const options = parseOptionsFor(loaded.hermesHome, configPath);
	return commitRouteEdits({
		configPath,
		loadedText: loaded.text,
		edits,
		validate: text => parseHermesConfig(text, options),
	});
}

/** What parsing asks of the home (which profiles exist, where, and the model each one's config names), answered from the disk. */
export function parseOptionsFor(hermesHome: string, configPath: string): ParseConfigOptions {
	return {file: configPath, profileExists: profileExistsIn(hermesHome), profileFolder: name => profileDir(hermesHome, name), profileModel: profileModelIn(hermesHome)};
}

/** The profile-existence question parsing asks, answered from the disk. */
export function profileExistsIn(hermesHome: string): (name: string) => boolean {
	return name => existsSync(profileDir(hermesHome, name));
}

export function defaultConfigPath(hermesHome: string): string {
	return path.join(hermesHome, 'config.yaml');
}
