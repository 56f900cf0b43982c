// The pane's line for a tool call and for its result, wherever the call was learnt from: the
// stream-json events (stream-json/decoder.ts) or the session's messages in state.db (session-messages.ts).
// One rendering, so a task looks the same on every release. Each is one line of bounded length.
import {joinLines} from '../text/lines.js';

/** Characters of a call's input, or of a result's error, a line shows. */
export const displayInputChars = 120;

export const cutText = (value: string, length: number): string => (value.length > length ? `${value.slice(0, length - 1)}…` : value);
const seconds = (ms: number | null) => (ms === null ? '' : ` ${(ms / 1000).toFixed(1)}s`);

/** The input as compact JSON, or null when there is none (or it cannot be written). */
export function compactJson(value: unknown): string | null {
	if (value === undefined) return null;
	try {
		return JSON.stringify(value) ?? null;
	} catch {
		return null;
	}
}

/** `⚙ terminal {"command":"sleep 300"}`: a call issued. */
export function toolCallLine(name: string, input: string | null): string {
	return joinLines(`⚙ ${name}${input ? ` ${cutText(input, displayInputChars)}` : ''}`);
}

/** `  ↳ terminal 4.2s` for a call that returned, `  ✗ terminal 4.2s: <first line of the error>` for one that failed. */
export function toolResultLine(name: string, durationMs: number | null, error: {text: string} | null): string {
	if (error === null) return joinLines(`  ↳ ${name}${seconds(durationMs)}`);
	const firstLine = error.text.split('\n').find((line) => line.trim() !== '') ?? '';
	return joinLines(`  ✗ ${name}${seconds(durationMs)}${firstLine ? `: ${cutText(firstLine.trim(), displayInputChars)}` : ''}`);
}
