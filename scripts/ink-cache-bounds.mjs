// Edits to Ink 6 applied only as Ink enters the bundle (scripts/build.mjs), so what users run has
// them whatever their npm does with install scripts, and node_modules/ink stays as the lockfile
// says. The build fails when Ink's files differ from the ones these edits were written for.
//
// - Bounds: Ink 6 keeps every distinct string it has ever measured or wrapped in two module-level
//   caches with no bound (bounded upstream in Ink 8, which needs Node 22: see "When this can go").
//   A dashboard that shows endless fresh agent output would grow without limit: measured at
//   ~24 MB/s under twelve floods. `npm run bench:ink-cache` measures the bound.
// - Frames: every frame Ink re-measures (string-width) and re-tokenizes (slice-ansi,
//   ansi-tokenize) every visible line, although a frame of the dashboard changes a few lines of
//   a few panes. Profiled under 32 trickling agents that was ~40 % of the dashboard's CPU. So the
//   per-frame caches of Output become one bounded cache kept across frames, a text's widest line
//   is cached the same way, and a line that fits its clip is not sliced at all (slicing it from 0
//   to its own width returns the same characters; a line with escape codes is sliced once and
//   remembered, since slice-ansi may rewrite its codes). A row written as in the frame before
//   (the same lines at the same places) is that frame's text again: only the rows a frame
//   changes are built cell by cell.
// - Garbage: under 32 trickling agents the dashboard allocated ~84 MB/s, most of it in
//   ansi-tokenize's per-character style diff (three Sets per pair of neighbours) and in
//   string-width measuring the same lines again. Neighbours of the same style are no longer
//   diffed, a row is allocated at its size, and a line's width is kept. Together with the
//   copies of output lines kept between reads (core/output/merged-lines.ts) and printable ASCII cut
//   without cli-truncate (ui/text/output-line.ts): ~84 → ~26 MB/s, which is what let the heap grow.
//
// When this can go. Ink 8.0.0 bounds both caches itself (measure-text.js and wrap-text.js each
// keep a QuickLRU of 4,096 entries in its published build; reported in vadimdemedes/ink#986, an
// LRU first proposed in #987, the key of the bounded wrapText cache fixed in #998). Ink 7 does not
// (#986 was measured on 7.1.1), and Ink 7 and 8 both need Node >=22, while our engines
// (`^20.17 || >=22.9`) still take Node 20. So: once engines drop Node 20, move to Ink 8 and delete
// the Bounds edits and test/scripts/ink-cache-bounds.test.ts. The Frames and Garbage edits have
// no counterpart in Ink 8.0.0 (its renderer still makes a new Output, with new caches, for each
// frame, and a styled object per character): they stay, rewritten for Ink 8's files, unless
// `npm run bench:tui-load` on Ink 8 without them shows they no longer pay. While any edit stays,
// so does vitest's `edited-ink` project; its proof (ink-cache-bounds-in-ui-tests.test.tsx) is our
// 1,000-entry bound, so without the Bounds edits it needs another sign of the edited Ink.
import {readFileSync} from 'node:fs';
import {replayEdits, replayMarker} from './ink-subtree-replay.mjs';

export const marker = '/* hermes-delegate: bounded cache */';
/**
 * Entries per cache. A 200×50 screen holds a few hundred distinct texts at most; more entries
 * only keep text that has scrolled away alive into the old generation (a 3-minute soak grew
 * ~11 % with 4,000).
 */
export const cacheLimit = 1000;

/** Lines tokenized into styled characters kept across frames: a few screens' worth (each entry is an array of shared cells). */
export const styledLineLimit = 1024;

/** Distinct cells (a character in a style) shared by every line that shows them: a screen of text in a few dozen styles. */
export const cellLimit = 8192;

/** Widths of single lines kept per generation (two generations): more than a 200×50 screen of 32 panes shows. */
export const lineWidthLimit = 2048;

/** Characters of those lines per generation: ~20 screens of 200×50 however long the lines are. */
export const lineWidthCharLimit = 256 * 1024;

export const patchedFiles = ['measure-text.js', 'wrap-text.js', 'output.js', 'render-node-to-output.js', 'dom.js', 'reconciler.js', 'components/Text.js'];

const bounded = (map, limit) => `if (this.${map}.size >= ${limit}) this.${map}.clear();\n            this.${map}.set(`;

const edits = {
	'measure-text.js': [
		// A text's width is its widest line's. The dashboard's texts are a pane's tail: each frame
		// that moves it up is a new text made of the same lines, and a line cut with '…' is not
		// ASCII, so string-width measured it grapheme by grapheme, again and again (under 32
		// trickling agents ~11 % of what the dashboard allocated). So each line's width is kept,
		// in two generations: the lines of the last frames survive when the newer one fills up.
		["import widestLine from 'widest-line';", `import stringWidth from 'string-width';
${marker} let lineWidths = new Map();
let olderLineWidths = new Map();
let lineWidthChars = 0;
const lineWidth = line => {
    let width = lineWidths.get(line);
    if (width === undefined) {
        width = olderLineWidths.get(line) ?? stringWidth(line);
        // Bounded in lines and in characters: the zoom draws lines of up to 2,000 characters.
        if (lineWidths.size >= ${lineWidthLimit} || lineWidthChars >= ${lineWidthCharLimit}) {
            olderLineWidths = lineWidths;
            lineWidths = new Map();
            lineWidthChars = 0;
        }
        // A copy as the key: a line split out of a text would keep the whole text alive.
        lineWidths.set((' ' + line).slice(1), width);
        lineWidthChars += line.length;
    }
    return width;
};
export const widestLine = text => {
    let widest = 0;
    for (const line of text.split('\\n')) {
        widest = Math.max(widest, lineWidth(line));
    }
    return widest;
};`],
		['    cache.set(text, dimensions);', `    ${marker} if (cache.size >= ${cacheLimit}) cache.clear();\n    cache.set(text, dimensions);`],
	],
	'wrap-text.js': [
		['const cache = {};', `${marker} let cache = {}; let cacheSize = 0;`],
		['    cache[cacheKey] = wrappedText;', `    if (++cacheSize > ${cacheLimit}) { cache = {}; cacheSize = 1; }\n    cache[cacheKey] = wrappedText;`],
	],
	'output.js': [
		["import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';", "import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, tokenize, undoAnsiCodes, } from '@alcalzone/ansi-tokenize';"],
		// A line's characters as shared cells (see cellsOf), not an object and a styles array per
		// character per line.
		['            cached = styledCharsFromTokens(tokenize(line));', '            cached = cellsOf(tokenize(line));'],
		['            this.styledChars.set(', `${marker} ${bounded('styledChars', styledLineLimit)}`],
		['            this.widths.set(', bounded('widths', cacheLimit)],
		['            this.blockWidths.set(', bounded('blockWidths', cacheLimit)],
		['class OutputCaches {', `${marker} // Ink never changes a cell, it replaces it, so one frozen object per character in a style can
// stand for it in every line that shows it. Published Ink makes an object and a styles array per
// character of each new line (ansi-tokenize's styledCharsFromTokens); under 32 trickling agents
// those were the largest share of what survived into the old generation. Bounded: a line keeps
// the cells it was made of when the table is cleared.
const plainStyles = Object.freeze([]);
let cellsByStyle = new Map();
let cellCount = 0;
const stylesKey = codes => codes.map(code => code.code + '\\0' + code.endCode).join('\\0');
const cellsOf = tokens => {
    const cells = [];
    let codes = plainStyles;
    let style;
    for (const token of tokens) {
        if (token.type === 'ansi') {
            codes = reduceAnsiCodesIncremental(codes, [token]);
            style = undefined;
            continue;
        }
        if (token.type !== 'char') {
            continue;
        }
        if (cellCount >= ${cellLimit}) {
            cellsByStyle = new Map();
            cellCount = 0;
            style = undefined;
        }
        if (style === undefined) {
            const key = stylesKey(codes);
            style = cellsByStyle.get(key);
            if (style === undefined) {
                style = { styles: codes.length === 0 ? plainStyles : Object.freeze([...codes]), cells: new Map() };
                cellsByStyle.set(key, style);
            }
        }
        // A grapheme's width is the same wherever it stands, so the value alone keys it, and the
        // cell carries its columns: a row built from cells needs no width lookup per character.
        let cell = style.cells.get(token.value);
        if (cell === undefined) {
            cell = Object.freeze({ type: 'char', value: token.value, fullWidth: token.fullWidth, styles: style.styles, columns: Math.max(1, stringWidth(token.value)) });
            style.cells.set(token.value, cell);
            cellCount++;
        }
        cells.push(cell);
    }
    return cells;
};
class OutputCaches {`],
		['export default class Output {', `const framesCaches = new OutputCaches();
const blankCell = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: plainStyles, columns: 1 });
// A frame's rows are first gathered as what is written on each (its pieces: x, then the line as
// transformed, in the order Ink writes them); a row's text is a function of its pieces and the
// frame's width alone. A row whose pieces are those of the same row in the previous frame is that
// row's text again, so only the rows a frame changes are built cell by cell: a frame of the
// dashboard changes the rows of a clock or of one pane, not the 50 rows of the screen.
let previousRows = [];
let rows = [];
const samePieces = (previous, pieces) => {
    if (previous.length !== pieces.length) {
        return false;
    }
    for (let i = 0; i < pieces.length; i++) {
        if (previous[i] !== pieces[i]) {
            return false;
        }
    }
    return true;
};
// One row of cells, filled blank for each row built (a write past the width lengthens it, and
// leaves holes before it: such a row is not used again).
let scratchRow = [];
const cellsOfRow = (pieces, width, caches) => {
    const row = scratchRow.length === width ? scratchRow.fill(blankCell) : (scratchRow = new Array(width).fill(blankCell));
    for (let i = 0; i < pieces.length; i += 2) {
        let offsetX = pieces[i];
        for (const character of caches.getStyledChars(pieces[i + 1])) {
            row[offsetX] = character;
            // The printed width string-width gave the cell (cellsOf), to align with measurement
            const characterWidth = character.columns;
            // For multi-column characters, clear following cells to avoid stray spaces/artifacts
            if (characterWidth > 1) {
                for (let index = 1; index < characterWidth; index++) {
                    row[offsetX + index] = {
                        type: 'char',
                        value: '',
                        fullWidth: false,
                        styles: character.styles,
                    };
                }
            }
            offsetX += characterWidth;
        }
    }
    if (row.length !== width) {
        scratchRow = [];
    }
    return row;
};
// Characters string-width counts as 0 columns where slice-ansi counts 1 (controls, format
// characters, marks, Hangul fillers): a line with one is sliced as published Ink slices it.
const unevenWidth = /[\\0-\\x09\\x0B-\\x1A\\x1C-\\x1F\\x7F-\\x9F\\p{M}\\p{Cf}\\u1160-\\u11FF\\u3164\\uFFA0]/u;
// ansi-tokenize's styledCharsToString diffs the styles of every pair of neighbouring characters,
// three Sets and four arrays each: under 32 trickling agents that was ~60 % of what the dashboard
// allocated. Neighbours with the same codes diff to nothing, so only a change of style is diffed.
const sameStyles = (a, b) => {
    if (a === b) {
        return true;
    }
    if (a.length !== b.length) {
        return false;
    }
    for (let i = 0; i < a.length; i++) {
        if (a[i].code !== b[i].code || a[i].endCode !== b[i].endCode) {
            return false;
        }
    }
    return true;
};
// diffAnsiCodes without its Sets where one side is plain: from plain text every code of \`to\` is
// new; to plain text every code of \`from\` is undone.
const styleChange = (from, to) => from.length === 0 ? to : to.length === 0 ? undoAnsiCodes(from) : diffAnsiCodes(from, to);
// A row's text from its cells, holes skipped, trailing whitespace trimmed (as published Ink's
// filter, styledCharsToString and trimEnd do). Its pieces are joined once: adding them to a string
// one by one made a string object per character.
const rowParts = [];
const onlyWhitespace = /^\\s*$/;
const styledCharsToString = cells => {
    rowParts.length = 0;
    let previous;
    for (let i = 0; i < cells.length; i++) {
        const cell = cells[i];
        if (cell === undefined) {
            continue;
        }
        if (previous === undefined) {
            if (cell.styles.length > 0) {
                rowParts.push(ansiCodesToString(cell.styles));
            }
        }
        else if (!sameStyles(previous.styles, cell.styles)) {
            rowParts.push(ansiCodesToString(styleChange(previous.styles, cell.styles)));
        }
        rowParts.push(cell.value);
        previous = cell;
    }
    if (previous !== undefined && previous.styles.length > 0) {
        rowParts.push(ansiCodesToString(undoAnsiCodes(previous.styles)));
    }
    // The last piece ends the text: an undo code, or a character; whitespace ones go.
    while (rowParts.length > 0 && onlyWhitespace.test(rowParts[rowParts.length - 1])) {
        rowParts.pop();
    }
    return rowParts.join('');
};
// What slice-ansi makes of a line with escape codes that fits its clip, kept across frames:
// coloured lines (pane borders) are drawn in every frame.
let fittingSlices = new Map();
const sliceFitting = (line, to) => {
    let slice = fittingSlices.get(line);
    if (slice === undefined || slice.to !== to) {
        if (fittingSlices.size >= ${cacheLimit}) {
            fittingSlices = new Map();
        }
        slice = { to, text: sliceAnsi(line, 0, to) };
        fittingSlices.set(line, slice);
    }
    return slice.text;
};
const rowText = (pieces, y, width) => {
    const previous = previousRows[y];
    let text;
    if (previous !== undefined && previous.width === width && samePieces(previous.pieces, pieces)) {
        text = previous.text;
    }
    else {
        // Holes skipped: see https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
        text = styledCharsToString(cellsOfRow(pieces, width, framesCaches));
    }
    rows[y] = { pieces, width, text };
    return text;
};
export default class Output {`],
		['    caches = new OutputCaches();', '    caches = framesCaches;'],
		// A row starts as the list of its pieces (see rowText), not as a blank cell per column: two
		// new objects per cell per frame in published Ink, ~20,000 a frame on a 200×50 screen.
		['            const row = [];\n            for (let x = 0; x < this.width; x++) {\n                row.push({\n                    type: \'char\',\n                    value: \' \',\n                    fullWidth: false,\n                    styles: [],\n                });\n            }', '            const row = [];'],
		// The row's pieces, not its cells: see rowText.
		['                    const characters = this.caches.getStyledChars(line);\n                    let offsetX = x;\n                    for (const character of characters) {\n                        currentLine[offsetX] = character;\n                        // Determine printed width using string-width to align with measurement\n                        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));\n                        // For multi-column characters, clear following cells to avoid stray spaces/artifacts\n                        if (characterWidth > 1) {\n                            for (let index = 1; index < characterWidth; index++) {\n                                currentLine[offsetX + index] = {\n                                    type: \'char\',\n                                    value: \'\',\n                                    fullWidth: false,\n                                    styles: character.styles,\n                                };\n                            }\n                        }\n                        offsetX += characterWidth;\n                    }', '                    currentLine.push(x, line);'],
		// An index, not entries(): an iterator result and an array per line per frame.
		['                for (let [index, line] of lines.entries()) {', '                for (let index = 0; index < lines.length; index++) {\n                    let line = lines[index];'],
		// A row written as in the previous frame is the same text: reuse it rather than building
		// its cells and re-deriving the escape codes of every character.
		['            const lineWithoutEmptyItems = line.filter(item => item !== undefined);\n            return styledCharsToString(lineWithoutEmptyItems).trimEnd();', '            return rowText(line, y, this.width > 0 ? Math.ceil(this.width) : 0);'],
		['        const generatedOutput = output\n            .map(line => {', '        const generatedOutput = output\n            .map((line, y) => {'],
		['            .join(\'\\n\');\n        return {\n            output: generatedOutput,', '            .join(\'\\n\');\n        previousRows = rows;\n        rows = [];\n        return {\n            output: generatedOutput,'],
		// A line with escape codes is sliced as published, once (sliceFitting): slice-ansi rewrites
		// some of them (of two intensity codes, bold and dim, it keeps the last), so even a line
		// that fits may change.
		['                            return sliceAnsi(line, from, to);', "                            return from === 0 && to >= width && !unevenWidth.test(line) ? (line.includes('\\u001B') ? sliceFitting(line, to) : line) : sliceAnsi(line, from, to);"],
	],
	'render-node-to-output.js': [
		["import widestLine from 'widest-line';", `import { widestLine as measureWidestLine } from './measure-text.js';\n${marker} const widestLineCache = new Map();\nconst widestLine = text => {\n    let width = widestLineCache.get(text);\n    if (width === undefined) {\n        if (widestLineCache.size >= ${cacheLimit}) widestLineCache.clear();\n        width = measureWidestLine(text);\n        widestLineCache.set(text, width);\n    }\n    return width;\n};`],
	],
};

/**
 * The source of ink/build/<file> with its cache bounded. `text` is unchanged if it is already
 * patched or not one of the patched files; `undefined` if this Ink differs from the one the edits
 * were written for.
 */
export function patchInkSource(file, text) {
	// The Frames edits of scripts/ink-subtree-replay.mjs too: a plugin edits each file once.
	const replacements = edits[file] === undefined && replayEdits[file] === undefined ? undefined : [...(edits[file] ?? []), ...(replayEdits[file] ?? [])];
	if (replacements === undefined || text.includes(marker) || text.includes(replayMarker)) return text;
	if (replacements.some(([find]) => !text.includes(find))) return undefined;
	return replacements.reduce((patched, [find, replace]) => patched.replace(find, replace), text);
}

/** A rolldown plugin that applies the bounds to Ink's files as they enter a bundle; fails the build if it cannot. */
export function boundInkCaches() {
	const patched = new Set();
	return {
		name: 'bound-ink-caches',
		load(id) {
			// A file of ink/build, or of its components folder ('components/Text.js').
			const found = /[\\/]node_modules[\\/]ink[\\/]build[\\/]((?:components[\\/])?[^\\/]+)$/.exec(id);
			const match = found && [found[0], found[1].replace('\\', '/')];
			if (!match || !patchedFiles.includes(match[1])) return null;
			const text = patchInkSource(match[1], readFileSync(id, 'utf8'));
			if (text === undefined) {
				this.error(`ink/build/${match[1]} differs from the Ink the cache bounds were written for (scripts/ink-cache-bounds.mjs): update the edits for this Ink version`);
			}

			patched.add(match[1]);
			return text;
		},
		buildEnd(error) {
			// A build that already failed (in load above, say) keeps its own message.
			if (error) return;
			const missing = patchedFiles.filter(file => !patched.has(file));
			if (missing.length > 0) {
				this.error(`ink/build/${missing.join(', ')} never entered the bundle: Ink was restructured; update scripts/ink-cache-bounds.mjs`);
			}
		},
	};
}
