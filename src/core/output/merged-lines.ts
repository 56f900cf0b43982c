// What a pane shows of a task: the lines of its stdout and stderr merged in the order they were
// completed, and the copies of them handed to the screen (which must share no memory with the
// large blocks of output they were cut from).
import {LineBlocks} from './line-blocks.js';
import type {LineBlock} from './line-blocks.js';

/**
 * What a pane shows: stdout and stderr lines in the order they were completed, so an agent's
 * warnings appear where they happened. Each stream assembles its own lines (a partial stdout
 * line is never spliced with stderr text); the unfinished lines of both come last.
 * The streams hand over blocks of lines completed together, shared with their own tails, so
 * merging costs one step per chunk, not per line.
 */
export class MergedLines {
	private readonly complete: LineBlocks;

	constructor(maxLines: number, private readonly partials: () => string[]) {
		this.complete = new LineBlocks(maxLines);
	}

	add(block: LineBlock): void {
		this.complete.add(block);
	}

	skip(count: number): void {
		this.complete.skip(count);
	}

	get totalLines(): number {
		return this.complete.totalLines;
	}

	lines(count?: number): string[] {
		const partials = this.partials().filter(line => line !== '');
		const wanted = Math.min(count ?? Number.POSITIVE_INFINITY, this.complete.length + partials.length);
		const fromComplete = Math.max(0, wanted - partials.length);
		// Only the wanted lines are split out: panes ask for a few dozen lines many times a second.
		const complete = this.complete.last(fromComplete);
		// These lines leave the core for the screen, where Ink caches every string it draws:
		// a line that is a slice of a 64 KiB output block would keep that whole block alive. So
		// they leave as copies, and a line the last read handed out leaves as the same copy:
		// between two reads of a pane most of its lines are the same (under 32 trickling agents,
		// copying them afresh was ~9 % of what the dashboard allocated).
		const first = this.complete.totalLines - complete.length;
		const copies = complete.map((line, i) => this.handedOut.copyOf(first + i, line));
		// A pane's reads are remembered; the zoom's (up to maxLines) reuse them without replacing
		// them, so that a pane read after the zoom still finds its lines, and a task once zoomed
		// does not keep a second copy of its scrollback for the rest of the run.
		if (copies.length <= rememberedLines) {
			this.handedOut = new HandedOut(first, copies, copies.length);
		}

		copies.push(...partials.slice(partials.length - (wanted - fromComplete)).map(detached));
		return copies;
	}

	/**
	 * What a reader holding every complete line before line number `since` lacks to stand where
	 * lines(max) stands: the complete lines from `since` on (at most the newest `max`, numbered
	 * from `from`), the unfinished lines, and how many complete lines are kept (no read returns
	 * more). Complete lines never change once counted, so a
	 * runner host sends a client only these (its tail deltas). Nothing is copied: the lines leave
	 * as JSON, not to the screen.
	 */
	since(since: number, max: number): {from: number; fresh: string[]; unfinished: string[]; kept: number} {
		const count = Math.max(0, Math.min(max, this.complete.totalLines - since));
		const fresh = count === 0 ? [] : this.complete.last(count);
		return {from: this.complete.totalLines - fresh.length, fresh, unfinished: this.partials().filter(line => line !== ''), kept: this.complete.length};
	}

	private handedOut = new HandedOut(0, [], 0);
}

/** Reads of at most this many lines (a pane's) are remembered for the next read to reuse. */
const rememberedLines = 256;

/** Copies of complete lines a read handed out, by their number among all the lines ever completed. */
class HandedOut {
	/** `copies` may go on with the read's partial lines: only the first `count` are complete lines. */
	constructor(private readonly first: number, private readonly copies: readonly string[], private readonly count: number) {}

	/** The copy handed out for line `index` if it holds `line`'s text (content compared: never a wrong line), else a new copy. */
	copyOf(index: number, line: string): string {
		const at = index - this.first;
		const copy = at >= 0 && at < this.count ? this.copies[at] : undefined;
		return copy === line ? copy : detached(line);
	}
}

/** A copy of `line` that shares no memory with the (possibly huge) string it was cut from. */
export function detached(line: string): string {
	// Concatenation flattens into a new string of the line's own size; the slice then points into it.
	return (` ${line}`).slice(1);
}
