// JSON files written as JSON.stringify(value, null, 2) writes them, without ever holding the
// whole text as one string. results.json holds every task's answer twice (`result` and
// `answer`): as one string it is 4 MiB for 32 chatty tasks (two bytes a character as soon as one
// is outside Latin-1), and every string over 128 KiB is a large object with pages of its own,
// kept until the next garbage collection. It was made when every task had just finished, which is
// when the dashboard's memory peaked (issue 9). Here the text is made of small pieces that fit the
// young generation's pages, written into one buffer of the exact size.

/** Characters of a long string escaped at a time: at most 6 × 8 Ki characters once escaped. */
const sliceChars = 8192;

function* stringPieces(text: string): Generator<string> {
	if (text.length <= sliceChars) {
		yield JSON.stringify(text);
		return;
	}

	yield '"';
	for (let start = 0; start < text.length;) {
		let end = Math.min(start + sliceChars, text.length);
		// A surrogate pair stays in one slice: escaped apart, each half would become a \u escape.
		const last = text.charCodeAt(end - 1);
		if (end < text.length && last >= 0xD8_00 && last <= 0xDB_FF) {
			end--;
		}

		yield JSON.stringify(text.slice(start, end)).slice(1, -1);
		start = end;
	}

	yield '"';
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

function* valuePieces(value: unknown, indent: string, open: Set<object>): Generator<string> {
	if (typeof value === 'string') {
		yield* stringPieces(value);
		return;
	}

	if (!isPlainContainer(value)) {
		// Numbers, booleans, null, boxed primitives, class instances: as JSON.stringify has them
		// (and its TypeError for a BigInt). Re-indented, since they may be nested here.
		yield (JSON.stringify(value, null, 2) ?? 'null').replaceAll('\n', `\n${indent}`);
		return;
	}

	if (open.has(value)) {
		throw new TypeError('Converting circular structure to JSON');
	}

	open.add(value);
	const inner = `${indent}  `;
	if (Array.isArray(value)) {
		if (value.length === 0) {
			yield '[]';
		} else {
			for (let index = 0; index < value.length; index++) {
				yield index === 0 ? `[\n${inner}` : `,\n${inner}`;
				const element = prepared(String(index), value[index]);
				yield* hasNoJson(element) ? ['null'] : valuePieces(element, inner, open);
			}

			yield `\n${indent}]`;
		}
	} else {
		let empty = true;
		for (const [key, field] of Object.entries(value)) {
			const fieldValue = prepared(key, field);
			if (hasNoJson(fieldValue)) {
				continue;
			}

			yield `${empty ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `;
			empty = false;
			yield* valuePieces(fieldValue, inner, open);
		}

		yield empty ? '{}' : `\n${indent}}`;
	}

	open.delete(value);
}

function* documentPieces(value: object): Generator<string> {
	yield* valuePieces(prepared('', value), '', new Set());
	yield '\n';
}

/**
 * `JSON.stringify(value, null, 2) + '\n'` as UTF-8, byte for byte. The pieces are made twice
 * (measured, then written) rather than kept: kept, they would be the whole text again.
 */
export function prettyJsonBytes(value: object): Buffer {
	let length = 0;
	for (const piece of documentPieces(value)) {
		length += Buffer.byteLength(piece);
	}

	const bytes = Buffer.allocUnsafeSlow(length);
	let offset = 0;
	for (const piece of documentPieces(value)) {
		offset += bytes.write(piece, offset);
	}

	return bytes;
}
