// Output lines must take exactly the width Ink computes for them, or pane borders drift.
import {describe, expect, it} from 'vitest';
import {displayLine} from '../../../src/ui/text/output-line.js';

describe('displayLine', () => {
	it.each([
		['an unassigned code point shows as U+FFFD', 'a\u0381b', 'a\uFFFDb'],
		['a private-use character shows as U+FFFD', 'x\uE000y', 'x\uFFFDy'],
		['a soft hyphen is dropped', 'co\u00ADoperate', 'cooperate'],
		['a bidi override is dropped', '\u202Eevil', 'evil'],
		['variation selector 16 is dropped', '\u2764\uFE0F ok', '\u2764 ok'],
		['an emoji sequence is taken apart: its joiners go', '\u{1F468}\u200D\u{1F469}', '\u{1F468}\u{1F469}'],
		['a skin tone is dropped', 'ok \u{1F44D}\u{1F3FD}', 'ok \u{1F44D}'],
		['a keycap mark is dropped', '1\uFE0F\u20E3 first', '1 first'],
		['a joiner in an Indic script stays', '\u0915\u094D\u200D\u0937', '\u0915\u094D\u200D\u0937'],
		['tabs become spaces', 'a\tb', 'a    b'],
		['plain ASCII is untouched', 'plain text', 'plain text'],
		['an empty line still takes a row', '', ' '],
	])('%s', (_label, input, expected) => {
		expect(displayLine(input, true)).toBe(expected);
	});

	it('drops colours only when the theme has none', () => {
		expect(displayLine('\u001B[31mred\u001B[0m', true)).toBe('\u001B[31mred\u001B[0m');
		expect(displayLine('\u001B[31mred\u001B[0m', false)).toBe('red');
	});
});
