// The one-line live progress display `run` draws on stderr when stderr is a terminal.
// Redrawn at a capped rate, never per output line, and erased before the JSON is printed.
// The line itself is a pure function of the counts, so it is tested without a timer or a terminal.
import type {BatchEvent, TaskStatus} from '../core/types.js';
import {formatElapsed} from '../core/text/durations.js';

export type ProgressCounts = {
	total: number;
	/** Tasks with a final status. */
	done: number;
	/** Started and not finished yet (a task being stopped still holds its processes). */
	running: number;
	succeeded: number;
	/** Failed or timed out. */
	failed: number;
	cancelled: number;
	refused: number;
};

export type ProgressFormat = {
	elapsedMs: number;
	/** Terminal width; the line stays at least one column short of it, so it never wraps. */
	columns: number;
	color: boolean;
};

type Segment = {text: string; sgr?: string};

// Glyphs as in the dashboard: ✗ failed (or timed out), ⊘ cancelled, ⊖ refused.
export function formatProgress(counts: ProgressCounts, format: ProgressFormat): string {
	const separator: Segment = {text: ' · '};
	const segments: Segment[] = [
		{text: `hermes-delegate ${counts.done}/${counts.total}`},
		separator,
		{text: `▶ ${counts.running} running`, sgr: '36'},
		separator,
		{text: `✓ ${counts.succeeded}`, sgr: '32'},
		{text: ' '},
		{text: `✗ ${counts.failed}`, sgr: '31'},
		{text: ' '},
		{text: `⊘ ${counts.cancelled}`, sgr: '33'},
		{text: ' '},
		{text: `⊖ ${counts.refused}`, sgr: '35'},
		separator,
		{text: formatElapsed(format.elapsedMs)},
	];
	return render(segments, Math.max(10, format.columns - 1), format.color);
}


/** Cut by visible characters, so a colour code is never split and never counted. */
function render(segments: readonly Segment[], width: number, color: boolean): string {
	const length = segments.reduce((sum, segment) => sum + [...segment.text].length, 0);
	const cut = length > width;
	let budget = cut ? width - 1 : length; // room for the ellipsis
	let line = '';
	for (const {text, sgr} of segments) {
		const shown = [...text].slice(0, Math.max(0, budget)).join('');
		budget -= [...shown].length;
		if (shown !== '') {
			line += color && sgr ? `\u001B[${sgr}m${shown}\u001B[0m` : shown;
		}
	}

	return cut ? `${line}…` : line;
}

export type ProgressLine = {onEvent(event: BatchEvent): void; stop(): void};

export function startProgressLine(stream: NodeJS.WriteStream, total: number, options: {color: boolean}): ProgressLine {
	const started = Date.now();
	const statusOf = new Map<string, TaskStatus>();
	const draw = () => {
		const line = formatProgress(countStatuses(statusOf.values(), total), {elapsedMs: Date.now() - started, columns: stream.columns ?? 80, color: options.color});
		stream.write(`\r\u001B[2K${line}`);
	};

	const timer = setInterval(draw, 200);
	timer.unref();
	let stopped = false;
	return {
		onEvent(event) {
			if (event.type === 'task.started') {
				statusOf.set(event.id, 'running');
			} else if (event.type === 'task.finished') {
				statusOf.set(event.id, event.result.status);
			}
		},
		stop() {
			clearInterval(timer);
			if (!stopped) {
				stopped = true;
				stream.write('\r\u001B[2K');
			}
		},
	};
}

export function countStatuses(statuses: Iterable<TaskStatus>, total: number): ProgressCounts {
	const counts: ProgressCounts = {total, done: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, refused: 0};
	for (const status of statuses) {
		if (status === 'running' || status === 'cancelling') {
			counts.running++;
			continue;
		}

		if (status === 'queued') {
			continue;
		}

		counts.done++;
		if (status === 'succeeded') {
			counts.succeeded++;
		} else if (status === 'failed' || status === 'timed_out' || status === 'lost') {
			counts.failed++;
		} else if (status === 'cancelled') {
			counts.cancelled++;
		} else {
			counts.refused++;
		}
	}

	return counts;
}
