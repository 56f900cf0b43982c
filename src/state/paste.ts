// What a paste does: it is text, never keys. Inside a text field it goes in at the cursor, as
// one line; anywhere else it is ignored, with a notice, so that a pasted line starting with `x`,
// `d` or `y` cannot remove a route, change the default or answer a question.
import {activeField, withField} from './overlay.js';
import type {BatchState} from './store-types.js';
import {insertText} from './text-field.js';

/** The state after the operator pasted `text` (line breaks as the terminal sent them). */
export function pastePatch(state: Pick<BatchState, 'overlay'>, text: string): Partial<BatchState> {
	const field = activeField(state.overlay);
	if (!field) {
		return {notice: 'paste ignored: no text field is open here, and a paste is never taken as keys'};
	}

	// A copied line usually ends with its line break: that one is not a second line.
	const lines = text.replace(/[\r\n]+$/, '').split(/\r\n|\r|\n/);
	if (lines.length > 1) {
		return {notice: `paste not used: it holds ${lines.length} lines and this field takes one; copy a single line (nothing was saved)`};
	}

	const edited = insertText(field, (lines[0] ?? '').replaceAll('\t', ' '));
	return edited === field ? {} : {overlay: withField(state.overlay, edited), notice: null};
}
