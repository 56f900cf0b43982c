// Everything the MCP server returns ends up in the parent agent's context: text a subagent printed
// (or a task file or config held) is made plain (no escape sequence, no control character, not
// even colour) and bounded here, once, before it is put into a tool result.
import {stripSgr} from '../core/output/sanitize.js';
import {jsonText, safeExcerpt, terminalSafe} from '../core/output/visible-text.js';

/** Longest output line returned; past it a line ends in '…'. */
export const maxLineChars = 1000;
/** Most characters of one task's answer in batch_wait and delegate's results; the rest is in the file named. */
export const maxAnswerChars = 8000;
/** Most characters of one tool result as a whole (the agent's context is the budget). */
export const maxResultChars = 100_000;

export function plainLine(line: string): string {
	return safeExcerpt(stripSgr(line), maxLineChars).replaceAll('\n', ' ');
}

export function plainText(text: string, max: number): {text: string; cut: boolean} {
	const safe = terminalSafe(stripSgr(text));
	const chars = [...safe];
	return chars.length <= max ? {text: safe, cut: false} : {text: `${chars.slice(0, max).join('')}…`, cut: true};
}

/** A tool result carrying one JSON value (escaped so that no control character survives). */
export function jsonResult(value: unknown): {content: Array<{type: 'text'; text: string}>} {
	const text = jsonText(value, 2);
	return {content: [{type: 'text', text: text.length <= maxResultChars ? text : `${text.slice(0, maxResultChars)}\n… (cut at ${maxResultChars} characters: ask for fewer lines or tasks)`}]};
}

/** A tool error: the agent reads the message and what to fix; nothing was started or changed. */
export function toolError(message: string, fix?: string): {content: Array<{type: 'text'; text: string}>; isError: true} {
	return {content: [{type: 'text', text: terminalSafe(fix ? `${message}. Fix: ${fix}` : message)}], isError: true};
}
