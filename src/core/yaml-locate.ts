// Maps a path inside a parsed YAML/JSON document back to a line number, so validation
// errors can say `tasks.yaml:14` instead of leaving the operator to count list items.
import {isNode, LineCounter, parseDocument, type Document} from 'yaml';

export type LocatedDocument = {
	document: Document;
	lineCounter: LineCounter;
};

export function parseLocated(text: string): LocatedDocument {
	const lineCounter = new LineCounter();
	const document = parseDocument(text, {lineCounter, prettyErrors: false, uniqueKeys: true});
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

/** `[2].goal`, `delegation.backends.model_map.options[0].model`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
	let out = '';
	for (const segment of path) {
		if (typeof segment === 'number') {
			out += `[${segment}]`;
		} else {
			out += out ? `.${String(segment)}` : String(segment);
		}
	}

	return out;
}

/** 1-based line of a parse error: the parser only reports byte offsets unless asked to prettify. */
export function errorLine(located: LocatedDocument, error: {pos: [number, number]}): number {
	return located.lineCounter.linePos(error.pos[0]).line;
}

/**
 * Plain JS values of the document. Alias problems (an unresolved `*name`, an alias bomb)
 * surface as a message rather than a crash; the alias name itself is not repeated, since
 * it is text from an untrusted file.
 */
export function toPlain(located: LocatedDocument): {value: unknown} | {problem: string} {
	try {
		return {value: located.document.toJS({maxAliasCount: 100})};
	} catch (error) {
		const message = (error as Error).message;
		return {problem: /excessive alias/i.test(message) ? 'too many alias expansions (possible alias bomb)' : /alias/i.test(message) ? 'a YAML alias (*name) refers to an anchor that does not exist' : 'cannot be read as plain data'};
	}
}
