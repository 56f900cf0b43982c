// The final `result` line of `hermes chat --format stream-json` holds the whole answer, so it may
// be far longer than any other line. This keeps such a line (whole up to a limit, else its two
// ends) and reads a result event from the two ends of one too long to keep whole.

type JsonObject = Record<string, unknown>;

/**
 * The final `result` line carries the whole answer (JSON-escaped: up to twice its size and more),
 * so it is read whole up to this (four times the 1 MiB answer limit), not cut at the line limit.
 * A longer one is kept as its first part (the answer's start) and its last (tokens, duration,
 * error): the answer is then cut.
 */
const maxResultLineBytes = 4 * 1024 * 1024;
const resultTailBytes = 64 * 1024;

/** Where a trailing, incomplete UTF-8 sequence starts (buffer.length when there is none). */
export function completeUtf8End(buffer: Buffer): number {
	for (let back = 1; back <= Math.min(3, buffer.length); back++) {
		const byte = buffer[buffer.length - back]!;
		if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
		const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
		return needed > back ? buffer.length - back : buffer.length;
	}

	return buffer.length;
}

/** A result line too long for the line limit: its first maxResultLineBytes and its last resultTailBytes. */
export class LongLine {
	readonly head: Buffer[] = [];
	private headBytes = 0;
	private tail: Buffer[] = [];
	private tailBytes = 0;

	add(part: Buffer): void {
		const intoHead = Math.min(part.length, maxResultLineBytes - this.headBytes);
		if (intoHead > 0) {
			this.head.push(Buffer.from(part.subarray(0, intoHead)));
			this.headBytes += intoHead;
		}

		if (intoHead === part.length) return;
		this.tail.push(Buffer.from(part.subarray(intoHead)));
		this.tailBytes += part.length - intoHead;
		while (this.tailBytes - this.tail[0]!.length >= resultTailBytes) this.tailBytes -= this.tail.shift()!.length;
	}

	/** The line, when all of it was kept. */
	whole(): Buffer | null {
		return this.tailBytes === 0 ? Buffer.concat(this.head) : null;
	}

	headText(): string {
		const head = Buffer.concat(this.head);
		return head.subarray(0, completeUtf8End(head)).toString('utf8');
	}

	tailText(): string {
		return Buffer.concat(this.tail).toString('utf8');
	}
}

/** Whether the line that starts with these bytes is a `result` event (Hermes writes `type` first). */
export function startsResultEvent(parts: readonly Buffer[]): boolean {
	const start = Buffer.concat(parts.slice(0, 8)).subarray(0, 64).toString('utf8');
	return /^[ \t]*\{\s*"type"\s*:\s*"result"/.test(start);
}

/** The start of a JSON string's content (after its opening quote), decoded as far as it goes. */
function jsonStringStart(source: string): string {
	const parts: string[] = [];
	const special = /["\\]/g;
	let at = 0;
	for (;;) {
		special.lastIndex = at;
		const found = special.exec(source);
		parts.push(source.slice(at, found ? found.index : source.length));
		if (!found || found[0] === '"') break;
		const escape = source[found.index + 1];
		if (escape === undefined) break;
		if (escape === 'u') {
			const hex = source.slice(found.index + 2, found.index + 6);
			if (!/^[\da-fA-F]{4}$/.test(hex)) break;
			parts.push(String.fromCharCode(Number.parseInt(hex, 16)));
			at = found.index + 6;
		} else {
			parts.push(({b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'} as Record<string, string>)[escape] ?? escape);
			at = found.index + 2;
		}
	}

	// A surrogate pair cut in half is no character.
	return parts.join('').replace(/[\uD800-\uDBFF]$/, '');
}

/**
 * A result event read from the two ends of its line: session and exit code come before `text`,
 * tokens, duration and error after it. A quote that ends a JSON string is never escaped, so the
 * first unescaped `", "tokens": {` in the tail is where the fields after the answer begin.
 */
export function cutResultEvent(head: string, tail: string): JsonObject {
	const textKey = /"text"\s*:\s*"/.exec(head);
	const before = textKey ? head.slice(0, textKey.index) : head;
	const session = /"session_id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(before);
	const exitCode = /"exit_code"\s*:\s*(-?\d+)/.exec(before);
	const event: JsonObject = {type: 'result', text: textKey ? jsonStringStart(head.slice(textKey.index + textKey[0].length)) : ''};
	if (session) event['session_id'] = jsonStringStart(`${session[1]!}"`);
	if (exitCode) event['exit_code'] = Number(exitCode[1]);
	for (const match of tail.matchAll(/(\\*)"\s*,\s*"tokens"\s*:\s*\{/g)) {
		if (match.index === 0 || match[1]!.length % 2 === 1) continue;
		try {
			const after: unknown = JSON.parse(`{${tail.slice(match.index + match[1]!.length + 1).replace(/^\s*,/, '')}`);
			if (after !== null && typeof after === 'object') return {...(after as JsonObject), ...event};
		} catch {
			// Not where the answer ends after all: look further.
		}
	}

	return event;
}
