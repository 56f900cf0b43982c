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
