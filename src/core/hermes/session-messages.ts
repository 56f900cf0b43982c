// A running session's messages rows (state-db/messages.ts) as what its pane shows and what its
// result records, for releases without stream-json. Pure: rows in, lines and records out.
// What Hermes writes (docs/spend.md; the recordings test/contract/ holds): an `assistant` row with `tool_calls` (a JSON list of
// {id, type: function, function: {name, arguments}}) when the model asks, before the tool runs; a
// `tool` row with tool_call_id, tool_name and content {output, exit_code, error} when it returns;
// the answer as the last `assistant` row (finish_reason stop), which -Q prints on stdout anyway and
// so is not shown twice. A result is paired with its call by tool_call_id, whichever arrives first.
// Every field is the subagent's text: lengths are bounded here, escapes are the output's sanitiser's.
import type {ToolCallRecord} from '../types.js';
import type {MessageRow} from './state-db/messages.js';
import {compactJson, cutText, toolCallLine, toolResultLine} from './tool-lines.js';

const maxRecords = 1000;
const recordInputChars = 400;
const textLineChars = 500;
const textLinesPerRow = 40;

type Call = {record: ToolCallRecord; calledAt: number | null};
type EarlyResult = {name: string; returnedAt: number | null; error: string | null};

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function parseJson(text: string | null): unknown {
	if (text === null) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** A call's `arguments` (a JSON string in the OpenAI shape) as compact JSON; a string that is not JSON as it is. */
function inputOf(fn: JsonObject): string | null {
	const args = fn['arguments'];
	if (typeof args !== 'string') return compactJson(args);
	const parsed = parseJson(args);
	return parsed === undefined ? (args === '' ? null : args) : compactJson(parsed);
}

/** A tool row's failure in words, or null: Hermes's tools put it in `error`, some say `success: false`. */
function errorOf(content: string | null): string | null {
	const parsed = parseJson(content);
	if (!isObject(parsed)) return null;
	const error = str(parsed['error']);
	if (error !== null) return error;
	return parsed['success'] === false ? 'failed' : null;
}

function exitCodeOf(content: string | null): number | null {
	const parsed = parseJson(content);
	const code = isObject(parsed) ? parsed['exit_code'] : undefined;
	return typeof code === 'number' && Number.isInteger(code) ? code : null;
}

const durationMs = (from: number | null, to: number | null) => (from === null || to === null ? null : Math.max(0, Math.round((to - from) * 1000)));

/** The interim text of an assistant row, as bounded display lines. */
function textLines(content: string): string[] {
	const lines = content.split(/\r?\n/).map(line => cutText(line, textLineChars));
	while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
	while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
	if (lines.length <= textLinesPerRow) return lines;
	return [...lines.slice(0, textLinesPerRow), `… (${lines.length - textLinesPerRow} more lines)`];
}

/** One session's messages, row by row, as lines for its pane and tool-call records for its result. */
export class SessionMessages {
	private readonly records: ToolCallRecord[] = [];
	/** Calls whose result has not come, by tool_call_id. */
	private readonly open = new Map<string, Call>();
	/** Results that came before their call (ordering is not promised across reads), by tool_call_id. */
	private readonly early = new Map<string, EarlyResult>();
	private seen = 0;
	/** The highest row id handled: the next read asks for the rows after it. */
	lastId = 0;

	/** Every tool call seen, kept or not. */
	get callCount(): number {
		return this.seen;
	}

	/** Copies of the kept records, in the order the calls were made. */
	toolCalls(): ToolCallRecord[] {
		return this.records.map(record => ({...record}));
	}

	/** New rows, oldest first: the lines they add to the pane. */
	add(rows: readonly MessageRow[]): string[] {
		const fresh = rows.filter(row => row.id > this.lastId).sort((a, b) => a.id - b.id);
		// A result read together with its later call waits for it, so the pane shows call then result.
		const callsAhead = new Set<string>();
		for (const row of fresh) for (const id of this.callIdsOf(row)) callsAhead.add(id);
		const waiting = new Map<string, MessageRow>();
		const lines: string[] = [];
		for (const row of fresh) {
			this.lastId = Math.max(this.lastId, row.id);
			if (row.role === 'tool' && row.tool_call_id !== null && callsAhead.has(row.tool_call_id) && !this.open.has(row.tool_call_id)) {
				waiting.set(row.tool_call_id, row);
				continue;
			}

			lines.push(...this.row(row));
			for (const id of this.callIdsOf(row)) {
				const result = waiting.get(id);
				if (result) {
					waiting.delete(id);
					lines.push(...this.row(result));
				}
			}
		}

		return lines;
	}

	private callIdsOf(row: MessageRow): string[] {
		if (row.role !== 'assistant') return [];
		const calls = parseJson(row.tool_calls);
		return Array.isArray(calls) ? calls.filter(isObject).map(call => str(call['id'])).filter((id): id is string => id !== null) : [];
	}

	private row(row: MessageRow): string[] {
		if (row.role === 'assistant') return this.assistant(row);
		if (row.role === 'tool') return [this.result(row)];
		return []; // the prompt (user), a system note: not news on the pane
	}

	private assistant(row: MessageRow): string[] {
		const lines: string[] = [];
		const hasCalls = row.tool_calls !== null && row.tool_calls !== '' && row.tool_calls !== '[]';
		// The answer (finish_reason stop, no calls) is what Hermes prints on stdout: shown once, from there.
		if (row.content !== null && (hasCalls || row.finish_reason !== 'stop')) lines.push(...textLines(row.content));
		if (!hasCalls) return lines;
		const calls = row.toolCallsCut ? undefined : parseJson(row.tool_calls);
		if (!Array.isArray(calls)) {
			lines.push(toolCallLine('(tool calls that cannot be read)', row.toolCallsCut ? 'longer than hermes-delegate reads' : 'not a JSON list'));
			return lines;
		}

		for (const call of calls.filter(isObject)) {
			const fn = isObject(call['function']) ? call['function'] : {};
			lines.push(this.called(str(fn['name']) ?? 'unknown', str(call['id']), inputOf(fn), row.timestamp));
		}

		return lines;
	}

	private called(name: string, id: string | null, input: string | null, at: number | null): string {
		this.seen++;
		const record: ToolCallRecord = {name, id, input: input && cutText(input, recordInputChars), duration_ms: null, is_error: null};
		const early = id === null ? undefined : this.early.get(id);
		if (early) {
			this.early.delete(id!);
			record.duration_ms = durationMs(at, early.returnedAt);
			record.is_error = early.error !== null;
		} else if (id !== null) {
			this.open.set(id, {record, calledAt: at});
			bound(this.open);
		}

		if (this.records.length < maxRecords) this.records.push(record);
		return toolCallLine(name, input);
	}

	private result(row: MessageRow): string {
		const id = row.tool_call_id;
		const call = id === null ? undefined : this.open.get(id);
		const name = row.tool_name ?? call?.record.name ?? 'unknown';
		const error = errorOf(row.content);
		const duration = call ? durationMs(call.calledAt, row.timestamp) : null;
		if (call) {
			this.open.delete(id!);
			call.record.duration_ms = duration;
			call.record.is_error = error !== null;
		} else if (id !== null) {
			this.early.set(id, {name, returnedAt: row.timestamp, error});
			bound(this.early);
		}

		const exitCode = exitCodeOf(row.content);
		const line = toolResultLine(name, duration, error === null ? null : {text: error});
		return error === null && exitCode !== null && exitCode !== 0 ? `${line} [exit ${exitCode}]` : line;
	}
}

/** A session that never pairs its calls must not grow a map for ever: the oldest entries go. */
function bound(map: Map<string, unknown>): void {
	while (map.size > maxRecords) map.delete(map.keys().next().value!);
}
