// Agent colours in forms the dashboard does not understand (colon forms, undercurl, underline
// colour) are rewritten or dropped, and no attribute stays open past the end of a line.
import {describe, expect, it} from 'vitest';
import {OutputTail} from '../../../src/core/output/output-tail.js';
import {TerminalSanitizer} from '../../../src/core/output/sanitize.js';
import {normaliseSgr, openAfter} from '../../../src/core/output/sgr.js';

const E = '\u001B';

describe('normaliseSgr', () => {
	it.each([
		['38:5:208', `${E}[38;5;208m`],
		['48:2::1:2:3', `${E}[48;2;1;2;3m`],
		['38:2:1:2:3', `${E}[38;2;1;2;3m`],
		['4:3', `${E}[4m`],
		['4:0', `${E}[24m`],
		['1;4:3;38:5:9', `${E}[1;4;38;5;9m`],
		['58:5:9', ''],
		['58;2;1;2;3;1', `${E}[1m`],
		['73;1', `${E}[1m`],
		['38;5;300', ''],
		['38:5', ''],
		['0', `${E}[0m`],
		['', `${E}[m`],
		['1;31', `${E}[1;31m`],
	])('%j → %j', (params, expected) => {
		expect(normaliseSgr(params)).toBe(expected);
	});

	it('tracks what stays open: a 0 resets, a colour argument of 0 does not', () => {
		expect(openAfter('', `${E}[31m`)).toBe(`${E}[31m`);
		expect(openAfter(`${E}[31m`, `${E}[1m`)).toBe(`${E}[31m${E}[1m`);
		expect(openAfter(`${E}[31m`, `${E}[0m`)).toBe('');
		expect(openAfter(`${E}[31m`, `${E}[0;4m`)).toBe(`${E}[4m`);
		expect(openAfter('', `${E}[38;5;0m`)).toBe(`${E}[38;5;0m`);
		expect(openAfter('', `${E}[38;2;0;0;0m`)).toBe(`${E}[38;2;0;0;0m`);
	});
});

describe('styles never cross a line break', () => {
	it('the sanitizer closes open attributes before each line break and reopens them after', () => {
		const sanitizer = new TerminalSanitizer();
		expect(sanitizer.push(`${E}[38:5:196mred\nstill red${E}[0m\nplain\n`)).toBe(`${E}[38;5;196mred${E}[0m\n${E}[38;5;196mstill red${E}[0m\nplain\n`);
		expect(sanitizer.push(`${E}[4:3mcurl\r\nx`)).toBe(`${E}[4mcurl${E}[0m\r\n${E}[4mx`);
	});

	it('every line of the output tail that opens a style ends closed, the line still being written too', () => {
		const tail = new OutputTail();
		tail.push(`${E}[48:2::10:20:30mbackground\n${E}[4:3m${E}[58:5:1mundercurl\nnext`);
		const lines = tail.lines();
		expect(lines).toEqual([
			`${E}[48;2;10;20;30mbackground${E}[0m`,
			`${E}[48;2;10;20;30m${E}[4mundercurl${E}[0m`,
			`${E}[48;2;10;20;30m${E}[4mnext${E}[0m`,
		]);
		for (const line of lines) expect(line).not.toMatch(/\[[\d;]*:/);
	});
});
