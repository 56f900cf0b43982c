// hermes-delegate's own settings, in $HERMES_HOME/delegate.yaml: never mixed into Hermes's
// config.yaml, which belongs to Hermes. Command-line flags override what is read here.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import {defaultCharacteristicWords} from './characteristics.js';
import {InputError, InputErrors} from './errors.js';
import type {DelegateSettings} from './types.js';
import {errorLine, formatPath, lineOf, parseLocated, toPlain} from './yaml-locate.js';

const settingsSchema = z.strictObject({
	concurrency: z.number().int().min(1).max(256).optional(),
	grace: z.number().min(0).max(3600).optional(),
	characteristics: z.record(z.string(), z.string().min(1)).optional(),
	characteristic_words: z.record(z.string(), z.array(z.string().min(1))).optional(),
	theme: z.string().min(1).optional(),
	keys: z.record(z.string(), z.array(z.string().min(1)).min(1)).optional(),
});

export const defaultSettings: DelegateSettings = {
	concurrency: 3,
	graceSeconds: 5,
	characteristics: {},
	characteristicWords: Object.fromEntries(Object.entries(defaultCharacteristicWords).map(([key, list]) => [key, [...list]])),
	keys: {},
};

export function settingsPath(hermesHome: string): string {
	return path.join(hermesHome, 'delegate.yaml');
}

export function loadSettings(file: string): DelegateSettings {
	if (!existsSync(file)) {
		return structuredClone(defaultSettings);
	}

	let raw: string;
	try {
		raw = readFileSync(file, 'utf8');
	} catch (error) {
		throw new InputError(`cannot read settings: ${(error as Error).message}`, {file});
	}

	const located = parseLocated(raw);
	const syntaxError = located.document.errors[0];
	if (syntaxError) {
		throw new InputError(`not valid YAML: ${syntaxError.message.split('\n')[0]}`, {file, line: errorLine(located, syntaxError)}, 'fix the YAML syntax at that line');
	}

	const plain = toPlain(located);
	if ('problem' in plain) {
		throw new InputError(plain.problem, {file}, 'fix the anchors and aliases in this file');
	}

	const data = plain.value ?? {};
	const parsed = settingsSchema.safeParse(data);
	if (!parsed.success) {
		throw new InputErrors(parsed.error.issues.map(issue => {
			const fix = issue.code === 'unrecognized_keys' ? `known settings: ${Object.keys(settingsSchema.shape).join(', ')}` : undefined;
			const issuePath = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
			return new InputError(issue.code === 'unrecognized_keys' ? `unknown setting ${issue.keys.join(', ')}` : issue.message, {file, path: formatPath(issuePath), line: lineOf(located, issuePath)}, fix);
		}));
	}

	const value = parsed.data;
	return {
		concurrency: value.concurrency ?? defaultSettings.concurrency,
		graceSeconds: value.grace ?? defaultSettings.graceSeconds,
		characteristics: value.characteristics ?? {},
		// Configured words extend the built-in table per characteristic rather than replacing it all.
		characteristicWords: {...structuredClone(defaultSettings.characteristicWords), ...value.characteristic_words},
		theme: value.theme,
		keys: value.keys ?? {},
	};
}
