// An output line's text as the operator sees it on screen. The display (src/ui) draws it and the
// zoom's search (src/state) looks in it, so both must agree: a match that is marked on screen is
// one that n/N can jump to, and the other way round.
import {maxEscapeStringLength, sanitizeLine, stripSgr} from './sanitize.js';

const tabWidth = 4;

// Characters whose width Ink and terminals disagree on, which would push pane borders out of
// line: unassigned and private-use code points show as U+FFFD; format characters (soft hyphen,
// bidi controls, zero-width space, variation selector 16) are dropped.
const unassignedOrPrivate = /[\p{Cn}\p{Co}]/gu;
// biome-ignore lint/suspicious/noMisleadingCharacterClass: U+FE0F is matched alone, as its own character, on purpose.
const formatCharacters = /[\p{Cf}\uFE0F](?<!\u200D)/gu;
// Emoji sequences are taken apart, because string-width (and so Ink) counts a sequence as one
// two-column character while terminals draw it as they please: tmux 3.3 draws 👍🏽 (with a skin
// tone) four columns wide, terminals without joiner support draw 👨‍👩‍👧 six. Skin tones and
// keycap marks are dropped and the joiners between emoji removed, leaving emoji that every
// terminal draws two columns wide (👍, 👨👩👧). A joiner elsewhere (in Indic scripts) stays.
const emojiParts = /[\u{1F3FB}-\u{1F3FF}\u20E3]|\u200D(?=\p{Extended_Pictographic})|(?<=\p{Extended_Pictographic})\u200D/gu;

/** Tabs expanded and unsteady characters replaced or dropped; SGR sequences, if any, are kept. */
export function screenText(line: string): string {
	// A tab's width depends on the terminal's tab stops, which Ink cannot measure.
	const expanded = line.includes('\t') ? line.replaceAll('\t', ' '.repeat(tabWidth)) : line;
	return /[^\u0000-\u00AC]/.test(expanded) ? expanded.replace(unassignedOrPrivate, '\uFFFD').replace(formatCharacters, '').replace(emojiParts, '') : expanded;
}

/** What the operator reads: the screen text without its styling. */
export function visibleText(line: string): string {
	return screenText(stripSgr(line));
}

/**
 * Text from task files and configs (a goal, a route name, a reason quoting them, an error) made
 * safe for a terminal: no escape sequence or control character, not even colour. It is as
 * untrusted as what a subagent prints.
 */
export function terminalSafe(text: string): string {
	// Line breaks stay (a detail may have several lines); a carriage return would move the cursor.
	return visibleText(sanitizeLine(text)).replaceAll('\r', '');
}

/** A search query as a pattern: literal text, any case. */
export function searchPattern(query: string): RegExp {
	return new RegExp(query.replaceAll(/[$()*+.?[\\\]^{|}]/g, '\\$&'), 'giu');
}

export function lineMatches(line: string, pattern: RegExp): boolean {
	// search() ignores the pattern's lastIndex, which a global pattern would otherwise carry over.
	return visibleText(line).search(pattern) !== -1;
}

export type TextPart = {readonly text: string; readonly match: boolean};

// Made at the first search match that needs it: the first Segmenter of a process loads ICU's break
// rules, ~9 ms of CPU, and every process imports this file (the runner host, which never searches,
// included: bench/RESULTS.md).
let graphemes: Intl.Segmenter | undefined;

/** Where the text's user-perceived characters start (and its end): a mark never cuts one. */
function graphemeStarts(text: string): number[] {
	graphemes ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'});
	return [...Array.from(graphemes.segment(text), segment => segment.index), text.length];
}

/**
 * The visible text cut where the pattern matches, for marking every match on screen. A match is
 * widened to whole characters as the terminal draws them (an emoji sequence, a letter with its
 * accent): cut apart and styled separately, a terminal may draw them at another width than Ink
 * measured.
 */
export function matchParts(line: string, pattern: RegExp): TextPart[] {
	const text = visibleText(line);
	const starts = /[^\u0000-\u007F]/.test(text) ? graphemeStarts(text) : undefined;
	const parts: TextPart[] = [];
	let last = 0;
	for (const found of text.matchAll(pattern)) {
		if (found[0] === '') continue;
		let start = found.index;
		let end = found.index + found[0].length;
		if (starts !== undefined) {
			start = starts.findLast(boundary => boundary <= start) ?? 0;
			end = starts.find(boundary => boundary >= end) ?? text.length;
		}

		start = Math.max(start, last);
		if (end <= start) continue;
		if (start > last) parts.push({text: text.slice(last, start), match: false});
		parts.push({text: text.slice(start, end), match: true});
		last = end;
	}

	if (last < text.length) parts.push({text: text.slice(last), match: false});
	return parts.length === 0 ? [{text, match: false}] : parts;
}

/**
 * At most `max` characters of `text` made terminal-safe, ending in '…' when cut. The text is made
 * safe first: cut first, an escape sequence could lose its terminator and swallow what follows.
 */
export function safeExcerpt(text: string, max: number): string {
	const safe = terminalSafe(text.length > max * 8 + maxEscapeStringLength ? text.slice(0, max * 8 + maxEscapeStringLength) : text);
	const chars = [...safe];
	return chars.length <= max ? safe : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * JSON for stdout: data, so nothing is removed, but every character a terminal could act on is
 * escaped. JSON.stringify escapes only U+0000–U+001F; DEL and the C1 controls (U+0080–U+009F, an
 * 8-bit CSI among them) would reach the terminal raw.
 */
export function jsonText(value: unknown, space?: number): string {
	return JSON.stringify(value, null, space).replace(/[\u007F-\u009F\u2028\u2029]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** More than any terminal line can show, wide characters included. */
export const maxMeasuredLength = 512;

/**
 * The start of `text`, short enough for width measurement on every frame: measuring a 50,000
 * character CJK name with combining marks took seconds per frame. Never splits a surrogate pair.
 */
export function measurable(text: string, max = maxMeasuredLength): string {
	if (text.length <= max) return text;
	const last = text.charCodeAt(max - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
