// Long lines in the zoom: an agent's reply is often one paragraph-long line
// and a tool's input long JSON. They wrap by default; `w` cuts them instead, with ←/→ to scroll
// sideways; a search match is always brought into view, and the margin numbers lines meanwhile.
import '../helpers/force-color.js';
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {plannedTasks, render, startTask, stripAnsi, t0} from '../helpers/render.js';

afterEach(cleanup);

const enter = '\r';
const right = '\u001B[C';
const left = '\u001B[D';

const words = Array.from({length: 60}, (_, index) => `word${String(index + 1).padStart(2, '0')}`);
// 60 words of 6 letters and a space: 420 columns, on a 100-column screen.
const paragraph = `answer: ${words.join(' ')} THE-END`;

async function zoomedOn(lines: string[], columns = 100) {
	const view = render({tasks: plannedTasks(1), columns, rows: 24});
	startTask(view.store, 't01', t0);
	view.control.write('t01', lines);
	view.control.publish();
	view.stdin.write(enter);
	await vi.waitFor(() => {
		expect(view.frame()).toContain('following the output');
	});
	await view.control.landed();
	return view;
}

describe('long lines in the zoom', () => {
	test('wrap by default: the whole paragraph is on screen, broken between words', async () => {
		const view = await zoomedOn(['first line', paragraph]);
		const frame = view.frame();
		expect(frame).toContain('answer: word01');
		expect(frame).toContain('THE-END');
		for (const word of words) {
			expect(frame).toContain(word);
		}

		expect(frame).not.toContain('…');
		expect(frame).toContain('lines 1–2 of 2');
	});

	test('w cuts long lines at the edge; → and ← scroll sideways; w again wraps', async () => {
		const view = await zoomedOn(['first line', paragraph]);
		view.stdin.write('w');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('cut · lines');
		});
		expect(view.frame()).not.toContain('THE-END');
		expect(view.frame()).toMatch(/answer: word01 .*…$/m);

		for (let step = 0; step < 8; step++) {
			view.stdin.write(right);
		}

		await vi.waitFor(() => {
			expect(view.frame()).toContain('THE-END');
		});
		expect(view.frame()).toMatch(/cut · from column \d+/);
		expect(view.frame()).not.toContain('answer: word01');
		// Never past the left edge, however often ← is pressed.
		for (let step = 0; step < 20; step++) {
			view.stdin.write(left);
		}

		await vi.waitFor(() => {
			expect(view.frame()).toContain('answer: word01');
		});
		view.stdin.write('w');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('THE-END');
		});
		expect(view.frame()).not.toContain('cut · ');
	});

	test('a match past the edge of a cut view is brought into view, and marked', async () => {
		const view = await zoomedOn([...Array.from({length: 30}, (_, index) => `line ${index + 1}`), paragraph, 'last line']);
		view.stdin.write('w');
		await vi.waitFor(() => {
			expect(view.frame()).toContain('cut · lines');
		});
		view.stdin.write('/');
		view.stdin.write('the-end');
		view.stdin.write(enter);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('match "the-end" at line 31');
		});
		const row = view.lastFrame()!.split('\n').find(text => stripAnsi(text).includes('THE-END')) ?? '';
		expect(row).not.toBe('');
		// Marked: underlined, on the row's current-match background.
		expect(row).toMatch(/\u001B\[4m(?:\u001B\[[\d;]+m)*THE-END/);
	});

	test('a match at the end of a long wrapped line on a short screen is on screen', async () => {
		const long = `start ${'x'.repeat(3000)} needle end`;
		const view = await zoomedOn(['a', long, 'b'], 60);
		view.stdin.write('g');
		view.stdin.write('/');
		view.stdin.write('needle');
		view.stdin.write(enter);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('match "needle" at line 2');
		});
		expect(view.frame()).toMatch(/x+ needle end/);
	});

	test('while a search is on, the margin numbers the lines (a wrapped line once)', async () => {
		const view = await zoomedOn(['alpha', 'beta', paragraph, 'gamma']);
		expect(view.frame()).not.toMatch(/^ *2 beta$/m);
		view.stdin.write('/');
		view.stdin.write('beta');
		view.stdin.write(enter);
		await vi.waitFor(() => {
			expect(view.frame()).toContain('match "beta" at line 2');
		});
		const frame = view.frame();
		expect(frame).toMatch(/^1 alpha/m);
		expect(frame).toMatch(/^2 beta/m);
		expect(frame).toMatch(/^3 answer: word01/m);
		expect(frame).toMatch(/^4 gamma/m);
		// The paragraph's second row has no number of its own.
		expect(frame).toMatch(/^ {2}word\d\d/m);
	});
});
