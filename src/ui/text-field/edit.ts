// The key handed to the text field that has the keyboard (typeIntoField, which the app's one key
// handler calls), translated from Ink's key into the field's own (fieldKey). What the key does to
// the field is state/text-field.ts (editField, pure); state/overlay.ts says which field has the
// keyboard; TextInput.tsx draws one.
import type {Key} from 'ink';
import {activeField} from '../../state/overlay.js';
import type {BatchActions, BatchState} from '../../state/store-types.js';
import {editField, type FieldKey} from '../../state/text-field.js';

/** Ink's key as the field sees it. */
export function fieldKey(key: Key): FieldKey {
	return {
		// Terminals send DEL for the backspace key, which Ink reports as delete.
		backspace: key.backspace || key.delete,
		left: key.leftArrow,
		right: key.rightArrow,
		home: key.home,
		end: key.end,
		ctrl: key.ctrl,
		meta: key.meta,
		other: key.upArrow || key.downArrow || key.tab || key.return || key.escape,
	};
}

/** The key typed into the field that has the keyboard, if one has it and the key changes it. */
export function typeIntoField(state: Pick<BatchState, 'overlay'> & Pick<BatchActions, 'setField'>, input: string, key: Key): void {
	const field = activeField(state.overlay);
	const edited = field && editField(field, input, fieldKey(key));
	if (edited && edited !== field) {
		state.setField(edited);
	}
}
