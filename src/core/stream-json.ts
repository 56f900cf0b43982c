// PLACEHOLDER: passes stdout through unchanged. The real stream-json decoder (same API) replaces this file in the next merge.
import type {TaskTelemetry, TokenCounts, ToolCallRecord} from './types.js';
export type StreamSummary = {
	model: string | null; sessionId: string | null; answer: {text: string; truncated: boolean};
	result: {exitCode: number; error: string | null; durationMs: number | null} | null;
	tokens: TokenCounts | null; costUsd: number | null; toolCalls: ToolCallRecord[]; plainLines: number;
};
export class StreamJsonDecoder {
	constructor(_options: {onTelemetry?: (telemetry: TaskTelemetry) => void} = {}) {}
	push(chunk: Buffer): Buffer { return chunk; }
	end(): Buffer { return Buffer.alloc(0); }
	summary(): StreamSummary { return {model: null, sessionId: null, answer: {text: '', truncated: false}, result: null, tokens: null, costUsd: null, toolCalls: [], plainLines: 0}; }
}
