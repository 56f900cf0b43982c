// The in-process control's output half over real TaskOutputs: snapshots of what moved, ranges
// numbered by absolute line (lines the bounded buffer dropped still count), and search in them.
import {describe, expect, it} from 'vitest';
import {TaskOutput} from '../../src/core/output/task-output.js';
import {outputControl} from '../../src/host/control.js';

function control(maxLines: number) {
	const outputs = new Map([['t01', new TaskOutput({maxLines})], ['t02', new TaskOutput({maxLines})]]);
	const print = (id: string, text: string) => outputs.get(id)!.pushStdout(Buffer.from(text));
	return {print, outputs, control: outputControl(() => [...outputs.keys()], id => outputs.get(id))};
}

const lines = (from: number, count: number) => Array.from({length: count}, (_, index) => `line ${from + index}\n`).join('');

describe('outputControl', () => {
	it('reports only the outputs that moved since the versions given; an id not given has never been seen', () => {
		const {print, control: output} = control(100);
		print('t01', 'a\nb\n');
		const first = output.outputChanges({}, 1);
		expect(Object.keys(first).sort()).toEqual(['t01', 't02']);
		expect(first['t01']).toMatchObject({totalLines: 2, tail: ['b'], errorLine: null});
		const seen = {t01: first['t01']!.version, t02: first['t02']!.version};
		expect(output.outputChanges(seen, 1)).toEqual({});
		print('t02', 'c\n');
		expect(Object.keys(output.outputChanges(seen, 1))).toEqual(['t02']);
	});

	it('numbers a range by absolute line, counting the lines the buffer dropped; an unfinished line comes after them', () => {
		const {print, control: output} = control(5);
		print('t01', lines(0, 8));
		expect(output.readOutput({id: 't01'})).toMatchObject({first: 3, totalLines: 8, lines: ['line 3', 'line 4', 'line 5', 'line 6', 'line 7']});
		expect(output.readOutput({id: 't01', last: 2})).toMatchObject({first: 6, lines: ['line 6', 'line 7']});
		print('t01', 'half');
		expect(output.readOutput({id: 't01', last: 2})).toMatchObject({first: 7, totalLines: 8, lines: ['line 7', 'half']});
		print('t01', ' done\n');
		expect(output.readOutput({id: 't01', last: 2})).toMatchObject({first: 7, totalLines: 9, lines: ['line 7', 'half done']});
		expect(output.readOutput({id: 'nobody'})).toBeUndefined();
	});

	it('searches the kept lines by absolute line, either way, from a line or from an end', () => {
		const {print, control: output} = control(5);
		print('t01', lines(0, 8));
		const search = (query: string, from: number | null, direction: 1 | -1) => output.searchOutput({id: 't01', query, from, direction});
		expect(search('line', null, -1)).toEqual({line: 7});
		expect(search('line', null, 1)).toEqual({line: 3});
		expect(search('line', 5, -1)).toEqual({line: 4});
		expect(search('line', 5, 1)).toEqual({line: 6});
		// From a line that has left the buffer (or not come yet): the search starts at the kept lines' edge.
		expect(search('line', 0, 1)).toEqual({line: 3});
		expect(search('line', 100, -1)).toEqual({line: 7});
		expect(search('line 4', 4, -1)).toEqual({line: null});
		expect(search('nothing', null, -1)).toEqual({line: null});
	});
});
