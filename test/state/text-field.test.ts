// The one-line text field shared by the search, the routes editor and the route picker: what
// each key does to the text and the cursor, and what inserting text does.
import {describe, expect, it} from 'vitest';
import {editField, fieldAtEnd, insertText, type FieldKey} from '../../src/state/text-field.js';

const noFieldKey: FieldKey = {backspace: false, left: false, right: false, home: false, end: false, ctrl: false, meta: false, other: false};

const press = (key: Partial<FieldKey>, input = ''): [string, FieldKey] => [input, {...noFieldKey, ...key}];

function type(value: string, cursor: number, ...presses: Array<[string, FieldKey]>) {
	let field = {value, cursor};
	for (const [input, key] of presses) field = editField(field, input, key);
	return field;
}

describe('editField', () => {
	it('inserts typed text at the cursor, which the arrows, Home and End move', () => {
		expect(type('quick', 5, press({left: true}), press({left: true}), press({}, 'X'))).toEqual({value: 'quiXck', cursor: 4});
		expect(type('quick', 5, press({home: true}), press({}, '>'), press({end: true}), press({}, '<'))).toEqual({value: '>quick<', cursor: 7});
		expect(type('quick', 0, press({left: true}))).toEqual({value: 'quick', cursor: 0});
		expect(type('quick', 5, press({right: true}))).toEqual({value: 'quick', cursor: 5});
	});

	it('deletes the character before the cursor with backspace, and nothing at the start', () => {
		expect(type('quick', 3, press({backspace: true}))).toEqual({value: 'quck', cursor: 2});
		expect(type('quick', 0, press({backspace: true}))).toEqual({value: 'quick', cursor: 0});
	});

	it('Ctrl+W deletes the word before the cursor with the spaces after it; Ctrl+U everything before it', () => {
		expect(type('slow and careful  work', 18, press({ctrl: true}, 'w'))).toEqual({value: 'slow and work', cursor: 9});
		expect(type('slow and careful', 8, press({ctrl: true}, 'u'))).toEqual({value: ' careful', cursor: 0});
	});

	it('a paste goes in whole at the cursor, its line breaks and tabs as spaces and control bytes dropped', () => {
		expect(type('ab', 1, press({}, 'x\ny\tz\u0007'))).toEqual({value: 'ax y zb', cursor: 6});
	});

	it('counts characters, not UTF-16 units', () => {
		expect(type('a😀b', 3, press({left: true}), press({backspace: true}))).toEqual({value: 'ab', cursor: 1});
		expect(fieldAtEnd('😀😀')).toEqual({value: '😀😀', cursor: 2});
	});

	it('ignores keys that are not editing (Enter, Esc, up/down, other ctrl or meta keys) and returns the same field', () => {
		const field = {value: 'x', cursor: 1};
		expect(editField(field, '', {...noFieldKey, other: true})).toBe(field);
		expect(editField(field, 'k', {...noFieldKey, ctrl: true})).toBe(field);
		expect(editField(field, 'k', {...noFieldKey, meta: true})).toBe(field);
	});
});

describe('insertText', () => {
	it('puts text in at the cursor and drops control characters; nothing left to insert is the same field', () => {
		expect(insertText({value: 'ad', cursor: 1}, 'b\u0000c')).toEqual({value: 'abcd', cursor: 3});
		const field = {value: 'x', cursor: 1};
		expect(insertText(field, '\u0007\u007F')).toBe(field);
	});
});
