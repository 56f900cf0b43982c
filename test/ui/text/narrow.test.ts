// Lines of narrow characters (ui/text/narrow.ts) are cut without string-width and cli-truncate:
// which characters count as narrow is asked of string-width one code point at a time, and here
// every one of them is checked to measure and cut exactly as the slow path does, alone, in
// company, and at every position of a cut.
import cliTruncate from 'cli-truncate';
import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {isNarrowText, narrowBlocks} from '../../../src/ui/text/narrow.js';
import {fitLine} from '../../../src/ui/text/output-line.js';

/** fitLine's slow path, as it cuts any line. */
function slowFit(line: string, width: number): string {
	let fitted = width > 0 && stringWidth(line) > width ? cliTruncate(line, width) : line;
	for (let narrower = width - 1; stringWidth(fitted) > width && narrower > 0; narrower--) {
		fitted = cliTruncate(line, narrower);
	}

	return fitted;
}

const narrowCharacters: string[] = [];
for (const [first, last] of narrowBlocks) {
	for (let code = first; code <= last; code++) {
		const character = String.fromCharCode(code);
		if (isNarrowText(character)) {
			narrowCharacters.push(character);
		}
	}
}

describe('narrow text', () => {
	it('covers what agents print, and nothing string-width measures otherwise', () => {
		for (const character of ['a', ' ', 'é', 'ß', 'Ω', 'ж', '▸', '•', '→', '⚙', '↳', '✓', '│', '…']) {
			expect(narrowCharacters).toContain(character);
		}

		for (const line of ['日本', '😀', 'e\u0301', '\u00AD', '\u200B', '\u001B[31mred', 'a\tb', '\u231A', '\u1100\u1161', 'กำ']) {
			expect(isNarrowText(line)).toBe(false);
		}
	});

	it('measures and cuts every narrow character exactly as the slow path does, wherever the cut falls', () => {
		expect(narrowCharacters.length).toBeGreaterThan(2000);
		for (const character of narrowCharacters) {
			const line = `ab${character}c${character}${character}de`;
			expect(stringWidth(character)).toBe(1);
			expect(stringWidth(line)).toBe(line.length);
			for (let width = 1; width <= line.length; width++) {
				expect(fitLine(line, width)).toBe(slowFit(line, width));
			}
		}
	});

	it('measures and cuts any mix of narrow characters as the slow path does', () => {
		const line = fc.array(fc.constantFrom(...narrowCharacters), {maxLength: 60}).map(characters => characters.join(''));
		fc.assert(fc.property(line, fc.integer({min: -1, max: 64}), (text, width) => {
			expect(isNarrowText(text)).toBe(true);
			expect(stringWidth(text)).toBe(text.length);
			expect(fitLine(text, width)).toBe(slowFit(text, width));
		}), {numRuns: 3000});
	});
});
