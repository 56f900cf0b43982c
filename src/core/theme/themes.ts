// Themes are data: semantic colour tokens in themes/*.json, validated on load so a typo in a
// theme file is reported with its file and token instead of silently rendering uncoloured.
import {readdirSync} from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import {themesDir} from '../../package-files.js';
import {errnoCode, InputError, messageOf} from '../errors.js';
import {inputLimits, readBoundedFile} from '../text/read-text.js';
import type {TaskStatus} from '../types.js';
import {formatPath} from '../text/yaml-locate.js';

const defaultThemeName = 'dark';
const noColorThemeName = 'no-color';

// What Ink accepts by name (it looks the name up on chalk), plus hex, which Ink hands to chalk.hex.
const baseColours = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
const colourNames: ReadonlySet<string> = new Set([
	...baseColours,
	...baseColours.map(colour => `${colour}Bright`),
	'gray',
	'grey',
]);
const hexColour = /^#(?:[\da-f]{3}|[\da-f]{6})$/i;

function isColour(value: string): boolean {
	return colourNames.has(value) || hexColour.test(value);
}

function colourProblem(value: unknown): string {
	if (value === undefined) {
		return 'missing; add it as a colour name (e.g. "cyan"), "#rrggbb", or null for no colour';
	}

	const problem = `expected a colour name or #rrggbb, got ${JSON.stringify(value)}`;
	if (typeof value === 'string') {
		const sameButCase = [...colourNames].find(name => name.toLowerCase() === value.toLowerCase());
		if (sameButCase) {
			return `${problem}; colour names are case-sensitive: write "${sameButCase}"`;
		}
	}

	return `${problem}; names are ${baseColours.join(', ')}, gray/grey and the *Bright forms (e.g. "redBright")`;
}

/** A colour token: a name or hex the terminal understands, or undefined for "no colour" (JSON null). */
const colour = z.unknown().transform((value, context): string | undefined => {
	if (value === null) {
		return undefined;
	}

	if (typeof value === 'string' && isColour(value)) {
		return value;
	}

	context.addIssue({code: 'custom', message: colourProblem(value)});
	return z.NEVER;
});

const themeSchema = z.strictObject({
	name: z.string().min(1),
	description: z.string().optional(),
	colors: z.strictObject({
		/** Status badge, pane title and header counts for a task in that status. */
		status: z.strictObject({
			queued: colour,
			running: colour,
			cancelling: colour,
			succeeded: colour,
			failed: colour,
			cancelled: colour,
			timed_out: colour,
			refused: colour,
			/** A task whose worker host went silent mid-attempt (distributed runs). */
			lost: colour,
		} satisfies Record<TaskStatus, typeof colour>),
		/** Pane and overlay borders; `focused` marks the pane the keys act on. */
		border: z.strictObject({default: colour, focused: colour}),
		text: z.strictObject({
			primary: colour,
			/** Secondary details: routes, timings, key-hint labels. */
			muted: colour,
			/** Key glyphs in the footer and help, selected items. */
			accent: colour,
			/** Confirm prompts, warnings from the route plan. */
			warning: colour,
			error: colour,
		}),
		header: z.strictObject({title: colour, info: colour}),
		/** Background colours of search matches in the zoom view; `current` is the selected match. */
		search: z.strictObject({match: colour, current: colour}),
	}),
});

/** A loaded theme. A colour of `undefined` means "no colour": rely on bold/dim/inverse instead. */
export type Theme = z.output<typeof themeSchema>;
export type ThemeColour = string | undefined;

/** A theme that cannot be used; the message names the file, the token and the fix. */
export class ThemeError extends InputError {
	constructor(lines: readonly string[], file?: string) {
		super(lines.join('\n'), {file});
		this.name = 'ThemeError';
	}

	// The message already carries file, token and fix; InputError's layout would repeat them.
	override describe(): string {
		return this.message;
	}
}

/** Names of the themes shipped in the package's themes/ folder. */
export function listThemes(): string[] {
	return readdirSync(themesDir)
		.filter(file => file.endsWith('.json'))
		.map(file => file.slice(0, -'.json'.length))
		.sort();
}

/**
 * The theme to render with. `noColor` (the NO_COLOR convention) wins over any requested theme;
 * otherwise a value with a '/' or a .json suffix is a file path, anything else a shipped theme name.
 */
export function loadTheme(nameOrPath: string | undefined, options: {noColor: boolean}): Theme {
	if (options.noColor) {
		return readTheme(path.join(themesDir, `${noColorThemeName}.json`));
	}

	const requested = nameOrPath ?? defaultThemeName;
	if (requested.includes('/') || requested.includes(path.sep) || requested.endsWith('.json')) {
		return readTheme(path.resolve(requested));
	}

	const available = listThemes();
	if (!available.includes(requested)) {
		throw new ThemeError([
			`theme ${JSON.stringify(requested)}: no such theme; use one of ${available.join(', ')}, or a path to a .json theme file`,
		]);
	}

	return readTheme(path.join(themesDir, `${requested}.json`));
}

function readTheme(file: string): Theme {
	const where = `theme ${file}`;
	let text: string;
	try {
		text = readBoundedFile(file, inputLimits.theme).toString('utf8');
	} catch (error) {
		if (error instanceof InputError) throw new ThemeError([`${where}: ${error.message}; ${error.fix}`], file);
		const code = errnoCode(error);
		const problem = code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? messageOf(error)})`;
		throw new ThemeError([`${where}: ${problem}; check the path, or use a shipped theme: ${listThemes().join(', ')}`], file);
	}

	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		const message = messageOf(error);
		const position = /at position (\d+)/.exec(message)?.[1];
		const before = position === undefined ? undefined : text.slice(0, Number(position)).split('\n');
		const at = before ? ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}` : '';
		throw new ThemeError([`${where}: not valid JSON${at} (${message}); fix the syntax`], file);
	}

	const parsed = themeSchema.safeParse(data);
	if (!parsed.success) {
		throw new ThemeError(parsed.error.issues.map(issue => `${where}: ${describeIssue(issue)}`), file);
	}

	return parsed.data;
}

function describeIssue(issue: z.core.$ZodIssue): string {
	if (issue.code === 'unrecognized_keys') {
		const at = issue.keys.map(key => formatPath([...issue.path, key])).join(', ');
		return `${at}: unknown token; remove it or fix its spelling (expected here: ${tokensAt(issue.path).join(', ')})`;
	}

	const at = issue.path.length > 0 ? formatPath(issue.path) : '(top level)';
	if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
		return `${at}: missing; add it (${issue.expected})`;
	}

	return `${at}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

function tokensAt(at: readonly PropertyKey[]): string[] {
	let schema: z.ZodType | undefined = themeSchema;
	for (const segment of at) {
		schema = schema instanceof z.ZodObject && typeof segment === 'string' ? (schema.shape as Record<string, z.ZodType>)[segment] : undefined;
	}

	return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}
