// An edit to string-width (what Ink measures every text with) applied only as it enters the
// bundle (scripts/build.mjs), as the Ink edits are (scripts/ink-cache-bounds.mjs).
//
// string-width counts printable ASCII by its length; any other character sends the whole text
// through Intl.Segmenter and several Unicode-property regexes per character. A pane's line cut
// with '…', a box-drawing rule, an arrow, a braille spinner or one accented letter is enough,
// and the dashboard measures each new line it shows (a list row's last output changes with every
// line a task prints): under 32 trickling agents string-width was the dashboard's largest
// function by self time. Characters that are each one column wide and each a character of their
// own (no mark, joiner, emoji or Hangul jamo; no format or unassigned code point) add up to the
// text's length as well, so a text made only of them and printable ASCII is counted the same way.
// The same answer as published string-width, character by character: test/scripts/ink-string-width.test.ts
// checks every character of the set against it. Only with the default `ambiguousIsNarrow`
// (ambiguous-width characters, box drawing among them, are two columns otherwise).
import {readFileSync} from 'node:fs';

/**
 * One-column characters that never join a neighbour: Latin-1 (not ©, ®, the soft hyphen),
 * Latin Extended-A/B, IPA, spacing modifiers, Greek and Cyrillic letters (not Cyrillic's
 * combining marks), general punctuation (not the zero-width, bidi and invisible ones, ‼ or ⁉),
 * currency signs, arrows (not the emoji ones), mathematical operators, box drawing, block
 * elements, geometric shapes (not the emoji ones), the check marks and crosses of Dingbats that are
 * not emoji (✓ ✕ ✗ ✘: the dashboard's own status marks) and braille.
 */
export const narrowCharacters = '\\u00A0-\\u00A8\\u00AA-\\u00AC\\u00AF-\\u02FF\\u0370-\\u0377\\u037A-\\u037F\\u0384-\\u038A\\u038C\\u038E-\\u03A1\\u03A3-\\u0482\\u048A-\\u04FF'
	+ '\\u2010-\\u2027\\u2030-\\u203B\\u203D-\\u2048\\u204A-\\u205E\\u20A0-\\u20C0\\u2190-\\u2193\\u219A-\\u21A8\\u21AB-\\u21FF\\u2200-\\u22FF'
	+ '\\u2500-\\u25A9\\u25AC-\\u25B5\\u25B7-\\u25BF\\u25C1-\\u25FA\\u2713\\u2715\\u2717\\u2718\\u2800-\\u28FF';

const marker = '/* hermes-delegate: narrow run */';
const find = 'if (/^[\\u0020-\\u007E]*$/.test(string)) {';
const replace = `${marker} if (/^[\\u0020-\\u007E]*$/.test(string) || (ambiguousIsNarrow && /^[\\u0020-\\u007E${narrowCharacters}]*$/.test(string))) {`;

/** string-width's source with the wider fast path; `undefined` if it differs from the one the edit was written for. */
export function patchStringWidthSource(text) {
	if (text.includes(marker)) return text;
	if (!text.includes(find)) return undefined;
	return text.replace(find, replace);
}

/**
 * A rolldown plugin that applies the edit as string-width enters a bundle; fails the build if
 * it cannot. Only the version Ink imports (the top-level one): wrap-ansi's own older copy has no
 * fast path to widen.
 */
export function stringWidthNarrowRun() {
	let patched = false;
	return {
		name: 'string-width-narrow-run',
		load(id) {
			// node_modules/string-width itself, not a copy nested in another package's node_modules.
			if (!/[\\/]node_modules[\\/]string-width[\\/]index\.js$/.test(id) || id.split('node_modules').length !== 2) return null;
			const text = patchStringWidthSource(readFileSync(id, 'utf8'));
			if (text === undefined) {
				this.error('node_modules/string-width/index.js differs from the one scripts/ink-string-width.mjs was written for: update the edit for this version');
			}

			patched = true;
			return text;
		},
		buildEnd(error) {
			if (error || patched) return;
			this.error('node_modules/string-width/index.js never entered the bundle: update scripts/ink-string-width.mjs');
		},
	};
}
