// Reads what `hermes chat --format stream-json` writes on stdout (upstream hermes_cli/stream_json.py;
// docs/hermes-releases.md): one JSON object per line, `system/init`, `text` deltas, `tool_use`/`tool_result`,
// and a last `result`. It turns that into what a task's pane shows (the reply streaming in, one line
// per tool call) and into a summary for the results (answer, session, tokens, tool calls).
// Pure: bytes in, bytes and data out. Lines that are not events stay plain output, because a run
// may print other things (a tool's stray print, a warning) and those must not be lost.
// Past ~300 lines as one decoder: cutting bytes into lines (bounded, overlong lines passed
// through) and showing events share where the pane's line stands (atLineStart) and the summary;
// what stands apart is apart (the long result line, the tool calls' pairing).
import {completeUtf8End, cutResultEvent, LongLine, startsResultEvent} from './result-line.js';
import {ToolCalls} from './tool-calls.js';
import {compactJson, cutText as cut, toolCallLine, toolResultLine} from '../tool-lines.js';
import type {TaskTelemetry, TokenCounts, ToolCallRecord} from '../../types.js';
import {joinLines} from '../../text/lines.js';

export type StreamSummary = {
	/**
	 * `system/init`'s model: the one configured before start-up (read ahead of -m, the profile and
	 * any fallback), empty when none is. Not the model the run used.
	 */
	configuredModel: string | null;
	sessionId: string | null;
	answer: {text: string; truncated: boolean};
	result: {exitCode: number; error: string | null; durationMs: number | null} | null;
	tokens: TokenCounts | null;
	costUsd: number | null;
	toolCalls: ToolCallRecord[];
	plainLines: number;
	/**
	 * The last lines that were not events. A start-up failure ("Hermes isn't configured yet", a
	 * credential error) is printed as plain text, with no `result`: this is then its message.
	 */
	plainText: string;
};

/** Longer lines are never buffered whole: they are shown as plain output, in pieces. */
const maxLineBytes = 1024 * 1024;
const maxAnswerBytes = 1024 * 1024;
const keptPlainLines = 20;
const keptPlainChars = 500;
const recordInputChars = 400;

type JsonObject = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The first `limit` bytes of text, cut at a character boundary. */
function firstBytes(value: string, limit: number): {text: string; truncated: boolean} {
	const bytes = Buffer.from(value, 'utf8');
	if (bytes.length <= limit) return {text: value, truncated: false};
	let end = limit;
	while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
	return {text: bytes.subarray(0, end).toString('utf8'), truncated: true};
}

export class StreamJsonDecoder {
	private readonly onTelemetry: ((telemetry: TaskTelemetry) => void) | undefined;
	/** The current line's bytes so far (at most maxLineBytes, plus an incomplete UTF-8 tail). */
	private pending: Buffer[] = [];
	private pendingBytes = 0;
	/** The current line outgrew maxLineBytes: it is being passed through as it arrives. */
	private overlong = false;
	/** The current line is a `result` event longer than maxLineBytes: kept, not shown. */
	private longResult: LongLine | null = null;
	/** Whether what was shown so far ends a line, so tool lines can start on a fresh one. */
	private atLineStart = true;
	private model: string | null = null;
	private sessionId: string | null = null;
	private deltas: string[] = [];
	private deltaBytes = 0;
	private deltasTruncated = false;
	private resultText: string | null = null;
	/** The result line was too long to keep whole (result-line.ts): resultText is the answer's start only. */
	private resultTextCut = false;
	private result: StreamSummary['result'] = null;
	private tokens: TokenCounts | null = null;
	private costUsd: number | null = null;
	private readonly toolCalls = new ToolCalls();
	private plainLines = 0;
	private readonly plainTail: string[] = [];

	constructor(options: {onTelemetry?: (telemetry: TaskTelemetry) => void} = {}) {
		this.onTelemetry = options.onTelemetry;
	}

	push(chunk: Buffer): Buffer {
		const out: Buffer[] = [];
		let start = 0;
		for (let newline = chunk.indexOf(0x0a, start); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
			this.feed(chunk.subarray(start, newline), true, out);
			start = newline + 1;
		}

		this.feed(chunk.subarray(start), false, out);
		return Buffer.concat(out);
	}

	/** One piece of the current line, and whether the line ends with it. */
	private feed(piece: Buffer, lineEnds: boolean, out: Buffer[]): void {
		if (!this.longResult && !this.overlong && this.pendingBytes + piece.length > maxLineBytes && startsResultEvent([...this.pending, piece])) {
			this.longResult = new LongLine();
			for (const part of this.pending) this.longResult.add(part);
			this.pending = [];
			this.pendingBytes = 0;
		}

		if (this.longResult) {
			this.longResult.add(piece);
			if (lineEnds) out.push(this.endLongResult(true));
			return;
		}

		if (!lineEnds) {
			if (this.overlong || this.pendingBytes + piece.length > maxLineBytes) {
				this.passThrough(piece, out);
			} else if (piece.length > 0) {
				this.pending.push(Buffer.from(piece));
				this.pendingBytes += piece.length;
			}

			return;
		}

		if (this.overlong || this.pendingBytes + piece.length > maxLineBytes) {
			this.passThrough(piece, out);
			// The line is over: a character split at its end is as whole as it will get.
			out.push(...this.pending, Buffer.from('\n'));
			this.pending = [];
			this.pendingBytes = 0;
			this.overlong = false;
			this.atLineStart = true;
		} else {
			const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
			this.pending = [];
			this.pendingBytes = 0;
			out.push(this.line(line, true));
		}
	}

	private endLongResult(terminated: boolean): Buffer {
		const long = this.longResult!;
		this.longResult = null;
		const whole = long.whole();
		if (whole) return this.line(whole, terminated);
		const shown = this.finalResult(cutResultEvent(long.headText(), long.tailText()));
		this.resultTextCut = true;
		return Buffer.from(shown, 'utf8');
	}

	end(): Buffer {
		const out: Buffer[] = [];
		if (this.longResult) {
			out.push(this.endLongResult(false));
		} else if (this.overlong) {
			out.push(Buffer.concat(this.pending));
		} else if (this.pendingBytes > 0) {
			out.push(this.line(Buffer.concat(this.pending), false));
		}

		this.pending = [];
		this.pendingBytes = 0;
		this.overlong = false;
		return Buffer.concat(out);
	}

	/** The session init (or the result) named so far, without building a whole summary. */
	get namedSession(): string | null {
		return this.sessionId;
	}

	summary(): StreamSummary {
		const answer = this.resultText === null ? {text: this.deltas.join(''), truncated: this.deltasTruncated} : firstBytes(this.resultText, maxAnswerBytes);
		if (this.resultTextCut) answer.truncated = true;
		return {
			configuredModel: this.model,
			sessionId: this.sessionId,
			answer,
			result: this.result && {...this.result},
			tokens: this.tokens && {...this.tokens},
			costUsd: this.costUsd,
			toolCalls: this.toolCalls.records(),
			plainLines: this.plainLines,
			plainText: this.plainTail.join('\n'),
		};
	}

	/** Shows the bytes of an overlong line as they come, holding back only a split UTF-8 character. */
	private passThrough(bytes: Buffer, out: Buffer[]): void {
		if (!this.overlong) {
			this.overlong = true;
			this.plainLines++;
			if (!this.atLineStart) out.push(Buffer.from('\n'));
		}

		const all = this.pending.length === 0 ? bytes : Buffer.concat([...this.pending, bytes]);
		const end = completeUtf8End(all);
		out.push(all.subarray(0, end));
		this.pending = end < all.length ? [Buffer.from(all.subarray(end))] : [];
		this.pendingBytes = all.length - end;
		this.atLineStart = false;
	}

	/** One whole line (without its newline): an event's display, or the line itself as plain output. */
	private line(bytes: Buffer, terminated: boolean): Buffer {
		const event = this.parse(bytes);
		if (event === null) {
			this.plainLines++;
			this.keepPlain(bytes);
			const shown = Buffer.concat([Buffer.from(this.atLineStart ? '' : '\n'), bytes, Buffer.from(terminated ? '\n' : '')]);
			this.atLineStart = terminated;
			return shown;
		}

		return Buffer.from(this.handle(event), 'utf8');
	}

	private keepPlain(bytes: Buffer): void {
		const line = cut(bytes.subarray(0, keptPlainChars * 4).toString('utf8').replace(/\r$/, ''), keptPlainChars);
		if (line.trim() === '') return;
		this.plainTail.push(line);
		if (this.plainTail.length > keptPlainLines) this.plainTail.shift();
	}

	/** A JSON object with a string `type` is an event (a type we do not know is skipped); anything else is not. */
	private parse(bytes: Buffer): JsonObject | null {
		let start = 0;
		while (start < bytes.length && (bytes[start] === 0x20 || bytes[start] === 0x09)) start++;
		if (bytes[start] !== 0x7b) return null; // "{"
		try {
			const value: unknown = JSON.parse(bytes.toString('utf8'));
			if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
			return typeof (value as JsonObject)['type'] === 'string' ? (value as JsonObject) : null;
		} catch {
			return null;
		}
	}

	/** A display line, starting on a fresh line. */
	private shownLine(content: string): string {
		const shown = `${this.atLineStart ? '' : '\n'}${content}\n`;
		this.atLineStart = true;
		return shown;
	}

	private handle(event: JsonObject): string {
		switch (event['type']) {
			case 'system': {
				if (event['subtype'] !== undefined && event['subtype'] !== 'init') return '';
				this.model = text(event['model']) || this.model;
				this.sessionId = text(event['session_id']) || this.sessionId;
				this.telemetry();
				const parts = [this.model && `configured model ${this.model}`, this.sessionId && `session ${this.sessionId}`].filter(Boolean);
				return parts.length > 0 ? this.shownLine(joinLines(parts.join(' · '))) : '';
			}

			case 'text': {
				const delta = text(event['text']) ?? '';
				this.keepDelta(delta);
				if (delta !== '') this.atLineStart = delta.endsWith('\n');
				return delta;
			}

			case 'tool_use': {
				return this.toolUse(event);
			}

			case 'tool_result': {
				return this.toolResult(event);
			}

			case 'result': {
				return this.finalResult(event);
			}

			default: {
				return '';
			}
		}
	}

	private keepDelta(delta: string): void {
		if (this.deltasTruncated || delta === '') return;
		const bytes = Buffer.byteLength(delta, 'utf8');
		if (this.deltaBytes + bytes <= maxAnswerBytes) {
			this.deltas.push(delta);
			this.deltaBytes += bytes;
			return;
		}

		this.deltas.push(firstBytes(delta, maxAnswerBytes - this.deltaBytes).text);
		this.deltaBytes = maxAnswerBytes;
		this.deltasTruncated = true;
	}

	private toolUse(event: JsonObject): string {
		const name = text(event['name']) || 'unknown';
		const id = text(event['tool_call_id']);
		const input = compactJson(event['input']);
		this.toolCalls.used(name, id, input && cut(input, recordInputChars));
		this.telemetry();
		return this.shownLine(toolCallLine(name, input));
	}

	private toolResult(event: JsonObject): string {
		const name = text(event['name']) || 'unknown';
		const id = text(event['tool_call_id']);
		const durationMs = numberOrNull(event['duration_ms']);
		const isError = event['is_error'] === true;
		this.toolCalls.ended(name, id, durationMs, isError);
		this.telemetry();
		return this.shownLine(toolResultLine(name, durationMs, isError ? {text: text(event['output']) ?? ''} : null));
	}

	private finalResult(event: JsonObject): string {
		const error = text(event['error']) || null;
		const exitCode = numberOrNull(event['exit_code']) ?? (error === null ? 0 : 1);
		this.result = {exitCode, error, durationMs: numberOrNull(event['duration_ms'])};
		this.sessionId = text(event['session_id']) || this.sessionId;
		if (typeof event['text'] === 'string') this.resultText = event['text'];
		const tokens = event['tokens'];
		if (tokens !== null && typeof tokens === 'object' && !Array.isArray(tokens)) {
			const counts = tokens as JsonObject;
			const read: TokenCounts = {input: count(counts['input']), output: count(counts['output']), total: count(counts['total']), cache_read: count(counts['cache_read']), cache_write: count(counts['cache_write'])};
			// Hermes writes 0 for every count it does not have (an interrupted or failed run): that is
			// unknown, not free, and a 0 would make batch sums look complete.
			this.tokens = Object.values(read).every(value => value === 0) ? null : read;
		}

		// stream-json's result has no cost today; Hermes's own records call it actual_cost_usd /
		// estimated_cost_usd (hermes_state.py), so those are read should a release add them.
		this.costUsd = numberOrNull(event['cost_usd']) ?? numberOrNull(event['actual_cost_usd']) ?? numberOrNull(event['estimated_cost_usd']) ?? this.costUsd;
		this.telemetry();
		if (exitCode === 0 && error === null) return '';
		return this.shownLine(joinLines(`✗ ${error ?? `exit code ${exitCode}`}`));
	}

	private telemetry(): void {
		this.onTelemetry?.({
			// The model used is the session row's in state.db (read in a later issue), never init's.
			model_used: null,
			configured_model: this.model,
			session_id: this.sessionId,
			tokens: this.tokens && {...this.tokens},
			cost_usd: this.costUsd,
			tool_calls: this.toolCalls.count,
		});
	}
}
