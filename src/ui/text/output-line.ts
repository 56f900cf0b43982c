// Output lines as a pane prints them. They arrive sanitised (only SGR styling survives); what is
// left to do here is what depends on the screen: tabs, and colour under the no-color theme.
import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import {stripSgr} from '../../core/output/sanitize.js';
import {isNarrowText} from './narrow.js';
import type {Theme} from '../../core/theme/themes.js';
import {screenText} from '../../core/output/visible-text.js';

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

/** Never empty: an empty Text takes no line in Ink, which would shift every line below it up. */
export function displayLine(line: string, colour: boolean): string {
	const steady = screenText(colour ? line : stripSgr(line));
	return steady === '' ? ' ' : steady;
}

/** The visible text of a line, for highlighting it as a whole. */
export function plainLine(line: string): string {
	return displayLine(line, false);
}

// A pane's tail is drawn as one Text of lines already cut to the pane's width: one node for Ink
// to lay out and draw instead of one per line, which under a trickle of output every frame
// re-measured and re-cut from scratch as the lines moved up. Cut as Ink's wrap='truncate' cuts
// (the same packages), so the screen is the same; cuts are remembered because a line is drawn
// in every frame until it scrolls away.
const fittedLines = new Map<string, string>();
const fittedLimit = 1000;

/** `line` cut to `width` columns with '…' at the end, as Ink's <Text wrap='truncate'> shows it (never wider). */
export function fitLine(line: string, width: number): string {
	// Most agent output is one column a character, no escapes (ui/text/narrow.ts). Cut as
	// cli-truncate cuts it, without its tokenising and without a cache key per line per frame.
	if (isNarrowText(line)) {
		return width > 0 && line.length > width ? `${line.slice(0, width - 1)}…` : line;
	}

	const key = `${width}\u0000${line}`;
	let fitted = fittedLines.get(key);
	if (fitted === undefined) {
		fitted = width > 0 && stringWidth(line) > width ? cliTruncate(line, width) : line;
		// cli-truncate may end a cut of wide characters one column over (a two-column character
		// before the '…'); Ink would then let the pane's edge clip the '…'. Cut shorter instead.
		for (let narrower = width - 1; stringWidth(fitted) > width && narrower > 0; narrower--) {
			fitted = cliTruncate(line, narrower);
		}

		if (fittedLines.size >= fittedLimit) {
			fittedLines.clear();
		}

		fittedLines.set(key, fitted);
	}

	return fitted;
}
