// A one-line text field's state: its text and where the cursor is. The search prompt, the routes
// editor and the route picker hold one each in the overlay (state/overlay.ts says which has the
// keyboard); what a key press does to it is ui/text-field.ts.

/** Its text and where the cursor is (0 … length, in characters). */
export type TextField = {value: string; cursor: number};

export const emptyField: TextField = {value: '', cursor: 0};

export function fieldAtEnd(value: string): TextField {
	return {value, cursor: [...value].length};
}
