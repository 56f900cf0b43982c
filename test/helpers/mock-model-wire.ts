// The OpenAI chat-completions wire format the mock model server speaks: SSE chunks for
// `stream: true` (text deltas or a tool call, then a usage chunk and [DONE]), plain JSON otherwise.
import type {ServerResponse} from 'node:http';

export const usage = {prompt_tokens: 11, completion_tokens: 7, total_tokens: 18};

export function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
	const payload = {id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model, choices: [{index: 0, delta, finish_reason: finish}]};
	return `data: ${JSON.stringify(payload)}\n\n`;
}

export function usageChunk(model: string): string {
	return `data: ${JSON.stringify({id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model, choices: [], usage})}\n\n`;
}

export function startStream(response: ServerResponse): void {
	response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close'});
}

export function streamText(response: ServerResponse, model: string, text: string): void {
	startStream(response);
	response.write(chunk(model, {role: 'assistant', content: ''}));
	// Two deltas, so a client that keeps only the last one would be caught out.
	const middle = Math.ceil(text.length / 2);
	for (const part of [text.slice(0, middle), text.slice(middle)]) {
		if (part !== '') response.write(chunk(model, {content: part}));
	}

	response.write(chunk(model, {}, 'stop'));
	response.write(usageChunk(model));
	response.end('data: [DONE]\n\n');
}

export function streamToolCall(response: ServerResponse, model: string, command: string): void {
	startStream(response);
	const call = {index: 0, id: 'call_mock_1', type: 'function', function: {name: 'terminal', arguments: JSON.stringify({command})}};
	response.write(chunk(model, {role: 'assistant', content: null, tool_calls: [call]}));
	response.write(chunk(model, {}, 'tool_calls'));
	response.write(usageChunk(model));
	response.end('data: [DONE]\n\n');
}

export function json(response: ServerResponse, status: number, value: unknown): void {
	const text = JSON.stringify(value);
	response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close'});
	response.end(text);
}

export function completion(response: ServerResponse, model: string, text: string): void {
	json(response, 200, {
		id: 'chatcmpl-mock', object: 'chat.completion', created: 0, model,
		choices: [{index: 0, message: {role: 'assistant', content: text}, finish_reason: 'stop'}],
		usage,
	});
}
