import {describe, expect, it} from 'vitest';
import {ByteTail, MergedLines, TaskOutput} from '../../src/core/task-output.js';

describe('TaskOutput display', () => {
	it('interleaves stdout and stderr lines in the order they were completed', () => {
		const output = new TaskOutput();
		output.pushStdout(Buffer.from('step 1\nstep 2 partial'));
		output.pushStderr(Buffer.from('warning: slow provider\n'));
		output.pushStdout(Buffer.from(' done\n'));
		expect(output.display.lines()).toEqual(['step 1', 'warning: slow provider', 'step 2 partial done']);
	});

	it('never splices a partial stdout line with stderr text; unfinished lines come last', () => {
		const output = new TaskOutput();
		output.pushStdout(Buffer.from('progress 40%'));
		output.pushStderr(Buffer.from('err line\n'));
		expect(output.display.lines()).toEqual(['err line', 'progress 40%']);
		expect(output.display.lines(1)).toEqual(['progress 40%']);
	});

	it('keeps at most maxLines complete lines and counts every line', () => {
		const output = new TaskOutput({maxLines: 3});
		output.pushStdout(Buffer.from('a\nb\nc\nd\ne\n'));
		expect(output.display.lines()).toEqual(['c', 'd', 'e']);
		expect(output.display.lines(2)).toEqual(['d', 'e']);
		expect(output.display.totalLines).toBe(5);
	});

	it('reports the result as stdout only, and the error line from stderr', () => {
		const output = new TaskOutput();
		output.pushStdout(Buffer.from('Paris.\n'));
		output.pushStderr(Buffer.from('\u001B[31mError: 429\u001B[0m\n'));
		output.end();
		expect(output.result()).toEqual({text: 'Paris.', truncated: false});
		expect(output.errorText()).toBe('Error: 429');
	});
});

describe('MergedLines', () => {
	it('returns partials even when the ring is empty', () => {
		const merged = new MergedLines(5, () => ['', 'half']);
		expect(merged.lines()).toEqual(['half']);
		expect(merged.lines(0)).toEqual([]);
	});
});

describe('ByteTail', () => {
	it('keeps the last bytes and drops a character cut in half at the front', () => {
		const tail = new ByteTail(4);
		tail.push(Buffer.from('ab'));
		tail.push(Buffer.from('cé'));
		tail.push(Buffer.from('z'));
		// 'abcéz' is 6 bytes; whole chunks are dropped from the front while 4 bytes remain.
		expect(tail.text()).toEqual({text: 'céz', truncated: true});
	});

	it('cuts inside a chunk and skips the continuation bytes of a split character', () => {
		const tail = new ByteTail(2);
		tail.push(Buffer.from('aéz'));
		// 'a' c3 a9 'z' → the last 2 bytes start with the continuation byte a9, which is skipped.
		expect(tail.text()).toEqual({text: 'z', truncated: true});
	});
});
