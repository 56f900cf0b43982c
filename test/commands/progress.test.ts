// The progress line `run` draws on a terminal's stderr: compact, one glyph per outcome, never
// wider than the terminal, and without colour when colour is off.
import {describe, expect, it} from 'vitest';
import {countStatuses, formatProgress, type ProgressCounts} from '../../src/commands/progress.js';
import {formatElapsed} from '../../src/core/text/durations.js';
import type {TaskStatus} from '../../src/core/types.js';

const plain = {columns: 80, color: false};
const strip = (text: string) => text.replaceAll(/\u001B\[[\d;]*m/g, '');
const width = (text: string) => [...strip(text)].length;

const mixed: TaskStatus[] = ['running', 'cancelling', 'running', 'succeeded', 'succeeded', 'failed', 'timed_out', 'cancelled', 'refused', 'queued'];

describe('countStatuses', () => {
	it('counts timed out with failed, a task being stopped as running, and keeps refused apart from cancelled', () => {
		expect(countStatuses(mixed, 10)).toEqual({total: 10, done: 6, running: 3, succeeded: 2, failed: 2, cancelled: 1, refused: 1});
	});
});

describe('formatProgress', () => {
	const counts: ProgressCounts = {total: 8, done: 3, running: 3, succeeded: 2, failed: 1, cancelled: 1, refused: 1};

	it('is one compact line: done/total, running, each outcome by its glyph, elapsed time', () => {
		expect(formatProgress(counts, {...plain, elapsedMs: 12_400})).toBe('hermes-delegate 3/8 · ▶ 3 running · ✓ 2 ✗ 1 ⊘ 1 ⊖ 1 · 12s');
	});

	it('fits 80 columns with room to spare, even with large counts and a long run', () => {
		const large: ProgressCounts = {total: 999, done: 999, running: 999, succeeded: 999, failed: 999, cancelled: 999, refused: 999};
		const line = formatProgress(large, {...plain, elapsedMs: 99 * 3_600_000});
		expect(line).not.toContain('…');
		expect(width(line)).toBeLessThan(79);
	});

	it.each([50, 40, 24])('is cut to a %i-column terminal, ending in an ellipsis', columns => {
		const line = formatProgress(counts, {columns, color: false, elapsedMs: 0});
		expect(width(line)).toBe(columns - 1);
		expect(line.endsWith('…')).toBe(true);
		expect(line.startsWith('hermes-delegate 3/8')).toBe(true);
	});

	it('colours the outcomes when colour is on, and cuts by visible width without splitting a code', () => {
		const full = formatProgress(counts, {columns: 80, color: true, elapsedMs: 0});
		expect(full).toContain('\u001B[32m✓ 2\u001B[0m');
		expect(full).toContain('\u001B[31m✗ 1\u001B[0m');
		expect(strip(full)).toBe(formatProgress(counts, {...plain, elapsedMs: 0}));

		const cut = formatProgress(counts, {columns: 30, color: true, elapsedMs: 0});
		expect(width(cut)).toBe(29);
		expect(cut).not.toMatch(/\u001B(?!\[[\d;]*m)/);
		expect(cut.endsWith('…')).toBe(true);
	});

	it('has no escape sequence at all when colour is off (NO_COLOR)', () => {
		expect(formatProgress(counts, {...plain, elapsedMs: 0})).not.toContain('\u001B');
	});
});

describe('formatElapsed', () => {
	it.each([[0, '0s'], [59_999, '59s'], [60_000, '1m00s'], [3_599_000, '59m59s'], [3_600_000, '1h00m'], [90 * 60_000, '1h30m']])('%i ms is %s', (ms, text) => {
		expect(formatElapsed(ms)).toBe(text);
	});
});
