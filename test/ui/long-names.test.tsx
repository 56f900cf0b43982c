// Very long titles of wide characters with combining marks: the dashboard measures only what a
// line can show (measuring all of a 50,000-character CJK title never finished).
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {maxMeasuredLength} from '../../src/core/output/visible-text.js';
import {oneLine, titleLine} from '../../src/ui/text/format.js';
import {plannedTask, render} from '../helpers/render.js';

afterEach(cleanup);

const hugeCjk = '漢\u0301字\u0308'.repeat(12_500); // 50,000 code units: CJK with combining marks

describe('long wide-character titles', () => {
	test('titleLine and oneLine keep only what a line can show, never half a surrogate pair', () => {
		expect(titleLine(hugeCjk).length).toBeLessThanOrEqual(maxMeasuredLength * 2);
		expect(oneLine(hugeCjk).length).toBeLessThanOrEqual(maxMeasuredLength + 1);
		const emoji = '😀'.repeat(5000);
		const line = titleLine(emoji);
		expect(line.length).toBeLessThanOrEqual(maxMeasuredLength * 2);
		expect([...line].every(char => char === '😀')).toBe(true);
	});

	test('a pane whose goal is 50,000 CJK characters with combining marks is drawn', async () => {
		const {frame} = render({tasks: [plannedTask(0, {spec: {goal: hugeCjk}})], columns: 100, rows: 20});
		await vi.waitFor(() => {
			expect(frame()).toContain('t01 漢');
		}, {timeout: 15_000});
		expect(frame()).toContain('○ queued');
	}, 20_000);
});
