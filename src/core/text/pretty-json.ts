// JSON files written as JSON.stringify(value, null, 2) writes them, without ever holding the
// whole text as one string. results.json holds every task's answer twice (`result` and
// `answer`): as one string it is 4 MiB for 32 chatty tasks (two bytes a character as soon as one
// is outside Latin-1), and every string over 128 KiB is a large object with pages of its own,
// kept until the next garbage collection. It was made when every task had just finished, which is
// when the dashboard's memory peaked (bench/RESULTS.md). Here the text is made of small pieces that fit the
// young generation's pages, written into one buffer of the exact size.

/** Characters of a long string escaped at a time: at most 6 × 8 Ki characters once escaped. */
const sliceChars = 8192;
/** A subtree whose strings and keys come to fewer characters is stringified whole: one piece, fast. */
const wholeChars = 8192;

export type Emit = (piece: string) => void;

function emitString(text: string, emit: Emit): void {
	if (text.length <= sliceChars) {
		emit(JSON.stringify(text));
		return;
	}

	emit('"');
	for (let start = 0; start < text.length;) {
		let end = Math.min(start + sliceChars, text.length);
		// A surrogate pair stays in one slice: escaped apart, each half would become a \u escape.
		const last = text.charCodeAt(end - 1);
		if (end < text.length && last >= 0xD8_00 && last <= 0xDB_FF) {
			end--;
		}

		emit(JSON.stringify(text.slice(start, end)).slice(1, -1));
		start = end;
	}

	emit('"');
}

/** What JSON.stringify serializes for a value under `key`: toJSON's answer where there is one. */
function prepared(key: string, value: unknown): unknown {
	if (value !== null && typeof value === 'object' && typeof (value as {toJSON?: unknown}).toJSON === 'function') {
		return (value as {toJSON(key: string): unknown}).toJSON(key);
	}

	return value;
}

/** Functions, symbols and undefined have no JSON: left out of objects, null in arrays. */
function hasNoJson(value: unknown): boolean {
	return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
	if (value === null || typeof value !== 'object') {
		return false;
	}

	const prototype = Object.getPrototypeOf(value) as unknown;
	return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/**
 * Whether a subtree's strings and keys (and a little for each value) stay under `budget`
 * characters. Stops as soon as they do not, so a cycle ends the walk too.
 */
function isSmall(value: unknown, budget: {left: number}): boolean {
	budget.left -= 8;
	if (typeof value === 'string') {
		budget.left -= value.length;
	} else if (isPlainContainer(value)) {
		for (const [key, field] of Object.entries(value)) {
			budget.left -= key.length;
			if (budget.left < 0 || !isSmall(field, budget)) {
				return false;
			}
		}
	}

	return budget.left >= 0;
}

function emitValue(value: unknown, indent: string, open: Set<object>, whole: number, emit: Emit): void {
	if (typeof value === 'string') {
		emitString(value, emit);
		return;
	}

	if (!isPlainContainer(value) || isSmall(value, {left: whole})) {
		// Numbers, booleans, null, boxed primitives, class instances and small subtrees: as
		// JSON.stringify has them (and its TypeError for a BigInt or a cycle), indented to here.
		const text = JSON.stringify(value, null, 2) ?? 'null';
		emit(indent === '' ? text : text.replaceAll('\n', `\n${indent}`));
		return;
	}

	if (open.has(value)) {
		throw new TypeError('Converting circular structure to JSON');
	}

	open.add(value);
	const inner = `${indent}  `;
	if (Array.isArray(value) && value.length === 0) {
		emit('[]');
	} else if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) {
			emit(index === 0 ? `[\n${inner}` : `,\n${inner}`);
			const element = prepared(String(index), value[index]);
			if (hasNoJson(element)) {
				emit('null');
			} else {
				emitValue(element, inner, open, whole, emit);
			}
		}

		emit(`\n${indent}]`);
	} else {
		let empty = true;
		for (const [key, field] of Object.entries(value)) {
			const fieldValue = prepared(key, field);
			if (hasNoJson(fieldValue)) {
				continue;
			}

			emit(`${empty ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `);
			empty = false;
			emitValue(fieldValue, inner, open, whole, emit);
		}

		emit(empty ? '{}' : `\n${indent}}`);
	}

	open.delete(value);
}

/** The pieces of `JSON.stringify(value, null, 2) + '\n'`, in order: none holds the whole text, or even a whole long string. */
export function jsonPieces(value: object, emit: Emit, whole = wholeChars): void {
	emitValue(prepared('', value), '', new Set(), whole, emit);
	emit('\n');
}

/**
 * `JSON.stringify(value, null, 2) + '\n'` as UTF-8, byte for byte. The pieces are made twice
 * (measured, then written) rather than kept: kept, they would be the whole text again. `whole`:
 * the size of subtree stringified in one piece (0 takes every one apart, as the tests do).
 */
export function prettyJsonBytes(value: object, whole = wholeChars): Buffer {
	let length = 0;
	jsonPieces(value, piece => {
		length += Buffer.byteLength(piece);
	}, whole);
	const bytes = Buffer.allocUnsafeSlow(length);
	let offset = 0;
	jsonPieces(value, piece => {
		offset += bytes.write(piece, offset);
	}, whole);
	return bytes;
}
