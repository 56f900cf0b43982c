// The config.yaml of every Hermes home a batch runs in, checked before anything starts: a file
// Hermes would not read as written (a key written twice, which Hermes 0.21's ruamel.yaml refuses
// whole; a character PyYAML refuses) makes Hermes run on something else (a last-known-good copy,
// or its defaults), so the profile's model and settings would not be the ones the plan shows.
// The delegation config itself is checked as it is read (parse.ts).
import {existsSync} from 'node:fs';
import path from 'node:path';
import {decodeUtf8, inputLimits, readBoundedFile} from '../text/read-text.js';
import {profileDir} from '../hermes/home.js';
import {checkHermesReadable, checkUniqueKeys} from '../yaml/pyyaml.js';

/** Throws an InputError (file, line, fix) for the first home config Hermes would not read as written. */
export function checkHomeConfigs(hermesHome: string, profiles: Iterable<string>, alreadyChecked: string): void {
	const files = new Set([...profiles].map(profile => path.join(profileDir(hermesHome, profile), 'config.yaml')));
	for (const file of files) {
		if (path.resolve(file) === path.resolve(alreadyChecked) || !existsSync(file)) continue;
		let text: string;
		try {
			text = decodeUtf8(readBoundedFile(file, inputLimits.config), file);
		} catch {
			continue; // unreadable here: doctor and the run's own warnings say so
		}

		checkHermesReadable(text, file);
		checkUniqueKeys(text, file);
	}
}
