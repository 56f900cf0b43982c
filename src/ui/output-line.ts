// Output lines as a pane prints them. They arrive sanitised (only SGR styling survives); what is
// left to do here is what depends on the screen: tabs, and colour under the no-color theme.
import {stripSgr} from '../core/sanitize.js';
import type {Theme} from '../core/themes.js';
import {screenText} from '../core/visible-text.js';

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
