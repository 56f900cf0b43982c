// Mouse reports are untrusted bytes from the terminal: only whole SGR reports of
// what the dashboard uses become events; anything else that starts like one is dropped, never keys.
import {describe, expect, test} from 'vitest';
import {MouseReader, readMouse, wheelDelta} from '../../../src/ui/mouse/sgr.js';

describe('reading SGR mouse reports', () => {
	test('a left press and its release, the wheel both ways', () => {
		expect(readMouse('[<0;12;5M')).toEqual({kind: 'press', button: 'left', x: 12, y: 5});
		expect(readMouse('[<0;12;5m')).toEqual({kind: 'release', x: 12, y: 5});
		expect(readMouse('[<64;3;4M')).toEqual({kind: 'wheel', direction: 'up', x: 3, y: 4});
		expect(readMouse('[<65;3;4M')).toEqual({kind: 'wheel', direction: 'down', x: 3, y: 4});
		expect(wheelDelta('[<65;3;4M')).toBe(3);
		expect(wheelDelta('[<64;3;4M')).toBe(-3);
		expect(wheelDelta('j')).toBeUndefined();
	});

	test('keys are not mouse reports', () => {
		for (const key of ['q', '[', '<', '[A', '[200~', '', 'hello']) expect(readMouse(key)).toBeUndefined();
	});

	test.each([
		'[<0;12M', '[<0;12;5', '[<0;12;5X', '[<;;M', '[<0;0;5M', '[<0;12;0M', '[<a;1;1M', '[<0;99999999;1M', '[<0;1;1;1M', '[<-1;1;1M',
		// A drag (32), a modifier held (4, 8, 16), the wheel sideways (66, 67).
		'[<32;5;5M', '[<4;5;5M', '[<16;5;5M', '[<66;5;5M', '[<67;5;5M',
	])('%j is dropped, not read as keys', input => {
		expect(readMouse(input)).toBe('ignored');
	});

	test('the legacy X10 report\'s three raw bytes after ESC[M are dropped too, and what follows them is a key', () => {
		const reader = new MouseReader();
		expect(reader.take('[M')).toBe('ignored');
		expect(reader.take(' !')).toBe('ignored');
		expect(reader.take('!q')).toEqual({key: 'q'});
		expect(reader.take('q')).toBeUndefined();
	});
});
