// zod's issues in our wording. zod's defaults ("Invalid input: expected string, received
// undefined") read like a stack trace; an operator fixing a YAML file needs "missing required
// field", what was expected and what was found. Every schema at the edge parses through
// `parseWorded`, so a message written on the schema itself still wins over these.
import type {z} from 'zod';
import {closest} from './suggest.js';
import {safeName} from './yaml-locate.js';

export type Problem = {
	/** missing: a required field is absent; unknown: fields the schema does not know. */
	kind: 'missing' | 'unknown' | 'invalid';
	message: string;
	/** Where to point: for unknown fields, the first unknown key (so its line is found). */
	path: PropertyKey[];
	fix?: string | undefined;
};

export type DescribeOptions = {
	/** What one key is called in messages: `field` (default), `setting`. */
	noun?: string;
	/** Named in the fix of an unknown-field problem: `{label: 'known settings', fields}`. */
	known?: {label: string; fields: readonly string[]};
};

/** `schema.safeParse` with the input kept on each issue and our wording for zod's defaults. */
export function parseWorded<T extends z.ZodType>(schema: T, data: unknown): z.ZodSafeParseResult<z.output<T>> {
	return schema.safeParse(data, {reportInput: true, error: issue => wordingOf(issue as IssueFields)});
}

export function describeIssue(issue: z.core.$ZodIssue, options: DescribeOptions = {}): Problem {
	const noun = options.noun ?? 'field';
	if (issue.code === 'unrecognized_keys') {
		const names = issue.keys.map(safeName);
		return {
			kind: 'unknown',
			message: `unknown ${noun}${names.length > 1 ? 's' : ''} ${names.join(', ')}`,
			path: [...issue.path, issue.keys[0] ?? ''],
			fix: options.known ? `${didYouMean(issue.keys, options.known.fields)}${options.known.label}: ${options.known.fields.join(', ')}` : undefined,
		};
	}

	if (issue.code === 'invalid_type' && issue.input === undefined) {
		return {kind: 'missing', message: wordingOf(issue), path: issue.path};
	}

	const fix = issue.code === 'invalid_type' && issue.input === null ? `give it a value, or leave the ${noun} out` : undefined;
	return {kind: 'invalid', message: issue.message, path: issue.path, fix};
}

/** `did you mean "option"? ` for the unknown keys that are near misses of known ones, else nothing. */
function didYouMean(keys: readonly string[], known: readonly string[]): string {
	const guesses = keys.flatMap(key => {
		const guess = closest(key, known);
		return guess === undefined ? [] : [keys.length === 1 ? `"${guess}"` : `"${guess}" for ${safeName(key)}`];
	});
	return guesses.length === 0 ? '' : `did you mean ${guesses.join(', ')}? `;
}

/** `a string`, `a list`, `null`: what a value is, never the value itself (it is untrusted text). */
export function describeValue(value: unknown): string {
	if (value === null) {
		return 'null';
	}

	if (Array.isArray(value)) {
		return 'a list';
	}

	if (typeof value === 'number' && !Number.isFinite(value)) {
		return String(value);
	}

	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

// The fields wording needs, shared by raw issues (in the error map) and finished ones.
type IssueFields = {
	code?: string | undefined;
	path?: PropertyKey[] | undefined;
	input?: unknown;
	expected?: string;
	origin?: string;
	minimum?: number | bigint;
	maximum?: number | bigint;
	inclusive?: boolean;
	values?: readonly unknown[];
	keys?: readonly string[];
	divisor?: number;
	format?: string;
};

const expectedNames: Record<string, string> = {
	string: 'a string',
	number: 'a number',
	int: 'a whole number',
	boolean: 'true or false',
	array: 'a list',
	object: 'an object',
	record: 'an object',
	null: 'null',
};

function wordingOf(issue: IssueFields): string {
	switch (issue.code) {
		case 'invalid_type': {
			if (issue.input === undefined) {
				const last = issue.path?.at(-1);
				return typeof last === 'string' ? `missing required field "${last}"` : 'missing a value';
			}

			if (issue.expected === 'int' && typeof issue.input === 'number' && Number.isFinite(issue.input)) {
				return `must be a whole number, got ${issue.input}`;
			}

			const expected = expectedNames[issue.expected ?? ''] ?? issue.expected ?? 'another type';
			return `expected ${expected}, got ${describeValue(issue.input)}`;
		}

		case 'too_small': {
			return bound(issue, 'at least', 'greater than', issue.minimum);
		}

		case 'too_big': {
			return bound(issue, 'at most', 'less than', issue.maximum);
		}

		case 'invalid_value': {
			const values = (issue.values ?? []).map(String);
			return values.length === 1 ? `must be ${values[0]!}` : `must be one of: ${values.join(', ')}`;
		}

		case 'unrecognized_keys': {
			return `unknown field${(issue.keys?.length ?? 0) > 1 ? 's' : ''} ${(issue.keys ?? []).map(safeName).join(', ')}`;
		}

		case 'not_multiple_of': {
			return `must be a multiple of ${issue.divisor}`;
		}

		case 'invalid_format': {
			return `is not a valid ${issue.format ?? 'value'}`;
		}

		case 'invalid_union': {
			return 'does not match any accepted form';
		}

		default: {
			return 'is not valid';
		}
	}
}

function bound(issue: IssueFields, inclusiveWord: string, exclusiveWord: string, limit: number | bigint | undefined): string {
	const amount = String(limit);
	if (issue.origin === 'string') {
		return limit === 1 && issue.code === 'too_small' ? 'must not be empty' : `must be ${inclusiveWord} ${amount} characters long`;
	}

	if (issue.origin === 'array' || issue.origin === 'set') {
		return limit === 1 && issue.code === 'too_small' ? 'must not be an empty list' : `must list ${inclusiveWord} ${amount} items`;
	}

	return `must be ${issue.inclusive === false ? exclusiveWord : inclusiveWord} ${amount}`;
}
