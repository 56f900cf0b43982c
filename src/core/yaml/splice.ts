// Edits to a YAML file made as text splices at the ranges the parser reports, never by
// re-stringifying the Document: the yaml package's stringifier re-indents, re-quotes and moves
// comments, and the operator's config.yaml must stay byte-for-byte the same outside the one
// value that changed. Each function returns splices; the caller re-parses the result and checks
// that it says what was meant (core/config/edit.ts).
import {isAlias, isMap, isNode, isPair, isScalar, isSeq, type Document, type Range, type Scalar, type YAMLMap} from 'yaml';
import {blockScalar} from './block.js';
import {emit, emitItems, formatScalar, type NewValue} from './scalar.js';
import {formatPath} from '../text/yaml-locate.js';

export type Splice = {from: number; to: number; insert: string};

/** The edit cannot be made as a clean splice; `message` says why, for the operator. */
export class SpliceError extends Error {}

export function applySplices(text: string, splices: readonly Splice[]): string {
	// New lines end the way the file's lines end (a config saved on Windows keeps CRLF).
	const crlf = text.includes('\r\n');
	let out = text;
	for (const splice of [...splices].sort((a, b) => b.from - a.from)) {
		out = out.slice(0, splice.from) + (crlf ? splice.insert.replaceAll(/\r?\n/g, '\r\n') : splice.insert) + out.slice(splice.to);
	}

	return out;
}

/** Sets the value at `path`, creating the maps on the way that do not exist yet. */
export function setValue(text: string, document: Document, path: readonly string[], value: NewValue): Splice[] {
	const existing = document.getIn(path, true);
	if (existing !== undefined && existing !== null && !isEmptyScalar(existing)) {
		if (isAlias(existing)) {
			throw new SpliceError(`${formatPath(path)} is a YAML alias (*name) to a value used elsewhere too`);
		}

		if (!isScalar(existing) || typeof value === 'object') {
			throw new SpliceError(`${formatPath(path)} is not a single value`);
		}

		return [replaceScalar(text, existing, value, inFlow(document, path))];
	}

	// Walk down to the deepest map that exists; what is left of the path is created under it.
	let parent: unknown = document.contents;
	let depth = 0;
	while (depth < path.length - 1) {
		const next = isMap(parent) || isSeq(parent) ? parent.get(path[depth], true) : undefined;
		if (!isMap(next) && !isSeq(next)) {
			break;
		}

		parent = next;
		depth++;
	}

	const rest = path.slice(depth);
	if (parent === null || parent === undefined || isEmptyScalar(parent)) {
		// An empty document (or one with only comments): the new section goes at the end.
		return [{from: text.length, to: text.length, insert: `${needsNewline(text) ? '\n' : ''}${emit(rest, value, 0, 2)}`}];
	}

	if (!isMap(parent)) {
		throw new SpliceError(`${formatPath(path.slice(0, depth))} is not a map`);
	}

	const pair = parent.items.find(item => keyOf(item) === rest[0]);
	if (pair === undefined) {
		return [insertIntoMap(text, parent, rest, value)];
	}

	// The key is there with nothing (or null, `~`) as its value.
	const key = rangeOf(pair.key);
	const empty = isScalar(pair.value) && pair.value.range && pair.value.range[1] > pair.value.range[0] ? pair.value.range : undefined;
	if (rest.length === 1 && typeof value !== 'object') {
		const formatted = typeof value === 'number' ? String(value) : formatScalar(value, undefined, false);
		if (empty) {
			return [{from: empty[0], to: empty[1], insert: formatted}];
		}

		const colon = text.indexOf(':', key[1]);
		return [{from: colon + 1, to: colon + 1, insert: ` ${formatted}`}];
	}

	// A nested value goes on the lines below the key, and an explicit null is removed.
	const keyColumn = column(text, key[0]);
	const at = nextLineStart(text, key[1]);
	const nested = rest.length === 1 && typeof value === 'object' ? emitItems(value, keyColumn + 2) : emit(rest.slice(1), value, keyColumn + 2, 2);
	const splices: Splice[] = [{from: at, to: at, insert: `${at === text.length && needsNewline(text) ? '\n' : ''}${nested}`}];
	if (empty) {
		splices.push({from: empty[0], to: empty[1], insert: ''});
	}

	return splices;
}

function insertIntoMap(text: string, map: YAMLMap, rest: readonly string[], value: NewValue): Splice {
	const last = map.items.at(-1);
	if (map.flow) {
		if (rest.length > 1 || typeof value === 'object') {
			throw new SpliceError('a map written in flow style ({...}) can only take a single new value');
		}

		const close = rangeOf(map)[1] - 1;
		if (text[close] !== '}') {
			throw new SpliceError('a flow map without its closing brace');
		}

		const entry = `${rest[0]}: ${formatScalar(String(value), undefined, true)}`;
		return {from: close, to: close, insert: last === undefined ? entry : `, ${entry}`};
	}

	if (last === undefined) {
		throw new SpliceError('an empty block map');
	}

	const indent = column(text, rangeOf(map.items[0]?.key)[0]);
	const end = nodeEnd(last);
	const at = nextLineStart(text, end - 1);
	return {from: at, to: at, insert: `${at === text.length && needsNewline(text) ? '\n' : ''}${emit(rest, value, indent, 2)}`};
}

/** Appends one flat map (a new route) to the list at `path`, creating the list if needed. */
export function appendItem(text: string, document: Document, path: readonly string[], item: Record<string, string>): Splice[] {
	const seq = document.getIn(path, true);
	if (seq === undefined || seq === null || isEmptyScalar(seq)) {
		return setValue(text, document, path, [item]);
	}

	if (!isSeq(seq)) {
		throw new SpliceError(`${formatPath(path)} is not a list`);
	}

	if (seq.flow) {
		const close = rangeOf(seq)[1] - 1;
		if (text[close] !== ']') {
			throw new SpliceError('a flow list without its closing bracket');
		}

		const entry = `{${Object.entries(item).map(([key, value]) => `${key}: ${formatScalar(value, undefined, true)}`).join(', ')}}`;
		return [{from: close, to: close, insert: seq.items.length === 0 ? entry : `, ${entry}`}];
	}

	const dashColumn = column(text, rangeOf(seq)[0]);
	const first = seq.items[0];
	const keyOffset = isMap(first) && !first.flow ? column(text, rangeOf(first)[0]) - dashColumn : 2;
	const at = nextLineStart(text, nodeEnd(seq.items.at(-1)) - 1);
	const lines = Object.entries(item).map(([key, value], index) => `${' '.repeat(dashColumn)}${index === 0 ? '-'.padEnd(keyOffset) : ' '.repeat(keyOffset)}${key}: ${formatScalar(value, undefined, false)}`);
	return [{from: at, to: at, insert: `${at === text.length && needsNewline(text) ? '\n' : ''}${lines.join('\n')}\n`}];
}

/** Removes item `index` of the list at `path`: its lines (block list) or its entry (flow list). */
export function removeItem(text: string, document: Document, path: readonly string[], index: number): Splice[] {
	const seq = document.getIn(path, true);
	const item = isSeq(seq) ? seq.items[index] : undefined;
	if (!isSeq(seq) || item === undefined) {
		throw new SpliceError(`${formatPath([...path, String(index)])} does not exist`);
	}

	const [start, end] = rangeOf(item);
	if (seq.flow) {
		const next = seq.items[index + 1];
		const previous = seq.items[index - 1];
		if (next !== undefined) {
			return [{from: start, to: rangeOf(next)[0], insert: ''}];
		}

		return [{from: previous === undefined ? start : rangeOf(previous)[1], to: end, insert: ''}];
	}

	const from = lineStart(text, start);
	if (!/^\s*-\s*$/.test(text.slice(from, start))) {
		throw new SpliceError('a list item that does not start its own line');
	}

	return [{from, to: nextLineStart(text, nodeEnd(item) - 1), insert: ''}];
}

/**
 * Removes the key at `path` with its value: its own line(s) in a block map, its entry in a flow
 * map. A key that is not there is no change (no splices).
 */
export function removeKey(text: string, document: Document, path: readonly string[]): Splice[] {
	const map = document.getIn(path.slice(0, -1), true);
	if (!isMap(map)) {
		return [];
	}

	const index = map.items.findIndex(item => keyOf(item) === path.at(-1));
	const pair = map.items[index];
	if (pair === undefined) {
		return [];
	}

	const keyStart = rangeOf(pair.key)[0];
	const next = map.items[index + 1];
	if (map.flow) {
		// The entry and the comma after it; the last entry takes the comma before it instead.
		const previous = map.items[index - 1];
		return next ? [{from: keyStart, to: rangeOf(next.key)[0], insert: ''}] : [{from: previous ? nodeEnd(previous) : keyStart, to: nodeEnd(pair), insert: ''}];
	}

	const from = lineStart(text, keyStart);
	const end = nextLineStart(text, nodeEnd(pair) - 1);
	if (/^\s*$/.test(text.slice(from, keyStart))) {
		// The key starts its line: the line goes, with the comment at its end.
		return [{from, to: end, insert: ''}];
	}

	// The first key of a list item (`- provider: x`): the next key moves up behind the dash.
	const nextKey = next ? rangeOf(next.key)[0] : undefined;
	if (!/^\s*-\s*$/.test(text.slice(from, keyStart)) || nextKey === undefined || !/^[^\S\n]*(#[^\n]*)?\r?\n[^\S\n]*$/.test(text.slice(nodeEnd(pair), nextKey))) {
		throw new SpliceError(`${formatPath(path)} does not start its own line`);
	}

	return [{from: keyStart, to: nextKey, insert: ''}];
}

function replaceScalar(text: string, node: Scalar, value: string | number, flow: boolean): Splice {
	const [from, end] = rangeOf(node);
	// A block scalar's range takes in its last line break, which belongs to the line, not the value.
	const block = node.type === 'BLOCK_FOLDED' || node.type === 'BLOCK_LITERAL' ? node.type : undefined;
	const to = block && text[end - 1] === '\n' ? (text[end - 2] === '\r' ? end - 2 : end - 1) : end;
	const kept = block && typeof value === 'string' ? blockScalar(value, block, contentIndent(text, from, to)) : undefined;
	const insert = kept ?? (typeof value === 'number' ? String(value) : formatScalar(value, node.type, flow));
	return {from, to, insert};
}

/** The indentation of a block scalar's first content line (its header is at `from`). */
function contentIndent(text: string, from: number, to: number): string {
	const lines = text.slice(from, to).split('\n').slice(1);
	const first = lines.find(line => line.trim() !== '');
	// An empty block: two more than the line its key is on.
	return first === undefined ? `${/^ */.exec(text.slice(lineStart(text, from)))![0]}  ` : /^ */.exec(first)![0];
}

function keyOf(pair: unknown): unknown {
	return isPair(pair) && isScalar(pair.key) ? pair.key.value : undefined;
}

function isEmptyScalar(node: unknown): boolean {
	return isScalar(node) && (node.value === null || node.value === undefined);
}

/** Whether the node at `path` sits inside a flow collection (plain scalars are stricter there). */
function inFlow(document: Document, path: readonly string[]): boolean {
	for (let length = path.length - 1; length >= 0; length--) {
		const node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
		if ((isMap(node) || isSeq(node)) && node.flow) {
			return true;
		}
	}

	return false;
}

function nodeEnd(node: unknown): number {
	if (isPair(node)) {
		return isNode(node.value) && node.value.range ? node.value.range[1] : rangeOf(node.key)[1];
	}

	return rangeOf(node)[1];
}

/** Where a node is in the text; the parser gives every node it read a range. */
function rangeOf(node: unknown): Range {
	if (!isNode(node) || !node.range) {
		throw new SpliceError('a YAML value without a place in the file');
	}

	return node.range;
}

function lineStart(text: string, position: number): number {
	return text.lastIndexOf('\n', position - 1) + 1;
}

function nextLineStart(text: string, position: number): number {
	const newline = text.indexOf('\n', Math.max(0, position));
	return newline === -1 ? text.length : newline + 1;
}

function column(text: string, position: number): number {
	return position - lineStart(text, position);
}

function needsNewline(text: string): boolean {
	return text.length > 0 && !text.endsWith('\n');
}
