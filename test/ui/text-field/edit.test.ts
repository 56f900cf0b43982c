// The key handed to the field that has the keyboard: Ink's key translated into the field's own,
// and the store told only when the key changes the field.
import type {Key} from 'ink';
import {describe, expect, it} from 'vitest';
import {fieldAtEnd, type TextField} from '../../../src/state/text-field.js';
import {fieldKey, typeIntoField} from '../../../src/ui/text-field/edit.js';

const none: Key = {upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false};

describe('fieldKey', () => {
	it('takes the DEL that terminals send for backspace (Ink says delete) as backspace', () => {
		expect(fieldKey({...none, delete: true}).backspace).toBe(true);
		expect(fieldKey({...none, backspace: true}).backspace).toBe(true);
	});

	it('calls up, down, Tab, Enter and Escape keys that are not the field’s, and the arrows and Home/End its own', () => {
		for (const key of [{upArrow: true}, {downArrow: true}, {tab: true}, {return: true}, {escape: true}]) expect(fieldKey({...none, ...key}).other).toBe(true);
		expect(fieldKey({...none, leftArrow: true})).toMatchObject({left: true, other: false});
		expect(fieldKey({...none, rightArrow: true})).toMatchObject({right: true, other: false});
		expect(fieldKey({...none, home: true, ctrl: true})).toMatchObject({home: true, ctrl: true});
	});
});

describe('typeIntoField', () => {
	function filtering(field: TextField) {
		const set: TextField[] = [];
		return {state: {overlay: {kind: 'filter' as const, field}, setField: (edited: TextField) => set.push(edited)}, set};
	}

	it('hands the store the edited field, and nothing for a key that changes nothing', () => {
		const {state, set} = filtering(fieldAtEnd('ab'));
		typeIntoField(state, '', {...none, delete: true});
		typeIntoField(state, '', {...none, tab: true});
		expect(set).toEqual([{value: 'a', cursor: 1}]);
	});
});
