// Display output that waits to be decoded (TaskOutput decodes when somebody looks): where the
// waiting stdout may be cut so that only its newest lines are decoded, and which of them may stay
// raw bytes until read. Byte searches only: the point is never to decode what nobody will see.

/** One chunk as it arrived, stdout and stderr interleaved. */
export type Pending = {stderr: boolean; chunk: Buffer};

/**
 * Whether the waiting stdout up to `to` may stay raw until read: it has no
 * escape sequence (an SGR or an unterminated string there changes how the lines after it are
 * decoded, and raw lines are decoded apart from them) and is no larger than the tail may hold
 * decoded (lines kept raw are not yet cut to maxLineLength).
 */
export function rawRegionFits(pending: readonly Pending[], to: {index: number; offset: number}, maxBytes: number): boolean {
	let bytes = 0;
	for (let index = 0; index <= to.index; index++) {
		const {stderr, chunk} = pending[index]!;
		if (stderr) {
			continue;
		}

		const part = index === to.index ? chunk.subarray(0, to.offset) : chunk;
		bytes += part.length;
		if (bytes > maxBytes || hasEscapes(part)) {
			return false;
		}
	}

	return true;
}

/** ESC, or a C1 control (U+0080–U+009F, which starts 8-bit sequences) in UTF-8. */
function hasEscapes(bytes: Buffer): boolean {
	if (bytes.includes(0x1B)) {
		return true;
	}

	for (let at = bytes.indexOf(0xC2); at !== -1; at = bytes.indexOf(0xC2, at + 1)) {
		const next = bytes[at + 1];
		if (next !== undefined && next >= 0x80 && next <= 0x9F) {
			return true;
		}
	}

	return false;
}

/**
 * Where the stdout waiting in `pending` may be cut: just after the line break that has
 * `keep` more after it, so that the newest `keep` lines and the partial line after them are
 * still decoded. `lines`: line breaks before the cut (each completes a line that is skipped).
 * Undefined when the waiting stdout has no more than `keep` line breaks.
 */
export function stdoutCut(pending: readonly Pending[], keep: number): {index: number; offset: number; lines: number} | undefined {
	let seen = 0;
	for (let index = pending.length - 1; index >= 0; index--) {
		const {stderr, chunk} = pending[index]!;
		if (stderr) {
			continue;
		}

		for (let at = chunk.lastIndexOf(0x0A); at !== -1; at = at === 0 ? -1 : chunk.lastIndexOf(0x0A, at - 1)) {
			if (++seen > keep) {
				return {index, offset: at + 1, lines: countLineBreaks(chunk, at + 1) + pending.slice(0, index).reduce((sum, item) => sum + (item.stderr ? 0 : countLineBreaks(item.chunk, item.chunk.length)), 0)};
			}
		}
	}

	return undefined;
}

export function countLineBreaks(chunk: Buffer, end: number): number {
	let count = 0;
	for (let at = chunk.indexOf(0x0A); at !== -1 && at < end; at = chunk.indexOf(0x0A, at + 1)) {
		count++;
	}

	return count;
}
