// Output lines as a pane prints them. They arrive sanitised (only SGR styling survives); what is
// left to do here is what depends on the screen: tabs, and colour under the no-color theme.
import {stripSgr} from '../core/sanitize.js';
import type {Theme} from '../core/themes.js';

const tabWidth = 4;
const colourCache = new WeakMap<Theme, boolean>();

/** False for a theme without a single colour (the no-color theme): output colours go too. */
export function themeHasColour(theme: Theme): boolean {
	let result = colourCache.get(theme);
	if (result === undefined) {
		result = Object.values(theme.colors).some(group => Object.values(group).some(colour => colour !== undefined));
		colourCache.set(theme, result);
	}

	return result;
}

// Characters whose width Ink and terminals disagree on, which would push pane borders out of
// line: unassigned and private-use code points show as U+FFFD; format characters (soft hyphen,
// bidi controls, variation selector 16; not the zero-width joiner of emoji) are dropped.
const unassignedOrPrivate = /[\p{Cn}\p{Co}]/gu;
const formatCharacters = /[\p{Cf}\uFE0F](?<!\u200D)/gu;

/** Never empty: an empty Text takes no line in Ink, which would shift every line below it up. */
export function displayLine(line: string, colour: boolean): string {
	// A tab's width depends on the terminal's tab stops, which Ink cannot measure.
	const text = colour ? line : stripSgr(line);
	const expanded = text.includes('\t') ? text.replaceAll('\t', ' '.repeat(tabWidth)) : text;
	const steady = /[^\u0000-\u00AC]/.test(expanded) ? expanded.replace(unassignedOrPrivate, '\uFFFD').replace(formatCharacters, '') : expanded;
	return steady === '' ? ' ' : steady;
}

/** The visible text of a line, for highlighting it as a whole. */
export function plainLine(line: string): string {
	return displayLine(stripSgr(line), false);
}

export type LinePart = {readonly text: string; readonly match: boolean};

/**
 * The visible text of a line cut where a search query occurs, case-insensitively, for marking
 * every match on screen (the zoom's search jumps between them; the others should still show).
 */
export function matchParts(line: string, query: string): LinePart[] {
	const text = plainLine(line);
	if (query === '') return [{text, match: false}];
	const pattern = new RegExp(query.replaceAll(/[$()*+.?[\\\]^{|}]/g, '\\$&'), 'giu');
	const parts: LinePart[] = [];
	let last = 0;
	for (const found of text.matchAll(pattern)) {
		if (found.index > last) parts.push({text: text.slice(last, found.index), match: false});
		parts.push({text: found[0], match: true});
		last = found.index + found[0].length;
	}

	if (last < text.length) parts.push({text: text.slice(last), match: false});
	return parts;
}
