// Most of what agents print is text whose every character takes one column on its own and never
// joins its neighbours into one grapheme: ASCII, accented Latin, Greek, Cyrillic, and the symbols
// agents decorate lines with (▸ • → ⚙ ↳ ✓ │). The width of such a line is its length, and it may be
// cut anywhere, without string-width's and cli-truncate's grapheme segmentation (under 32
// trickling agents whose lines start with '▸', those were ~8 % of what the dashboard allocated).
// Which characters qualify is not written down here but asked of string-width itself, one code
// point at a time, the first time each is seen; test/ui/text/narrow.test.ts checks every one.
import stringWidth from 'string-width';

/**
 * Blocks where one code point is one grapheme unless it is a mark or a format character (both
 * excluded below): Latin to Armenian, and General Punctuation to Miscellaneous Symbols and Arrows.
 * Scripts with spacing marks, prepended letters or conjoining jamo (Indic, Thai, Hangul) are not
 * in them.
 */
export const narrowBlocks: ReadonlyArray<readonly [number, number]> = [[0x20, 0x58F], [0x2000, 0x2BFF]];

const end = 0x2C00;
const unknown = 0;
const narrow = 1;
const other = 2;
const kinds = new Uint8Array(end);
const joinsOrHidden = /[\p{M}\p{C}\p{Z}]/u;

function kindOf(code: number): number {
	const character = String.fromCharCode(code);
	const inBlock = narrowBlocks.some(([first, last]) => code >= first && code <= last);
	// A space is narrow (\p{Z} excludes the other spaces, line and paragraph separators).
	return inBlock && (code === 0x20 || !joinsOrHidden.test(character)) && stringWidth(character) === 1 ? narrow : other;
}

/** Every character one column wide on its own and a grapheme by itself, no escape sequence: the line's width is its length. */
export function isNarrowText(line: string): boolean {
	for (let index = 0; index < line.length; index++) {
		const code = line.charCodeAt(index);
		if (code >= end) {
			return false;
		}

		let kind = kinds[code]!;
		if (kind === unknown) {
			kind = kindOf(code);
			kinds[code] = kind;
		}

		if (kind !== narrow) {
			return false;
		}
	}

	return true;
}
