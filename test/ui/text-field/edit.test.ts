// The one-line text field shared by the search and the routes editor: what each key does to
// the text and the cursor.
import type {Key} from 'ink';
import {describe, expect, it} from 'vitest';
import {editField, fieldAtEnd} from '../../../src/ui/text-field/edit.js';

const none: Key = {upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false};
const press = (key: Partial<Key>, input = ''): [string, Key] => [input, {...none, ...key}];

function type(value: string, cursor: number, ...presses: Array<[string, Key]>) {
	let field = {value, cursor};
	for (const [input, key] of presses) field = editField(field, input, key);
	return field;
}

describe('editField', () => {
	it('inserts typed text at the cursor, which the arrows, Home and End move', () => {
		expect(type('quick', 5, press({leftArrow: true}), press({leftArrow: true}), press({}, 'X'))).toEqual({value: 'quiXck', cursor: 4});
		expect(type('quick', 5, press({home: true}), press({}, '>'), press({end: true}), press({}, '<'))).toEqual({value: '>quick<', cursor: 7});
		expect(type('quick', 0, press({leftArrow: true}))).toEqual({value: 'quick', cursor: 0});
		expect(type('quick', 5, press({rightArrow: true}))).toEqual({value: 'quick', cursor: 5});
	});

	it('deletes the character before the cursor with backspace (sent as DEL), and nothing at the start', () => {
		expect(type('quick', 3, press({delete: true}))).toEqual({value: 'quck', cursor: 2});
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
		expect(type('a😀b', 3, press({leftArrow: true}), press({delete: true}))).toEqual({value: 'ab', cursor: 1});
		expect(fieldAtEnd('😀😀')).toEqual({value: '😀😀', cursor: 2});
	});

	it('ignores keys that are not editing (Enter, Esc, up/down, other ctrl keys) and returns the same field', () => {
		const field = {value: 'x', cursor: 1};
		for (const key of [{return: true}, {escape: true}, {upArrow: true}, {tab: true}]) expect(editField(field, '', {...none, ...key})).toBe(field);
		expect(editField(field, 'k', {...none, ctrl: true})).toBe(field);
	});
});
