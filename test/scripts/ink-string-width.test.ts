// string-width as the build edits it (scripts/ink-string-width.mjs) counts a text of printable
// ASCII and the one-column, never-joining characters of narrowCharacters by its length, without
// Intl.Segmenter; the answer is published string-width's for every text. Every character of the
// set is checked against published string-width and Intl.Segmenter here, so a set that let in
// a wide, zero-width or joining character fails.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import fc from 'fast-check';
import {rolldown} from 'rolldown';
import publishedWidth from 'string-width';
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest';
import {narrowCharacters, patchStringWidthSource, stringWidthNarrowRun} from '../../scripts/ink-string-width.mjs';

type StringWidth = (text: string, options?: {ambiguousIsNarrow?: boolean}) => number;

const work = mkdtempSync(path.join(tmpdir(), 'hd-string-width-'));
afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});
afterEach(() => {
	vi.restoreAllMocks();
});

let editedWidth: StringWidth;
beforeAll(async () => {
	// Bundled as scripts/build.mjs bundles it, the plugin included.
	const entry = path.join(work, 'entry.mjs');
	writeFileSync(entry, `export {default} from ${JSON.stringify(createRequire(import.meta.url).resolve('string-width'))};`);
	const bundle = await rolldown({input: entry, platform: 'node', external: [/^node:/], plugins: [stringWidthNarrowRun()], logLevel: 'silent'});
	const bundled = path.join(work, 'string-width.mjs');
	await bundle.write({file: bundled, format: 'esm'});
	await bundle.close();
	editedWidth = ((await import(pathToFileURL(bundled).href)) as {default: StringWidth}).default;
});

const narrow = new RegExp(`^[${narrowCharacters}]$`);
const characters: string[] = [];
for (let code = 0; code <= 0xffff; code++) {
	if (narrow.test(String.fromCharCode(code))) characters.push(String.fromCharCode(code));
}

const graphemes = new Intl.Segmenter();
const count = (text: string) => [...graphemes.segment(text)].length;

describe("string-width's fast path for narrow characters", () => {
	it('admits only assigned characters one column wide that stand alone as graphemes', () => {
		expect(characters.length).toBeGreaterThan(1900);
		const wrong = characters.filter(char => publishedWidth(char) !== 1
			|| /[\p{Cn}\p{Extended_Pictographic}\p{M}\p{Cf}]/u.test(char)
			|| count(`a${char}a`) !== 3 || count(char + char) !== 2);
		expect(wrong.map(char => char.charCodeAt(0).toString(16))).toEqual([]);
	});

	it('measures a line of them without segmenting it, where published string-width segments it', () => {
		const line = '▸ step output — “quoted” café ═══ ⠋ → 42 % ±3 …';
		const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
		expect(editedWidth(line)).toBe([...line].length);
		expect(segment).not.toHaveBeenCalled();
		expect(publishedWidth(line)).toBe([...line].length);
		expect(segment).toHaveBeenCalled();
	});

	it('gives published string-width\'s answer for any text, ambiguous characters wide or narrow', () => {
		const others = ['a', ' ', '\u001B[31m', '\u001B[0m', '\t', '\u0301', '\u200D', '\uFE0F', '👍', '👨‍👩‍👧', '漢', '한', '\u1100\u1161', '©', '\u00AD', '✅', '‼', '\u2028', '\uD83D'];
		const piece = fc.oneof(fc.constantFrom(...characters), fc.constantFrom(...others), fc.string({maxLength: 3}));
		fc.assert(fc.property(fc.array(piece, {maxLength: 30}), fc.boolean(), (pieces, ambiguousIsNarrow) => {
			const text = pieces.join('');
			expect(editedWidth(text, {ambiguousIsNarrow})).toBe(publishedWidth(text, {ambiguousIsNarrow}));
		}), {numRuns: 2000});
	});

	it('a string-width the edit was not written for is refused', () => {
		expect(patchStringWidthSource('export default function stringWidth() {}')).toBeUndefined();
	});
});
