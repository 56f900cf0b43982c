// The zoom marks matches in the text as shown, and n/N look for them in the same text: the two
// must agree, or a marked line is skipped (or a line is found with nothing marked on it).
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {lineMatches, matchParts, screenText, searchPattern, terminalSafe} from '../../../src/core/output/visible-text.js';

const marked = (line: string, query: string) => matchParts(line, searchPattern(query)).map(part => (part.match ? `[${part.text}]` : part.text)).join('');

describe('matchParts', () => {
	it('marks every occurrence, whatever its case, keeping the line\'s own spelling', () => {
		expect(marked('Error: error in ERROR handler', 'error')).toBe('[Error]: [error] in [ERROR] handler');
	});

	it('matches the visible text: colour codes neither hide nor split a match', () => {
		expect(marked('\u001B[31mfa\u001B[0miled twice', 'failed')).toBe('[failed] twice');
	});

	it('takes the query literally, regular-expression characters included', () => {
		expect(marked('cost (est.) $3.50, not 3x50', '$3.5')).toBe('cost (est.) [$3.5]0, not 3x50');
		expect(marked('a+b a.b', 'a.b')).toBe('a+b [a.b]');
		expect(marked('path\\to [x] {y} ^z| /w/', '\\to [x] {y} ^z| /')).toBe('path[\\to [x] {y} ^z| /]w/');
	});

	it('gives the whole line, unmarked, when nothing matches', () => {
		expect(matchParts('nothing here', searchPattern('zzz'))).toEqual([{text: 'nothing here', match: false}]);
	});
});

describe('search and marks agree', () => {
	it.each([
		['a soft hyphen inside the word (dropped on screen)', 'fa\u00ADiled', 'failed', true],
		['a zero-width space inside the word (dropped on screen)', 'fai\u200Bled', 'failed', true],
		['a tab (shown as spaces)', 'key:\tvalue', 'key:    value', true],
		['colour inside the word', 'fa\u001B[1miled', 'failed', true],
		['a long s, which folds to s', '\u017Ftep', 'step', true],
		['no match at all', 'all good', 'failed', false],
	])('%s', (_name, line, query, expected) => {
		const pattern = searchPattern(query);
		expect(lineMatches(line, pattern)).toBe(expected);
		expect(matchParts(line, pattern).some(part => part.match)).toBe(expected);
	});

	it('a pattern can be used again and again: no state carried from one line to the next', () => {
		const pattern = searchPattern('x');
		expect(['x', 'x', 'ax', 'x'].map(line => lineMatches(line, pattern))).toEqual([true, true, true, true]);
	});
});

describe('marks never cut a character as the terminal draws it', () => {
	it('a match inside an emoji sequence marks the whole sequence', () => {
		const flag = '\u{1F1EB}\u{1F1F7}';
		expect(marked(`team ${flag} ok`, '\u{1F1F7}')).toBe(`team [${flag}] ok`);
	});

	it('a letter with a combining accent is marked with its accent', () => {
		expect(marked('cafe\u0301 open', 'cafe')).toBe('[cafe\u0301] open');
	});

	it('neighbouring matches widened onto one character are marked once', () => {
		expect(marked('e\u0301e\u0301', 'e')).toBe('[e\u0301][e\u0301]');
	});
});

describe('terminalSafe', () => {
	it('lets no escape sequence, control character or bidi override of a task file or config through', () => {
		const hostile = 'goal\u001B]52;c;Y2xpcGJvYXJk\u0007 \u001B]2;title\u001B\\ \u001B[2J\u001B[31mred\u001B[0m \u009B1m \u202Eevil\r x\u0007';
		expect(terminalSafe(hostile)).toBe('goal  red  evil x');
	});

	it('keeps the text, its line breaks and its tabs (as spaces)', () => {
		expect(terminalSafe('first line\nsecond\tcolumn')).toBe('first line\nsecond    column');
	});
});

describe('emoji sequences are drawn at the width Ink measures', () => {
	// Skin tones, joined families and professions, a keycap, a flag with VS16 and a joiner.
	const sequences = ['\u{1F44D}\u{1F3FD}', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', '\u{1F469}\u{1F3FD}\u200D\u{1F4BB}', '1\uFE0F\u20E3', '\u{1F3F3}\uFE0F\u200D\u{1F308}', '\u{1F3C3}\u200D\u2640\uFE0F'];

	it.each(sequences)('%s: as wide as its code points drawn one by one, which is how every terminal can draw it', sequence => {
		const shown = screenText(`a ${sequence} b`);
		expect(stringWidth(shown)).toBe([...shown].reduce((sum, character) => sum + stringWidth(character), 0));
	});

	it('keeps the emoji themselves', () => {
		expect(screenText('\u{1F468}\u200D\u{1F469}\u200D\u{1F467} \u{1F44D}\u{1F3FD}')).toBe('\u{1F468}\u{1F469}\u{1F467} \u{1F44D}');
	});
});
