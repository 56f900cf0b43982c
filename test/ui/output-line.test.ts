// Output lines must take exactly the width Ink computes for them, or pane borders drift.
import {describe, expect, it} from 'vitest';
import {displayLine} from '../../src/ui/output-line.js';

describe('displayLine', () => {
	it.each([
		['an unassigned code point shows as U+FFFD', 'a\u0381b', 'a\uFFFDb'],
		['a private-use character shows as U+FFFD', 'x\uE000y', 'x\uFFFDy'],
		['a soft hyphen is dropped', 'co\u00ADoperate', 'cooperate'],
		['a bidi override is dropped', '\u202Eevil', 'evil'],
		['variation selector 16 is dropped', '\u2764\uFE0F ok', '\u2764 ok'],
		['the zero-width joiner of an emoji sequence stays', '\u{1F468}\u200D\u{1F469}', '\u{1F468}\u200D\u{1F469}'],
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
