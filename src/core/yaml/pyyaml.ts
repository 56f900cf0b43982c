// config.yaml as Hermes's PyYAML (YAML 1.1) sees it, where hermes-delegate must agree with it:
// which characters make PyYAML refuse the whole file, and what a route's text field means when
// YAML 1.1 turns it into a boolean (`description: no`).
import {isScalar} from 'yaml';
import {duplicateKeyIn} from '../text/yaml-duplicates.js';
import {InputError} from '../errors.js';
import type {LocatedDocument} from '../text/yaml-locate.js';

// PyYAML's reader (reader.py, NON_PRINTABLE) accepts only these code points anywhere in the
// stream, quoted or not; one other character and Hermes ignores the file and runs on defaults.
const notReadableByPyYaml = /[^\t\n\r\u0020-\u007E\u0085\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** A character Hermes's reader refuses, if the text has one: where and which. */
export function pyYamlRefusal(text: string): {index: number; codePoint: number} | undefined {
	const match = notReadableByPyYaml.exec(text);
	return match ? {index: match.index, codePoint: match[0].codePointAt(0)!} : undefined;
}

export function codePointName(codePoint: number): string {
	return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Refuses text that Hermes could not read at all: routing on it would run what Hermes ignores. */
export function checkHermesReadable(text: string, file: string): void {
	const refusal = pyYamlRefusal(text);
	if (refusal) {
		const line = text.slice(0, refusal.index).split('\n').length;
		throw new InputError(
			`holds the character ${codePointName(refusal.codePoint)}, which Hermes's YAML reader (PyYAML) refuses: Hermes ignores this whole file and runs on its defaults`,
			{file, line},
			`remove that character, or write it as an escape inside double quotes ("\\u${refusal.codePoint.toString(16).toUpperCase().padStart(4, '0')}")`,
		);
	}
}

/**
 * Refuses a config.yaml with a key written twice in one map. Hermes reads the file with ruamel.yaml
 * from 0.21 on (upstream hermes_yaml.py), which refuses it whole; PyYAML (0.19, 0.20) kept the last
 * value silently. Either way what Hermes runs on is not what the file seems to say.
 */
export function checkUniqueKeys(text: string, file: string): void {
	const found = duplicateKeyIn(text);
	if (found) {
		throw new InputError(
			`the key "${found.key}" is written twice in the same map (the second time here): Hermes 0.21 and later read config.yaml with ruamel.yaml, which refuses the whole file (Hermes may then run on a last-known-good copy), and older Hermes silently kept the last value`,
			{file, line: found.line},
			`keep one "${found.key}:" in that map, with what the two held merged into it`,
		);
	}
}

// Fields that are text to a route; in YAML 1.1 an unquoted `no`, `on`, `yes` or `off` is not.
// (A number there stays refused, as before: `model: 42` is more likely a mistake than a name.)
const textFields = ['name', 'description', 'model', 'provider', 'base_url', 'service_tier', 'api_mode'];
const lists = [['model_map', 'options'], ['profile_routes', 'profiles']] as const;

/**
 * Replaces, in the plain `section`, a route's text field that YAML 1.1 read as a boolean by the text the operator wrote, and warns. PyYAML hands Hermes `False` for
 * `description: no`; shown to the operator (and matched against goals) that would be "false",
 * a word nobody wrote, and refusing it would refuse a file Hermes reads. The operator meant the
 * word, so the word is what hermes-delegate shows and routes on, and the warning says how to make
 * Hermes read the same: quote it.
 */
export function textAsWritten(section: Record<string, unknown>, located: LocatedDocument, warn: (path: Array<string | number>, message: string) => void): void {
	const backends = section['backends'];
	if (typeof backends !== 'object' || backends === null) {
		return;
	}

	for (const [backend, listKey] of lists) {
		const owner = (backends as Record<string, unknown>)[backend];
		if (typeof owner !== 'object' || owner === null) {
			continue;
		}

		const ownerPath = ['delegation', 'backends', backend];
		fixField(owner as Record<string, unknown>, 'default', ownerPath, located, warn);
		const routes = (owner as Record<string, unknown>)[listKey];
		if (!Array.isArray(routes)) {
			continue;
		}

		for (const [index, route] of routes.entries()) {
			if (typeof route === 'object' && route !== null) {
				for (const field of textFields) {
					fixField(route as Record<string, unknown>, field, [...ownerPath, listKey, index], located, warn);
				}
			}
		}
	}
}

function fixField(map: Record<string, unknown>, field: string, at: Array<string | number>, located: LocatedDocument, warn: (path: Array<string | number>, message: string) => void): void {
	const value = map[field];
	if (typeof value !== 'boolean') {
		return;
	}

	const node = located.document.getIn([...at, field], true);
	// A value merged in through `<<: *base` has no node of its own here: its plain form will do.
	const written = isScalar(node) && typeof node.source === 'string' ? node.source : String(value);
	map[field] = written;
	warn([...at, field], `Hermes's YAML reader takes ${JSON.stringify(written)} as the boolean ${String(value)}, not text; hermes-delegate uses the text as written. Put it in quotes ("${written}") so Hermes reads the same`);
}
