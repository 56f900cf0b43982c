// A one-line text field: its state (its text and where the cursor is) and what a key press does
// to it (editField, pure). The search prompt, the routes editor and the route picker hold one each
// in the overlay (state/overlay.ts says which has the keyboard); ui/text-field/edit.ts hands it
// the key, translated from the terminal's, and TextInput.tsx draws it. Typing here and pasting
// (state/paste.ts) insert alike.

/** Its text and where the cursor is (0 … length, in characters). */
export type TextField = {value: string; cursor: number};

/**
 * The few facts of a key press the field acts on, in its own words: ui/ translates the terminal
 * library's key into it, so that this module knows no terminal.
 */
export type FieldKey = {
	/** Erase the character before the cursor. */
	readonly backspace: boolean;
	readonly left: boolean;
	readonly right: boolean;
	readonly home: boolean;
	readonly end: boolean;
	readonly ctrl: boolean;
	readonly meta: boolean;
	/** A key that is neither text nor the field's: up, down, Tab, Enter, Escape. */
	readonly other: boolean;
};

export const emptyField: TextField = {value: '', cursor: 0};

// Control characters (and DEL) are never text; a paste may carry line breaks and tabs.
export const nonText = /[\u0000-\u001F\u007F-\u009F]/g;

export function fieldAtEnd(value: string): TextField {
	return {value, cursor: [...value].length};
}

/** The field with text put in at the cursor; control characters are dropped, never typed. */
export function insertText(field: TextField, text: string): TextField {
	const characters = [...field.value];
	const cursor = Math.min(Math.max(0, field.cursor), characters.length);
	const inserted = [...text.replace(nonText, '')];
	return inserted.length === 0 ? field : {value: [...characters.slice(0, cursor), ...inserted, ...characters.slice(cursor)].join(''), cursor: cursor + inserted.length};
}

/** The field after this key press; the same object when the key does nothing to it. */
export function editField(field: TextField, input: string, key: FieldKey): TextField {
	const characters = [...field.value];
	const cursor = Math.min(Math.max(0, field.cursor), characters.length);
	const at = (value: string[], position: number): TextField => ({value: value.join(''), cursor: position});
	if (key.backspace) {
		return cursor === 0 ? field : at([...characters.slice(0, cursor - 1), ...characters.slice(cursor)], cursor - 1);
	}

	if (key.left) {
		return cursor === 0 ? field : at(characters, cursor - 1);
	}

	if (key.right) {
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

	if (key.ctrl || key.meta || key.other) {
		return field;
	}

	// Typed or pasted text goes in at the cursor; a pasted line break or tab becomes a space.
	return insertText(field, input.replace(/[\r\n\t]+/g, ' '));
}
