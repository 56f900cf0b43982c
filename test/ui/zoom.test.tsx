// The zoomed task: its whole kept output, scrolled from the end, searchable.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {plannedTasks, render, startTask, t0} from '../helpers/render.js';
import {questionOf, zoomOf} from '../helpers/overlay.js';
import {zoomLayer} from '../../src/state/overlay.js';

afterEach(cleanup);

const enter = '\r';
const escape = '\u001B';

async function zoomedOnOutput() {
	const view = render({tasks: plannedTasks(2), columns: 100, rows: 24});
	startTask(view.store, 't01', t0);
	view.control.write('t01', Array.from({length: 100}, (_, index) => `entry-${String(index + 1).padStart(3, '0')} \u001B[33mdetail\u001B[0m`));
	view.control.publish();
	view.stdin.write(enter);
	await vi.waitFor(() => {
		expect(view.frame()).toContain('entry-100 detail');
	});
	await view.control.landed();
	return view;
}

describe('zoom', () => {
	test('a line still being written (no newline yet) is numbered after the complete ones', async () => {
		const view = render({tasks: plannedTasks(1), columns: 100, rows: 24});
		startTask(view.store, 't01', t0);
		view.control.write('t01', ['done-1', 'done-2', 'done-3']);
		// As the core reports it: three complete lines, and the fourth shown while it is written.
		const read = view.control.readOutput.bind(view.control);
		view.control.readOutput = async request => {
			const range = await read(request);
			return range && {...range, lines: [...range.lines, 'still-writing']};
		};

		view.control.publish();
		view.stdin.write(enter);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('still-writing');
		});
		expect(view.frame()).toContain('lines 1–4 of 4');
	});

	test('Enter shows the end of the whole output; g goes to the start, G back to the end', async () => {
		const {frame, stdin} = await zoomedOnOutput();
		expect(frame()).toContain('t01 Goal number 1');
		expect(frame()).toContain('why: characteristic quick → fast');
		expect(frame()).toContain('following the output');
		expect(frame()).not.toContain('entry-001');

		stdin.write('g');
		await vi.waitFor(() => {
			expect(frame()).toContain('entry-001 detail');
		});
		// A full page from the first line: 24 rows leave 16 for output.
		expect(frame()).toContain('lines 1–16 of 100');
		for (let line = 1; line <= 16; line++) {
			expect(frame()).toContain(`entry-${String(line).padStart(3, '0')} detail`);
		}

		expect(frame()).not.toContain('entry-017');
		expect(frame()).toContain('G follows the output');

		// One line down from the top moves at once, not after scrolling back through phantom lines.
		stdin.write('j');
		await vi.waitFor(() => {
			expect(frame()).toContain('lines 2–17 of 100');
		});

		stdin.write('G');
		await vi.waitFor(() => {
			expect(frame()).toContain('entry-100 detail');
		});
	});

	test.each([['Home', '\u001B[H'], ['PgUp', '\u001B[5~'], ['up', '\u001B[A']])('%s at the top keeps the view full', async (_name, key) => {
		const {frame, stdin} = await zoomedOnOutput();
		stdin.write('g');
		await vi.waitFor(() => {
			expect(frame()).toContain('lines 1–16 of 100');
		});
		stdin.write(key);
		stdin.write(key);
		stdin.write('?'); // a key that changes the frame, so the two before it were handled
		await vi.waitFor(() => {
			expect(frame()).toContain('closes this help');
		});
		stdin.write('?');
		await vi.waitFor(() => {
			expect(frame()).toContain('lines 1–16 of 100');
		});
		expect(frame()).toContain('entry-016 detail');
	});

	test('when older lines were dropped, the status line says how to read them: the logs command', async () => {
		const view = render({tasks: plannedTasks(1), columns: 120, rows: 24, maxOutputLines: 50});
		startTask(view.store, 't01', t0);
		view.control.write('t01', Array.from({length: 80}, (_, index) => `entry-${index + 1}`));
		view.control.publish();
		view.stdin.write(enter);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('lines 65–80 of 80');
		});
		expect(view.frame()).toContain('lines 1–30: hermes-delegate logs run-test t01');
	});

	test('up scrolls back one line', async () => {
		const {frame, stdin} = await zoomedOnOutput();
		stdin.write('\u001B[A');
		await vi.waitFor(() => {
			expect(frame()).not.toContain('entry-100');
		});
		expect(frame()).toContain('entry-099 detail');
	});

	test('/ searches: typing edits the query, Enter jumps to the match and highlights it', async () => {
		const {frame, stdin, store} = await zoomedOnOutput();
		stdin.write('/');
		await vi.waitFor(() => {
			expect(frame()).toContain('/▏');
		});
		// Keys that are commands elsewhere (q, c, n) are typing here.
		stdin.write('entry-0q');
		await vi.waitFor(() => {
			expect(frame()).toContain('/entry-0q▏');
		});
		stdin.write('\u007F');
		stdin.write('12');
		await vi.waitFor(() => {
			expect(frame()).toContain('/entry-012▏');
		});
		stdin.write(enter);
		await vi.waitFor(() => {
			expect(frame()).toContain('match "entry-012" at line 12');
		});
		expect(frame()).toContain('entry-012 detail');
		expect(zoomOf(store.getState().overlay)?.search.matchLine).toBe(11);
		expect(questionOf(store.getState())).toBeNull();
	});

	test('after a search, n goes towards the end and N towards the start, as after / in less and vim', async () => {
		const {frame, stdin} = await zoomedOnOutput();
		stdin.write('/');
		await vi.waitFor(() => {
			expect(frame()).toContain('/▏');
		});
		stdin.write('entry-05');
		await vi.waitFor(() => {
			expect(frame()).toContain('/entry-05▏');
		});
		// Enter: the nearest match above the bottom of the view.
		stdin.write(enter);
		await vi.waitFor(() => {
			expect(frame()).toContain('match "entry-05" at line 59');
		});
		stdin.write('N');
		await vi.waitFor(() => {
			expect(frame()).toContain('match "entry-05" at line 58');
		});
		stdin.write('N');
		await vi.waitFor(() => {
			expect(frame()).toContain('match "entry-05" at line 57');
		});
		stdin.write('n');
		await vi.waitFor(() => {
			expect(frame()).toContain('match "entry-05" at line 58');
		});
		// Each n searches from the match the one before found: the next waits for its answer (from the host).
		stdin.write('n');
		await vi.waitFor(() => {
			expect(frame()).toContain('match "entry-05" at line 59');
		});
		stdin.write('n');
		await vi.waitFor(() => {
			expect(frame()).toContain('no later match for "entry-05"');
		});
	});

	test('a query and Enter that arrive together (typed fast) search; text after the Enter makes it a paste, which runs nothing', async () => {
		const {frame, stdin, store} = await zoomedOnOutput();
		stdin.write('/');
		await vi.waitFor(() => {
			expect(frame()).toContain('/▏');
		});
		// A terminal without paste marks: the g after the line break must not act as a key.
		stdin.write('entry-012\rg');
		await vi.waitFor(() => {
			expect(frame()).toContain('paste not used: it holds 2 lines');
		});
		expect(zoomLayer(store.getState().overlay)?.searching).toEqual({value: '', cursor: 0});
		stdin.write('entry-012\r');
		await vi.waitFor(() => {
			expect(frame()).toContain('match "entry-012" at line 12');
		});
		expect(zoomLayer(store.getState().overlay)?.searching).toBeNull();
	});

	test('Esc stops searching, then closes the zoom', async () => {
		const {frame, stdin} = await zoomedOnOutput();
		stdin.write('/');
		stdin.write('abc');
		await vi.waitFor(() => {
			expect(frame()).toContain('/abc▏');
		});
		stdin.write(escape);
		await vi.waitFor(() => {
			expect(frame()).not.toContain('/abc');
		});
		expect(frame()).toContain('following the output');
		stdin.write(escape);
		await vi.waitFor(() => {
			expect(frame()).toContain('┃ t01');
		});
	});

	test('c in the zoom asks to cancel the zoomed task', async () => {
		const {frame, stdin} = await zoomedOnOutput();
		stdin.write('c');
		await vi.waitFor(() => {
			expect(frame()).toContain("Cancel t01 'Goal number 1'?");
		});
	});
});
