// What is kept in memory of one task's output: display tails (sanitised, bounded lines) for
// the dashboard, and the last bytes of raw stdout for the result. The complete output goes
// to the task's log file, never here, so memory stays flat however much a task prints.
import {ByteTail, resultLimitBytes} from './byte-tail.js';
import type {LineBlock} from './line-blocks.js';
import {MergedLines} from './merged-lines.js';
import {defaultMaxLineLength, OutputTail} from './output-tail.js';
import {countLineBreaks, rawRegionFits, stdoutCut, type Pending} from './waiting-output.js';
import {sanitizeLine, stripSgr} from './sanitize.js';

/** Turns an agent's raw stdout into what its pane shows (stream-json → reply text and tool lines). */
export type StdoutDecoder = {
	push(chunk: Buffer): Buffer;
	end(): Buffer;
};

/**
 * Output waiting for display is decoded when somebody looks (the dashboard polls a few times a
 * second), not as it arrives. A flood prints thousands of lines between two looks, of which a
 * tail keeps only the last `maxLines`: the older ones are counted with native byte searches and
 * never decoded, sanitised or split (under 16 floods that decoding and its garbage were about a
 * third of the dashboard's CPU). Below this many bytes waiting, everything is simply decoded.
 */
const skipAbove = 128 * 1024;
/** Output waiting is trimmed to its newest lines as it arrives past this, so a flood between two looks is not held in memory. */
const trimAbove = 512 * 1024;
/** Newest lines of a flood decoded at once (more than a pane or a zoomed screen shows); older kept ones are decoded when read. */
const eagerLines = 256;

/** TaskOutputs made in this process so far: each takes the next number as its serial. */
let outputsMade = 0;
/** Visible changes of every TaskOutput in this process so far: each change takes the next number as its output's version. */
let changesMade = 0;
/** Told of every visible change of any TaskOutput of this process, and of each new one: the runner host wakes to push on them. */
const changeListeners = new Set<() => void>();

/** Calls `listener` whenever a TaskOutput of this process is made or shows something new; returns the unsubscribe. */
export function onAnyOutputChange(listener: () => void): () => void {
	changeListeners.add(listener);
	return () => {
		changeListeners.delete(listener);
	};
}

function tellListeners(): void {
	for (const listener of changeListeners) listener();
}

/** The next version of the process's outputs, told to the listeners. */
function nextChange(): number {
	changesMade += 1;
	tellListeners();
	return changesMade;
}

export class TaskOutput {
	/**
	 * No other TaskOutput of this process has it. A task run again gets a new TaskOutput whose
	 * version counts from 0 again: the serial tells a reader that lines it holds were another's.
	 */
	readonly serial = ++outputsMade;
	private readonly stdoutTail: OutputTail;
	private readonly stderrTail: OutputTail;
	private readonly merged: MergedLines;
	private readonly resultBytes = new ByteTail(resultLimitBytes);
	private readonly errorBytes = new ByteTail(4 * 1024);
	private readonly maxLines: number;
	/** Display output not yet decoded, in arrival order (stdout and stderr interleaved). */
	private pending: Pending[] = [];
	private pendingStdoutBytes = 0;
	/** The waiting stdout begins just after a cut (trimPending): a line break with fresh decoding state. */
	private pendingStartsFresh = false;
	private changes = 0;
	/** When (epoch ms) the task last printed anything, shown or not, or its session records gave a line: the stuck monitor and the pane's "last output" read it. */
	private lastOutput: number | null = null;

	/** false (headless `run`): nobody watches, so output is not decoded for display at all. */
	private readonly keepDisplay: boolean;

	private readonly decoder: StdoutDecoder | undefined;
	/** What of stderr the pane shows (the log keeps every byte): the agent's protocol lines are not news. */
	private readonly stderrFilter: ((chunk: Buffer) => Buffer) | undefined;

	/** Newest lines of a flood decoded at once. */
	private readonly eagerLines: number;

	constructor(options: {maxLines?: number | undefined; display?: boolean | undefined; decoder?: StdoutDecoder | undefined; stderrFilter?: ((chunk: Buffer) => Buffer) | undefined; eagerLines?: number | undefined} = {}) {
		this.keepDisplay = options.display ?? true;
		this.decoder = options.decoder;
		this.stderrFilter = options.stderrFilter;
		this.maxLines = options.maxLines ?? 2000;
		this.eagerLines = options.eagerLines ?? eagerLines;
		this.merged = new MergedLines(this.maxLines, () => [this.stdoutTail.partialLine(), this.stderrTail.partialLine()]);
		const sink = (block: LineBlock) => this.merged.add(block);
		this.stdoutTail = new OutputTail({maxLines: this.maxLines, sink});
		this.stderrTail = new OutputTail({maxLines: 200, sink});
		// A new pane (a task started, or run again) is news before it prints anything.
		if (this.keepDisplay) tellListeners();
	}

	/** The stdout tail, up to date. */
	get stdout(): OutputTail {
		this.decodePending();
		return this.stdoutTail;
	}

	/** The stderr tail, up to date. */
	get stderr(): OutputTail {
		this.decodePending();
		return this.stderrTail;
	}

	/** stdout and stderr interleaved by arrival: what the dashboard shows. */
	get display(): MergedLines {
		this.decodePending();
		return this.merged;
	}

	pushStdout(chunk: Buffer): void {
		this.lastOutput = Date.now();
		// A decoder reads every byte, watched or not: the answer and the telemetry come from it.
		const shown = this.decoder ? this.decoder.push(chunk) : chunk;
		if (this.keepDisplay && shown.length > 0) {
			this.pending.push({stderr: false, chunk: shown});
			this.pendingStdoutBytes += shown.length;
			if (this.pendingStdoutBytes > trimAbove) {
				this.trimPending();
			}
		}

		this.resultBytes.push(chunk);
		// Shown or not, the pane's "last output" moved.
		if (this.keepDisplay) this.changes = nextChange();
	}

	pushStderr(chunk: Buffer): void {
		this.lastOutput = Date.now();
		if (this.keepDisplay) {
			const shown = this.stderrFilter ? this.stderrFilter(chunk) : chunk;
			if (shown.length > 0) {
				this.pending.push({stderr: true, chunk: shown});
			}
		}

		this.errorBytes.push(chunk);
		// Shown or not, the pane's "last output" and its error line moved.
		if (this.keepDisplay) this.changes = nextChange();
	}

	/**
	 * Lines hermes-delegate shows about the task, not bytes the task printed: its live activity
	 * read from Hermes's session records (run/session-follower.ts). They join the pane and the zoom
	 * in order with the output, as complete lines, but stay out of the result and the stderr tail;
	 * the task's log never sees them (it is written from the pipes, not from here). Untrusted text
	 * (the subagent's words and its tools' arguments): sanitised, one line each, bounded.
	 */
	pushDisplayLines(lines: readonly string[]): void {
		if (lines.length > 0) {
			this.lastOutput = Date.now();
		}

		if (!this.keepDisplay || lines.length === 0) {
			return;
		}

		this.decodePending(); // what the task printed before these lines stays before them
		const shown = lines.map(line => sanitizeLine(line.slice(0, defaultMaxLineLength).replaceAll(/[\r\n]+/g, ' ')));
		this.merged.add({text: shown.join('\n'), count: shown.length, crlf: false});
		this.changes = nextChange();
	}

	end(): void {
		const rest = this.decoder?.end();
		if (rest && rest.length > 0 && this.keepDisplay) {
			this.pending.push({stderr: false, chunk: rest});
			this.pendingStdoutBytes += rest.length;
			this.changes = nextChange();
		}

		this.decodePending();
		const before = this.stdoutTail.version + this.stderrTail.version;
		this.stdoutTail.end();
		this.stderrTail.end();
		// The unterminated last lines became complete ones.
		if (this.stdoutTail.version + this.stderrTail.version !== before) {
			this.changes = nextChange();
		}
	}

	/** When the task last gave a sign of life on its pipes or in its session records (epoch ms); null: not yet. Counted even where nothing is displayed (headless `run`). */
	get lastOutputAt(): number | null {
		return this.lastOutput;
	}

	/**
	 * Changes whenever anything visible changed (onAnyOutputChange tells when). Unique in
	 * the process: a task run again gets a new TaskOutput, which must never be taken for the
	 * earlier one that stopped at the same version (its pane or zoom would keep the old lines).
	 */
	get version(): number {
		return this.changes;
	}

	/**
	 * Drops the waiting stdout older than its newest `maxLines` line breaks, as decodePending
	 * would, keeping the rest waiting: stderr before the cut is decoded now to keep the order.
	 */
	private trimPending(): void {
		const cut = stdoutCut(this.pending, this.maxLines);
		if (cut === undefined) {
			return;
		}

		const pending = this.pending;
		for (const {stderr, chunk} of pending.slice(0, cut.index)) {
			if (stderr) {
				this.stderrTail.push(chunk);
			}
		}

		this.stdoutTail.skipLines(cut.lines);
		this.merged.skip(cut.lines);
		const rest = pending[cut.index]!.chunk.subarray(cut.offset);
		this.pending = rest.length > 0 ? [{stderr: false, chunk: rest}, ...pending.slice(cut.index + 1)] : pending.slice(cut.index + 1);
		this.pendingStartsFresh = true;
		this.pendingStdoutBytes = this.pending.reduce((sum, item) => sum + (item.stderr ? 0 : item.chunk.length), 0);
	}

	/**
	 * Decodes what is waiting, in arrival order. stdout older than its newest `maxLines` line
	 * breaks is skipped (counted only, by trimPending); stderr is always decoded: it is little,
	 * and its last line is the task's error line.
	 */
	private decodePending(): void {
		if (this.pending.length === 0) {
			return;
		}

		if (this.pendingStdoutBytes > skipAbove) {
			this.trimPending();
		}

		const pending = this.pending;
		// After a cut the stream starts afresh at a line break: from there all but the newest lines
		// may stay raw until read (a pane reads its last few dozen; the zoom, rarely, all).
		const rawCut = this.pendingStartsFresh ? stdoutCut(pending, this.eagerLines) : undefined;
		const raw = rawCut !== undefined && rawRegionFits(pending, rawCut, this.maxLines * (defaultMaxLineLength + 2)) ? rawCut : undefined;
		const rawLines = raw === undefined ? undefined : this.stdoutTail.rawLines();
		let run: Buffer[] = [];
		const endRun = () => {
			const bytes = Buffer.concat(run);
			const complete = bytes.lastIndexOf(0x0A) + 1;
			run = complete < bytes.length ? [bytes.subarray(complete)] : [];
			const lines = countLineBreaks(bytes, complete);
			if (lines > 0) {
				this.stdoutTail.pushRawLines(rawLines!, bytes.subarray(0, complete), lines);
			}
		};

		this.pending = [];
		this.pendingStdoutBytes = 0;
		this.pendingStartsFresh = false;
		for (const [index, {stderr, chunk}] of pending.entries()) {
			if (stderr) {
				if (run.length > 0) {
					endRun();
				}

				this.stderrTail.push(chunk);
				continue;
			}

			let from = 0;
			if (raw !== undefined && index <= raw.index) {
				run.push(index === raw.index ? chunk.subarray(0, raw.offset) : chunk);
				if (index < raw.index) {
					continue;
				}

				endRun();
				from = raw.offset;
			}

			if (from < chunk.length) {
				this.stdoutTail.push(chunk.subarray(from));
			}
		}
	}

	/** The task's stdout, trailing newline removed: what `result` holds. */
	result(): {text: string; truncated: boolean} {
		const {text, truncated} = this.resultBytes.text();
		return {text: text.replace(/\r?\n$/, ''), truncated};
	}

	/** The stderr tail, as plain text (no escapes), for `error` in results. */
	errorText(): string {
		return stripSgr(sanitizeLine(this.errorBytes.text().text)).replace(/\r/g, '').trim();
	}

	/** The stderr line that matters: the last one that says something. */
	errorLine(): string | undefined {
		return this.keepDisplay ? this.stderr.lastLine() : this.errorText().split('\n').findLast(line => line.trim() !== '');
	}
}
