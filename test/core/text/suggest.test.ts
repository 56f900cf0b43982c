// "Did you mean" offers only near misses (src/core/text/suggest.ts).
import {describe, expect, it} from 'vitest';
import {closest, editDistance} from '../../../src/core/text/suggest.js';

describe('closest', () => {
	it('counts a swap of two neighbours as one edit', () => {
		expect(editDistance('optoin', 'option')).toBe(1);
		expect(editDistance('shwo', 'show')).toBe(1);
		expect(editDistance('kitten', 'sitting')).toBe(3);
	});

	it('offers a near miss, case aside, and nothing for an unrelated word or the word itself', () => {
		const fields = ['goal', 'context', 'name', 'option', 'profile', 'model', 'timeout', 'max_turns'];
		expect(closest('optoin', fields)).toBe('option');
		expect(closest('Modle', fields)).toBe('model');
		expect(closest('timout', fields)).toBe('timeout');
		expect(closest('max_turn', fields)).toBe('max_turns');
		expect(closest('colour', fields)).toBeUndefined();
		expect(closest('goal', fields)).toBeUndefined();
		// A short word gets one edit at most: "gaol" is goal, "foal" is not.
		expect(closest('gaol', fields)).toBe('goal');
		expect(closest('fool', fields)).toBeUndefined();
	});
});
