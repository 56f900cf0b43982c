// A one-line text field's state: its text and where the cursor is. The search prompt, the routes
// editor and the route picker hold one each in the overlay (state/overlay.ts says which has the
// keyboard); what a key press does to it is ui/text-field/edit.ts.

/** Its text and where the cursor is (0 … length, in characters). */
export type TextField = {value: string; cursor: number};

export const emptyField: TextField = {value: '', cursor: 0};

export function fieldAtEnd(value: string): TextField {
	return {value, cursor: [...value].length};
}

/** The field with text put in at the cursor; control characters are dropped, never typed. */
export function insertText(field: TextField, text: string): TextField {
	const characters = [...field.value];
	const cursor = Math.min(Math.max(0, field.cursor), characters.length);
	const inserted = [...text.replace(/[\u0000-\u001F\u007F-\u009F]/g, '')];
	return inserted.length === 0 ? field : {value: [...characters.slice(0, cursor), ...inserted, ...characters.slice(cursor)].join(''), cursor: cursor + inserted.length};
}
