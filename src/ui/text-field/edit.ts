// One-line text editing, shared by the zoom's search, the routes editor and the route picker:
// what a key press does to a field's text and cursor (editField, pure), and the key handed to the
// field that has the keyboard (typeIntoField, which the app's one key handler calls). The field's
// value lives in the store, whose actions open, fill and submit it: state/text-field.ts defines it
// and puts text into it (typing here and pasting there insert alike), state/overlay.ts says which
// field has the keyboard. TextInput.tsx draws one.
import type {Key} from 'ink';
import {activeField} from '../../state/overlay.js';
import type {BatchActions, BatchState} from '../../state/store-types.js';
import {insertText, type TextField} from '../../state/text-field.js';

export {fieldAtEnd} from '../../state/text-field.js';

// Control characters (and DEL) are never text; a paste may carry line breaks and tabs.
export const nonText = /[\u0000-\u001F\u007F-\u009F]/g;

/** The field after this key press; the same object when the key does nothing to it. */
export function editField(field: TextField, input: string, key: Key): TextField {
	const characters = [...field.value];
	const cursor = Math.min(Math.max(0, field.cursor), characters.length);
	const at = (value: string[], position: number): TextField => ({value: value.join(''), cursor: position});
	// Terminals send DEL for the backspace key, which Ink reports as delete.
	if (key.backspace || key.delete) {
		return cursor === 0 ? field : at([...characters.slice(0, cursor - 1), ...characters.slice(cursor)], cursor - 1);
	}

	if (key.leftArrow) {
		return cursor === 0 ? field : at(characters, cursor - 1);
	}

	if (key.rightArrow) {
		return cursor === characters.length ? field : at(characters, cursor + 1);
	}

	if (key.home || (key.ctrl && input === 'a')) {
		return at(characters, 0);
	}

	if (key.end || (key.ctrl && input === 'e')) {
		return at(characters, characters.length);
	}

	if (key.ctrl && input === 'w') {
		// The word before the cursor, and the spaces between it and the cursor.
		let start = cursor;
		while (start > 0 && /\s/.test(characters[start - 1]!)) start--;
		while (start > 0 && !/\s/.test(characters[start - 1]!)) start--;
		return at([...characters.slice(0, start), ...characters.slice(cursor)], start);
	}

	if (key.ctrl && input === 'u') {
		return at(characters.slice(cursor), 0);
	}

	if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.tab || key.return || key.escape) {
		return field;
	}

	// Typed or pasted text goes in at the cursor; a pasted line break or tab becomes a space.
	return insertText(field, input.replace(/[\r\n\t]+/g, ' '));
}

/** The key typed into the field that has the keyboard, if one has it and the key changes it. */
export function typeIntoField(state: Pick<BatchState, 'overlay'> & Pick<BatchActions, 'setField'>, input: string, key: Key): void {
	const field = activeField(state.overlay);
	const edited = field && editField(field, input, key);
	if (edited && edited !== field) {
		state.setField(edited);
	}
}
