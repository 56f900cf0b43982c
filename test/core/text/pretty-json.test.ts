// results.json and plan.json are written from small pieces (core/text/pretty-json.ts) and must be the
// same bytes JSON.stringify(value, null, 2) gives: what scripts and `logs` read back.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {jsonPieces, prettyJsonBytes} from '../../../src/core/text/pretty-json.js';

const expected = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
// Every subtree taken apart (whole = 0), and as the files are written (small ones whole).
const written = (value: object): string => {
	const text = prettyJsonBytes(value, 0).toString('utf8');
	expect(prettyJsonBytes(value).toString('utf8')).toBe(text);
	return text;
};

// Also what JSON leaves out or turns into null (undefined, functions), toJSON (dates, objects
// of data with one, told their key), boxed and class values, and strings long enough to be
// escaped in slices.
const leaf = fc.oneof(
	fc.jsonValue(),
	fc.constant(undefined),
	fc.constant(() => 1),
	fc.constant(Symbol('s')),
	fc.date({noInvalidDate: true}),
	fc.constant({toJSON: (key: string) => ({asked: key, list: [1, {}]})}),
	fc.constant({toJSON: () => undefined}),
	fc.constant(new Map([[1, 2]])),
	fc.constant(Object.assign(Object.create(null) as object, {bare: true})),
	fc.string({unit: 'binary', maxLength: 40}),
);
const value = fc.letrec(tie => ({
	node: fc.oneof({depthSize: 'small'}, leaf, fc.array(tie('node'), {maxLength: 4}), fc.dictionary(fc.string(), tie('node'), {maxKeys: 4})),
})).node;

describe('prettyJsonBytes', () => {
	it('is JSON.stringify(value, null, 2) and a newline, byte for byte', () => {
		fc.assert(fc.property(fc.dictionary(fc.string(), value, {maxKeys: 6}), object => {
			expect(written(object)).toBe(expected(object));
		}), {numRuns: 500});
	});

	it('escapes long strings in slices without splitting a surrogate pair or an escape', () => {
		// Every offset of a pair around the slice boundary (8,192 characters), lone halves, quotes,
		// controls and text outside Latin-1.
		const pieces = fc.constantFrom('a', '😀', '\uD800', '\uDC00', '"', '\\', '\n', '\u0001', '▸', 'é');
		fc.assert(fc.property(fc.integer({min: 8180, max: 8200}), fc.array(pieces, {minLength: 1, maxLength: 30}), (padding, tail) => {
			const text = 'x'.repeat(padding) + tail.join('');
			expect(written({text, list: [text, text.slice(1)]})).toBe(expected({text, list: [text, text.slice(1)]}));
		}), {numRuns: 300});
	});

	it('is the same for a report: nested results with long multi-line answers outside Latin-1, empty arrays, missing fields', () => {
		const result = (i: number) => ({id: `t${i}`, result: `▸ line\n${'↳ more "quoted"\t\n'.repeat(i * 3000)}`, tokens: null, tool_calls: [], error: undefined, warnings: i % 2 ? ['a', 'b'] : undefined, earlier_attempts: [{id: `t${i}`, tool_calls: [{name: 'x', result: null}]}]});
		const report = {summary: '3/3', results: [result(0), result(1), result(2)], warnings: [], interrupted: false, results_error: undefined, at: new Date(0)};
		expect(written(report)).toBe(expected(report));
		expect(written({})).toBe(expected({}));
		expect(written({gone: undefined})).toBe(expected({gone: undefined}));
		expect(written([1, {a: [2]}, undefined])).toBe(expected([1, {a: [2]}, undefined]));
	});

	it('makes no piece longer than a slice of 8 Ki characters escaped, however long the answers', () => {
		// The point of the pieces: no string of the whole text, nor of a whole result, is ever made.
		const answer = `▸ ${'a line of output\n'.repeat(20_000)}`;
		const report = {summary: '2/2', results: [{id: 't1', result: answer, answer}, {id: 't2', result: answer, answer}]};
		let longest = 0;
		let text = '';
		jsonPieces(report, piece => {
			longest = Math.max(longest, piece.length);
			text += piece;
		});
		expect(text).toBe(expected(report));
		expect(longest).toBeLessThanOrEqual(2 * 8192);
	});

	it('refuses what JSON.stringify refuses: a cycle, a BigInt', () => {
		const cycle: Record<string, unknown> = {a: 1};
		cycle['self'] = {back: cycle};
		for (const whole of [0, undefined]) {
			expect(() => prettyJsonBytes(cycle, whole)).toThrow(TypeError);
			expect(() => prettyJsonBytes({n: 1n}, whole)).toThrow(TypeError);
		}
	});
});
