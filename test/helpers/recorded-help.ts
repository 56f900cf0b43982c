// The real help texts of Hermes 0.19.0 and 0.20.0, read from the recordings beside the project
// (../shared/hermes-agent/recorded): the project keeps no copy of Hermes's own words, so a
// checkout without that folder skips these tests, saying where it looked.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const recordedDir = fileURLToPath(new URL('../../../shared/hermes-agent/recorded/', import.meta.url));
export const recordedReleases = ['0.19.0', '0.20.0'] as const;
export type RecordedRelease = (typeof recordedReleases)[number];

let logged = false;

/** Why tests that read the recordings skip (logged once per file), or undefined when they are there. */
export function recordingsMissing(): string | undefined {
	if (existsSync(path.join(recordedDir, '0.19.0', 'chat-help.json'))) return undefined;
	const why = `skipped: no Hermes recordings at ${recordedDir} (they live beside the project, in ../shared/hermes-agent/recorded)`;
	if (!logged) console.warn(why);
	logged = true;
	return why;
}

/** What `hermes chat --help` (case chat-help) or `hermes --help` (case help) printed, exactly. */
export function recordedHelp(version: RecordedRelease, which: 'chat-help' | 'help'): string {
	const file = path.join(recordedDir, version, `${which}.json`);
	const stdout = (JSON.parse(readFileSync(file, 'utf8')) as {stdout?: unknown}).stdout;
	if (typeof stdout !== 'string') throw new Error(`${file}: the field "stdout" is not a string; re-record the case or restore the file`);
	return stdout;
}
