// The scrolled window the help and the spend table share: what is on screen at an offset, and
// where each scroll command takes it (never past either end, a page always at least one line).
import {describe, expect, it} from 'vitest';
import {scrolledOffset, scrollWindow} from '../../../src/ui/hooks/use-scroll-window.js';

describe('scrollWindow', () => {
	it('shows everything, with no markers, when it all fits', () => {
		expect(scrollWindow(5, 5, 3)).toEqual({start: 0, end: 5, above: 0, below: 0, maxOffset: 0});
	});

	it('keeps a line for the marker below at the top, and for both in the middle', () => {
		expect(scrollWindow(20, 5, 0)).toEqual({start: 0, end: 4, above: 0, below: 16, maxOffset: 16});
		expect(scrollWindow(20, 5, 2)).toEqual({start: 2, end: 5, above: 2, below: 15, maxOffset: 16});
	});

	it('at the end shows the marker above and the last lines', () => {
		expect(scrollWindow(20, 5, 99)).toEqual({start: 16, end: 20, above: 16, below: 0, maxOffset: 16});
	});
});

describe('scrolledOffset', () => {
	it('moves a line or a page, and stops at either end', () => {
		expect(scrolledOffset(20, 6, 0, 'scroll.down')).toBe(1);
		expect(scrolledOffset(20, 6, 0, 'scroll.pageDown')).toBe(4);
		expect(scrolledOffset(20, 6, 0, 'scroll.up')).toBe(0);
		expect(scrolledOffset(20, 6, 14, 'scroll.pageDown')).toBe(15);
		expect(scrolledOffset(20, 6, 15, 'scroll.down')).toBe(15);
	});

	it('moves a page of a window too small for one by one line', () => {
		expect(scrolledOffset(20, 2, 5, 'scroll.pageDown')).toBe(6);
		expect(scrolledOffset(20, 2, 5, 'scroll.pageUp')).toBe(4);
	});

	it('leaves the window where it is for any other command', () => {
		expect(scrolledOffset(20, 6, 3, 'task.zoom')).toBe(3);
	});
});
