// Maps a path inside a parsed YAML/JSON document back to a line number, so validation
// errors can say `tasks.yaml:14` instead of leaving the operator to count list items.
import {isNode, LineCounter, parseDocument, type Document} from 'yaml';
import {InputError, messageOf} from '../errors.js';

export type LocatedDocument = {
	document: Document;
	lineCounter: LineCounter;
};

/**
 * How Hermes reads config.yaml: PyYAML is YAML 1.1, where `off`/`no`/`yes`/`on` are booleans,
 * `1:20` is a number and `<<: *base` merges a map. Tasks and settings are ours and stay YAML 1.2.
 */
export const hermesYamlOptions = {version: '1.1', merge: true} as const;

export type YamlDialect = {
	/** Read as Hermes's PyYAML reads (config.yaml); default YAML 1.2. */
	hermes?: boolean | undefined;
};

export function parseLocated(text: string, dialect: YamlDialect = {}): LocatedDocument {
	const lineCounter = new LineCounter();
	const document = parseDocument(text, {lineCounter, prettyErrors: false, uniqueKeys: true, ...(dialect.hermes ? hermesYamlOptions : {})});
	return {document, lineCounter};
}

/** 1-based line of the node at `path` (or of its nearest existing parent). */
export function lineOf(located: LocatedDocument, path: ReadonlyArray<PropertyKey>): number | undefined {
	for (let length = path.length; length >= 0; length--) {
		const node = located.document.getIn(path.slice(0, length) as unknown[], true);
		if (isNode(node) && node.range) {
			return located.lineCounter.linePos(node.range[0]).line;
		}
	}

	return undefined;
}

/** `[2].goal`, `delegation.backends.model_map.options[0].model`; an odd key reads `[0]["a b"]`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
	let out = '';
	for (const segment of path) {
		if (typeof segment === 'number') {
			out += `[${segment}]`;
		} else if (typeof segment === 'string' && !isPlainName(segment)) {
			out += `[${quoteName(segment)}]`;
		} else {
			out += out ? `.${String(segment)}` : String(segment);
		}
	}

	return out;
}

function isPlainName(name: string): boolean {
	return /^[\w.-]+$/.test(name);
}

/**
 * A key from the operator's file as it may appear in a message: plain names stay plain,
 * anything else is quoted with its control characters escaped, so it cannot act on the terminal.
 */
export function safeName(name: string): string {
	return isPlainName(name) ? name : quoteName(name);
}

function quoteName(name: string): string {
	return JSON.stringify(name).replace(/[\u007F-\u009F]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** 1-based line of a parse error: the parser only reports byte offsets unless asked to prettify. */
function errorLine(located: LocatedDocument, error: {pos: [number, number]}): number {
	return located.lineCounter.linePos(error.pos[0]).line;
}

/**
 * Plain JS values of the document. Alias problems (an unresolved `*name`, an alias bomb)
 * surface as a message rather than a crash; the alias name itself is not repeated, since
 * it is text from an untrusted file.
 */
function toPlain(located: LocatedDocument): {value: unknown} | {problem: string} {
	try {
		return {value: located.document.toJS({maxAliasCount: 100})};
	} catch (error) {
		const message = messageOf(error);
		return {problem: /excessive alias/i.test(message) ? 'too many alias expansions (possible alias bomb)' : /alias/i.test(message) ? 'a YAML alias (*name) refers to an anchor that does not exist' : 'cannot be read as plain data'};
	}
}

export type ReadYamlOptions = YamlDialect & {
	/** Named in every message, as the operator knows it: a path, `<stdin>`, `<inline>`. */
	file: string;
	/** What the text should have been, for the syntax message: `YAML` (default), `JSON or YAML`. */
	format?: string;
	/** What to do about a syntax error in this kind of file. */
	fix: string;
};

/**
 * Text → its located document and plain value, or an InputError naming the file, the line of
 * the first syntax error and the fix. The one way tasks, config and settings read YAML.
 */
export function readYamlText(text: string, options: ReadYamlOptions): {located: LocatedDocument; value: unknown} {
	const located = parseLocated(text, options);
	const syntaxError = located.document.errors[0];
	if (syntaxError) {
		throw new InputError(
			`not valid ${options.format ?? 'YAML'}: ${syntaxError.message.split('\n')[0] ?? ''}`,
			{file: options.file, line: errorLine(located, syntaxError)},
			options.fix,
		);
	}

	const plain = toPlain(located);
	if ('problem' in plain) {
		throw new InputError(plain.problem, {file: options.file}, 'write the values out in full instead of through YAML anchors and aliases (&name, *name)');
	}

	return {located, value: plain.value};
}
