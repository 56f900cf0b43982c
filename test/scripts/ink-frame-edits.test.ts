// The frame edits to Ink's Output (scripts/ink-cache-bounds.mjs: caches kept across frames, no
// slice for a line that fits its clip, one shared blank cell, one shared cell per character in
// a style, rows reused from earlier frames) must not change a single character of what Ink
// draws. Ink's Output is bundled twice, as published and as the build edits it, and both draw
// the same sequences of frames: styled text, wide characters, clips that cut and clips that do
// not, rows that change and rows that stay between frames.
import {mkdtempSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type {RolldownPluginOption} from 'rolldown';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bundledInk} from '../helpers/bundled-ink.js';
import {boundInkCaches, cellLimit} from '../../scripts/ink-cache-bounds.mjs';

type Clip = {x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined};
type OutputInstance = {
	write(x: number, y: number, text: string, options: {transformers: Array<(line: string, index: number) => string>}): void;
	clip(clip: Clip): void;
	unclip(): void;
	get(): {output: string; height: number};
};
type OutputClass = new (options: {width: number; height: number}) => OutputInstance;

const installedInk = path.dirname(createRequire(import.meta.url).resolve('ink'));
const work = mkdtempSync(path.join(tmpdir(), 'hd-ink-frames-'));
afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

async function bundledOutput(name: string, plugins: RolldownPluginOption[]): Promise<OutputClass> {
	return bundledInk<OutputClass>(work, name, installedInk, 'output.js', 'Output', plugins);
}

type MeasureText = (text: string) => {width: number; height: number};

let published: OutputClass;
let edited: OutputClass;
let publishedMeasure: MeasureText;
let editedMeasure: MeasureText;
beforeAll(async () => {
	published = await bundledOutput('published', []);
	edited = await bundledOutput('edited', [boundInkCaches()]);
	publishedMeasure = await bundledInk<MeasureText>(work, 'published-measure', installedInk, 'measure-text.js', 'measureText', []);
	editedMeasure = await bundledInk<MeasureText>(work, 'edited-measure', installedInk, 'measure-text.js', 'measureText', [boundInkCaches()]);
}, 60_000);

const width = 24;
const height = 6;
// Also characters whose width string-width and slice-ansi disagree on (a tab, a mark that
// starts a line, a soft hyphen, a zero-width space, a Hangul filler): published Ink slices those.
// Styles left open too, so that characters of two different styles meet inside one write.
const pieces = ['a', 'word ', '日本', '😀', 'é', '\u001B[31mred\u001B[39m', '\u001B[1mbold\u001B[22m', '\u001B[4;32mx\u001B[0m', '\u001B[1m', '\u001B[2m', '\u001B[33m', '\u001B[38;5;208m', '\u001B[22m', '\u001B[0m', ' ', '\t', '\u0301', '\u00AD', '\u200B', '\u1160'];
const line = fc.array(fc.constantFrom(...pieces), {maxLength: 12}).map(parts => parts.join(''));
const write = fc.record({
	// Past the width too: such a write leaves holes in the row.
	x: fc.integer({min: 0, max: width + 3}),
	y: fc.integer({min: 0, max: height - 1}),
	text: fc.array(line, {minLength: 1, maxLength: 3}).map(lines => lines.join('\n')),
	clip: fc.option(fc.record({x1: fc.integer({min: 0, max: 10}), x2: fc.integer({min: 4, max: width}), y1: fc.integer({min: 0, max: 2}), y2: fc.integer({min: 2, max: height})}), {nil: undefined}),
});
type Write = {x: number; y: number; text: string; clip: Clip | undefined};

function draw(Output: OutputClass, writes: Write[], columns = width): string {
	const output = new Output({width: columns, height});
	for (const {x, y, text, clip} of writes) {
		if (clip) {
			output.clip(clip);
		}

		output.write(x, y, text, {transformers: []});
		if (clip) {
			output.unclip();
		}
	}

	return output.get().output;
}

describe('Ink bundled with the frame edits', () => {
	it('draws every frame exactly as Ink as published does, frame after frame', () => {
		// Frames repeat and vary: a frame drawn twice must reuse rows, one that changes must not.
		const frames = fc.array(fc.array(write, {maxLength: 6}), {minLength: 1, maxLength: 5}).chain(distinct => fc.array(fc.constantFrom(...distinct), {minLength: 2, maxLength: 10}));
		fc.assert(fc.property(frames, sequence => {
			for (const writes of sequence) {
				expect(draw(edited, writes)).toBe(draw(published, writes));
			}
		}), {numRuns: 300});
	});

	it('does not reuse a row whose earlier frame had a hole where this one has a character', () => {
		// A write past the width leaves holes in the row; the next frame fills one of them.
		const frames: Write[][] = [[{x: width + 2, y: 0, text: 'a', clip: undefined}], [{x: width + 1, y: 0, text: 'b', clip: undefined}, {x: width + 2, y: 0, text: 'a', clip: undefined}]];
		for (const writes of frames) {
			expect(draw(edited, writes)).toBe(draw(published, writes));
		}
	});

	it('does not reuse a row written as in the frame before when the width changed', () => {
		// The same writes, one of them past the narrower width: that row has holes at one width and
		// blanks at the other.
		const writes: Write[] = [{x: 0, y: 0, text: 'left', clip: undefined}, {x: width + 2, y: 0, text: 'far', clip: undefined}, {x: 0, y: 1, text: '日本', clip: undefined}];
		for (const columns of [width, width + 6, width, width + 6, width - 1]) {
			expect(draw(edited, writes, columns)).toBe(draw(published, writes, columns));
		}
	});

	it('draws as published Ink does after its table of shared cells has been cleared', () => {
		// More distinct characters (in two styles) than the table holds, then the first lines again:
		// lines cached before the clear keep their cells, new ones get new cells.
		const cjk = Array.from({length: cellLimit + 500}, (_, i) => String.fromCodePoint(0x4E00 + i));
		const lines = Array.from({length: Math.ceil(cjk.length / 10)}, (_, i) => cjk.slice(i * 10, (i + 1) * 10).join(''));
		const styled = lines.map((text, i) => (i % 2 === 0 ? text : `\u001B[31m${text}\u001B[39m`));
		const frames = Array.from({length: Math.ceil(styled.length / height)}, (_, i) => styled.slice(i * height, (i + 1) * height));
		for (const frame of [...frames, ...frames.slice(0, 3)]) {
			const writes = frame.map((text, y) => ({x: 0, y, text, clip: undefined}));
			expect(draw(edited, writes)).toBe(draw(published, writes));
		}
	});

	it('keeps a line that only fits its clip whole, and cuts one that does not, as published Ink does', () => {
		const clip = {x1: 0, x2: 8, y1: 0, y2: height};
		// Bold then dim, both open: slice-ansi keeps only the dim, even where the line fits.
		for (const text of ['\u001B[31mfits\u001B[39m', '\u001B[31mmuch too long\u001B[39m for it', '日本語の文字列', '\u001B[1m\u001B[2ma']) {
			expect(draw(edited, [{x: 0, y: 0, text, clip}])).toBe(draw(published, [{x: 0, y: 0, text, clip}]));
		}

		expect(draw(edited, [{x: 0, y: 0, text: 'much too long', clip}]).split('\n')[0]).toBe('much too');
	});

	it('measures every text as published Ink does, also after its line widths have turned over', () => {
		const texts = fc.array(fc.oneof(line, line.map(text => `${text}…`)), {minLength: 1, maxLength: 8}).map(lines => lines.join('\n'));
		fc.assert(fc.property(texts, text => {
			expect(editedMeasure(text)).toEqual(publishedMeasure(text));
		}), {numRuns: 500});
		// More distinct lines than both generations of line widths hold, then the first ones again
		// (measured afresh) and some the older generation holds.
		const many = Array.from({length: 5000}, (_, i) => `${'日'.repeat(i % 7)}line ${i}…`);
		for (const text of [...many, ...many.slice(0, 50), ...many.slice(3000, 3050)]) {
			expect(editedMeasure(`${text}\nx`)).toEqual(publishedMeasure(`${text}\nx`));
		}
	});
});
