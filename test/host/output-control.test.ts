// The host's output over real TaskOutputs: a client's ledger pushes only the panes that moved,
// ranges are numbered by absolute line (lines the bounded buffer dropped still count), and search
// in them.
import {describe, expect, it} from 'vitest';
import {TaskOutput} from '../../src/core/output/task-output.js';
import {outputControl} from '../../src/host/control.js';
import {PaneLedger} from '../../src/host/pane-ledger.js';

function control(maxLines: number) {
	const outputs = new Map([['t01', new TaskOutput({maxLines})], ['t02', new TaskOutput({maxLines})]]);
	const print = (id: string, text: string) => outputs.get(id)!.pushStdout(Buffer.from(text));
	return {print, outputs, control: outputControl(id => outputs.get(id))};
}

const lines = (from: number, count: number) => Array.from({length: count}, (_, index) => `line ${from + index}\n`).join('');

describe('a client\'s pane ledger', () => {
	it('pushes only the panes that moved since it last pushed them; a task never pushed has moved', () => {
		const {print, outputs} = control(100);
		const ledger = new PaneLedger(1, false);
		print('t01', 'a\nb\n');
		const first = ledger.changes(outputs);
		expect(Object.keys(first).sort()).toEqual(['t01', 't02']);
		expect(first['t01']).toMatchObject({totalLines: 2, tail: ['b'], errorLine: null});
		expect(ledger.changes(outputs)).toEqual({});
		print('t02', 'c\n');
		expect(Object.keys(ledger.changes(outputs))).toEqual(['t02']);
		// A client of whole tails gets the whole tail each time, not the lines since its last push.
		print('t02', 'd\n');
		expect(ledger.changes(outputs)['t02']).toMatchObject({totalLines: 2, tail: ['d']});
		const wide = new PaneLedger(40, false);
		wide.changes(outputs);
		print('t01', 'e\n');
		expect(wide.changes(outputs)['t01']).toMatchObject({totalLines: 3, tail: ['a', 'b', 'e']});
	});
});

describe('outputControl', () => {
	it('numbers a range by absolute line, counting the lines the buffer dropped; an unfinished line comes after them', async () => {
		const {print, control: output} = control(5);
		print('t01', lines(0, 8));
		expect(await output.readOutput({id: 't01'})).toMatchObject({first: 3, totalLines: 8, lines: ['line 3', 'line 4', 'line 5', 'line 6', 'line 7']});
		expect(await output.readOutput({id: 't01', last: 2})).toMatchObject({first: 6, lines: ['line 6', 'line 7']});
		print('t01', 'half');
		expect(await output.readOutput({id: 't01', last: 2})).toMatchObject({first: 7, totalLines: 8, lines: ['line 7', 'half']});
		print('t01', ' done\n');
		expect(await output.readOutput({id: 't01', last: 2})).toMatchObject({first: 7, totalLines: 9, lines: ['line 7', 'half done']});
		expect(await output.readOutput({id: 'nobody'})).toBeUndefined();
	});

	it('searches the kept lines by absolute line, either way, from a line or from an end', async () => {
		const {print, control: output} = control(5);
		print('t01', lines(0, 8));
		const search = (query: string, from: number | null, direction: 1 | -1) => output.searchOutput({id: 't01', query, from, direction});
		expect(await search('line', null, -1)).toEqual({line: 7});
		expect(await search('line', null, 1)).toEqual({line: 3});
		expect(await search('line', 5, -1)).toEqual({line: 4});
		expect(await search('line', 5, 1)).toEqual({line: 6});
		// From a line that has left the buffer (or not come yet): the search starts at the kept lines' edge.
		expect(await search('line', 0, 1)).toEqual({line: 3});
		expect(await search('line', 100, -1)).toEqual({line: 7});
		expect(await search('line 4', 4, -1)).toEqual({line: null});
		expect(await search('nothing', null, -1)).toEqual({line: null});
	});
});
