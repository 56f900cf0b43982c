import {describe, expect, it} from 'vitest';
import {TaskOutput} from '../../../src/core/output/task-output.js';
import {withoutSessionLine} from '../../../src/core/hermes/output.js';
import {ReferenceStream, randomOutput, randomSplits, seededRandom} from '../../helpers/reference-output.js';

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

describe('TaskOutput display of many lines per chunk', () => {
	it('orders whole chunks of lines from both streams by completion', () => {
		const output = new TaskOutput({maxLines: 6});
		output.pushStdout(Buffer.from('o1\no2\npart'));
		output.pushStderr(Buffer.from('e1\ne2\ne3'));
		output.pushStdout(Buffer.from('ial\no3\n'));
		expect(output.display.lines()).toEqual(['o1', 'o2', 'e1', 'e2', 'partial', 'o3', 'e3']);
		output.pushStderr(Buffer.from('\n'));
		expect(output.display.lines()).toEqual(['o2', 'e1', 'e2', 'partial', 'o3', 'e3']);
		output.pushStderr(Buffer.from('e4\ne5\n'));
		expect(output.display.lines()).toEqual(['e2', 'partial', 'o3', 'e3', 'e4', 'e5']);
		expect(output.display.lines(2)).toEqual(['e4', 'e5']);
		expect(output.display.totalLines).toBe(9);
	});

	it('matches the line-by-line merge of both streams however they are chunked', () => {
		const random = seededRandom(11);
		const maxLines = 5;
		// TaskOutput cuts lines at the default 2000 characters: some lines here are longer.
		const long = 'w'.repeat(1995);
		for (let round = 0; round < 100; round++) {
			const output = new TaskOutput({maxLines});
			const streams = [
				{push: (text: string) => output.pushStdout(Buffer.from(text)), reference: new ReferenceStream(maxLines, 2000)},
				{push: (text: string) => output.pushStderr(Buffer.from(text)), reference: new ReferenceStream(200, 2000)},
			];
			const pieces = streams.map(() => randomSplits(random, randomOutput(random, 30, 12).replaceAll('q', long)));
			const merged: string[] = [];
			while (pieces.some((list) => list.length > 0)) {
				const which = pieces[0]!.length > 0 && (pieces[1]!.length === 0 || random() < 0.5) ? 0 : 1;
				const piece = pieces[which]!.shift()!;
				streams[which]!.push(piece);
				merged.push(...streams[which]!.reference.push(piece));
				const partials = streams.map((stream) => stream.reference.partialLine()).filter((line) => line !== '');
				const expected = [...merged.slice(-maxLines), ...partials];
				const context = `round ${round}, ${which === 0 ? 'stdout' : 'stderr'} ${JSON.stringify(piece.slice(0, 40))}`;
				expect(output.display.lines(), context).toEqual(expected);
				expect(output.display.lines(3), context).toEqual(expected.slice(-3));
				expect(output.display.totalLines, context).toBe(merged.length);
			}
		}
	});
});

describe('TaskOutput display before any line is complete', () => {
	it('shows the partial line alone', () => {
		const output = new TaskOutput({maxLines: 5});
		output.pushStdout(Buffer.from('half'));
		expect(output.display.lines()).toEqual(['half']);
		expect(output.display.lines(0)).toEqual([]);
		expect(output.display.totalLines).toBe(0);
	});
});

describe('TaskOutput without a display (headless run)', () => {
	it('keeps the result and the error line but decodes nothing for display', () => {
		const output = new TaskOutput({display: false});
		output.pushStdout(Buffer.from('step\nParis.\n'));
		output.pushStderr(Buffer.from('warning\nError: 429\n'));
		output.end();
		expect(output.display.lines()).toEqual([]);
		expect(output.version).toBe(0);
		expect(output.result()).toEqual({text: 'step\nParis.', truncated: false});
		expect(output.errorLine()).toBe('Error: 429');
	});
});

describe('TaskOutput and Hermes\'s session line', () => {
	it('keeps `session_id: ID` out of the pane when asked, but in the error text for the results to read', () => {
		const output = new TaskOutput({stderrFilter: withoutSessionLine});
		output.pushStderr(Buffer.from('a warning\n'));
		output.pushStderr(Buffer.from('\nsession_id: 20261130_1\n'));
		output.end();
		expect(output.display.lines()).toEqual(['a warning']);
		expect(output.errorText()).toContain('session_id: 20261130_1');
	});
});

describe('TaskOutput display lines (live activity read from Hermes\'s records)', () => {
	it('shows them in order with what the task printed, but never in its result or its stdout tail', () => {
		const output = new TaskOutput();
		output.pushStdout(Buffer.from('before\n'));
		output.pushDisplayLines(['⚙ terminal {"command":"sleep 300"}']);
		output.pushStdout(Buffer.from('The answer.\n'));
		output.pushDisplayLines(['  ↳ terminal 4.2s']);
		output.end();
		expect(output.display.lines()).toEqual(['before', '⚙ terminal {"command":"sleep 300"}', 'The answer.', '  ↳ terminal 4.2s']);
		expect(output.result().text).toBe('before\nThe answer.');
		expect(output.stdout.lines()).toEqual(['before', 'The answer.']);
	});

	it('sanitises them as output is, one line each, and keeps none when nobody watches', () => {
		const output = new TaskOutput();
		output.pushDisplayLines(['\u001B]52;c;c2VjcmV0\u0007\u001B[2Jcleared?\nsecond half']);
		expect(output.display.lines()).toEqual(['cleared? second half']);
		const headless = new TaskOutput({display: false});
		headless.pushDisplayLines(['⚙ x']);
		expect(headless.version).toBe(0);
	});
});

describe('TaskOutput versions', () => {
	it('never repeat between outputs: a task run again is never taken for its earlier attempt', () => {
		const first = new TaskOutput();
		const again = new TaskOutput();
		for (const output of [first, again]) {
			output.pushStdout(Buffer.from('same\nlines\n'));
			output.pushStderr(Buffer.from('and a warning\n'));
		}

		expect(again.version).not.toBe(first.version);
		expect(again.serial).not.toBe(first.serial);
		const before = again.version;
		again.pushStdout(Buffer.from('more\n'));
		expect(again.version).not.toBe(before);
	});
});
