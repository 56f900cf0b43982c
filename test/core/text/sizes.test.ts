import {describe, expect, it} from 'vitest';
import {formatBytes, parseSize} from '../../../src/core/text/sizes.js';

describe('parseSize', () => {
	it.each([
		['0', 0], ['65536', 65_536], [65_536, 65_536], ['512MB', 512 * 1024 ** 2], ['512 mib', 512 * 1024 ** 2],
		['1.5G', 1.5 * 1024 ** 3], ['64k', 65_536], ['2 TiB', 2 * 1024 ** 4], [' 10 B ', 10],
	])('%j is %d bytes', (text, bytes) => {
		expect(parseSize(text)).toBe(bytes);
	});

	it.each(['', 'MB', '-1', '1e9', '5 parsecs', '1,5GB', 'NaN'])('%j is not a size', text => {
		expect(parseSize(text)).toBeUndefined();
	});

	it('refuses numbers that are not whole, non-negative and exact', () => {
		expect(parseSize(-1)).toBeUndefined();
		expect(parseSize(1.5)).toBeUndefined();
		expect(parseSize('99999999999 TiB')).toBeUndefined();
	});
});

describe('formatBytes', () => {
	it.each([[0, '0 bytes'], [1023, '1023 bytes'], [1024, '1 KiB'], [983_040, '960 KiB'], [256 * 1024 ** 2, '256 MiB'], [1.5 * 1024 ** 3, '1.5 GiB']])('%d is %s', (bytes, text) => {
		expect(formatBytes(bytes)).toBe(text);
	});
});
