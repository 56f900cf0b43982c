// A small OpenAI-compatible model server for tests that run the real `hermes`: loopback only,
// started and stopped by each test file. What it answers is scripted by a marker in the request's
// last user message, so a task's prompt alone decides its fate and concurrent tasks never race
// for a shared script:
//   [mock:text=REPLY]     reply REPLY (default: "Hello from mock")
//   [mock:tool=COMMAND]   ask for the `terminal` tool with {"command": COMMAND}; the request that
//                         carries the tool's result is answered "Tool said: <result>"
//   [mock:error500]       HTTP 500 on every completion request ([mock:error400] likewise)
//   [mock:slow]           stream a first chunk, then hold the rest until release() or the client goes
// Every completion request is recorded (path, model, reasoning_effort, Authorization, last user
// message, what it was answered) for assertions; so is a Responses API request (POST …/responses),
// which is answered 404 as only …/chat/completions is served. Probes (GET /v1/models, /api/tags,
// /props, /version, POST /api/show, …) get a fast 404 and are only counted.
import {once} from 'node:events';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import {chunk, completion, json, startStream, streamText, streamToolCall, usageChunk} from './mock-model-wire.js';

export const defaultReply = 'Hello from mock';

export type MockScript =
	| {kind: 'text'; text: string}
	| {kind: 'tool'; command: string}
	| {kind: 'error'; status: 400 | 500}
	| {kind: 'slow'};

export type RecordedRequest = {
	path: string;
	model: string | null;
	stream: boolean;
	/** null when the request carried no `reasoning_effort`. */
	reasoning_effort: string | null;
	authorization: string | null;
	/** The last message with role user, as text. */
	lastUser: string;
	/** True when the last message is a tool result (the second turn of a tool script). */
	toolResult: boolean;
	toolCount: number;
	script: MockScript;
	/** The text answered (null: an error, a tool call, or a reply still held). */
	reply: string | null;
};

export type MockModelServer = {
	/** `http://127.0.0.1:PORT/v1`: the base_url for Hermes's config. */
	baseUrl: string;
	/** `http://127.0.0.1:PORT`, to build other base URLs on the same server (any path prefix works). */
	origin: string;
	/** Completion (and Responses API) requests so far, in arrival order. */
	readonly requests: readonly RecordedRequest[];
	/** Number of GET probes answered 404. */
	readonly probes: number;
	/** Resolves with the first completion request (past or future) that matches. */
	waitForRequest(match: (request: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
	/** Lets every held [mock:slow] reply (and any later one) finish. */
	release(): void;
	close(): Promise<void>;
};

const maxBodyBytes = 16 * 1024 * 1024;
const maxRecorded = 2000;
const slowFirstChunk = 'Thinking slowly';

type Message = {role?: unknown; content?: unknown};

function messageText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content.map(part => (typeof part === 'object' && part !== null && typeof (part as {text?: unknown}).text === 'string' ? (part as {text: string}).text : '')).join('');
	}

	return '';
}

/** The script named by the last `[mock:…]` marker in TEXT; text by default. */
export function scriptFor(text: string): MockScript {
	const markers = [...text.matchAll(/\[mock:([a-z0-9]+)(?:=([^\]]*))?\]/g)];
	const marker = markers.at(-1);
	if (!marker) return {kind: 'text', text: defaultReply};
	const [, name, argument] = marker;
	switch (name) {
		case 'tool': return {kind: 'tool', command: argument ?? 'echo hi'};
		case 'error500': return {kind: 'error', status: 500};
		case 'error400': return {kind: 'error', status: 400};
		case 'slow': return {kind: 'slow'};
		default: return {kind: 'text', text: argument ?? defaultReply};
	}
}

function record(request: IncomingMessage, body: Record<string, unknown>): RecordedRequest {
	const messages = Array.isArray(body['messages']) ? (body['messages'] as Message[]) : [];
	const lastUser = messageText(messages.findLast(message => message.role === 'user')?.content);
	const effort = body['reasoning_effort'];
	return {
		path: (request.url ?? '').split('?')[0] ?? '',
		model: typeof body['model'] === 'string' ? body['model'] : null,
		stream: body['stream'] === true,
		reasoning_effort: typeof effort === 'string' ? effort : null,
		authorization: request.headers.authorization ?? null,
		lastUser,
		toolResult: messages.at(-1)?.role === 'tool',
		toolCount: Array.isArray(body['tools']) ? body['tools'].length : 0,
		script: scriptFor(lastUser),
		reply: null,
	};
}

function lastToolResult(body: Record<string, unknown>): string {
	const messages = Array.isArray(body['messages']) ? (body['messages'] as Message[]) : [];
	return messageText(messages.at(-1)?.content);
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const piece of request) {
		const buffer = piece as Buffer;
		size += buffer.length;
		if (size > maxBodyBytes) return undefined;
		chunks.push(buffer);
	}

	return Buffer.concat(chunks).toString('utf8');
}

export async function startMockModelServer(): Promise<MockModelServer> {
	const requests: RecordedRequest[] = [];
	let probes = 0;
	let released = false;
	const held = new Set<() => void>();
	const waiters = new Set<{match: (request: RecordedRequest) => boolean; resolve: (request: RecordedRequest) => void}>();
	const sockets = new Set<Socket>();

	const keep = (seen: RecordedRequest) => {
		if (requests.length < maxRecorded) requests.push(seen);
		for (const waiter of waiters) {
			if (waiter.match(seen)) {
				waiters.delete(waiter);
				waiter.resolve(seen);
			}
		}
	};

	const answerCompletion = (request: IncomingMessage, response: ServerResponse, body: Record<string, unknown>) => {
		const seen = record(request, body);
		keep(seen);

		const model = seen.model ?? 'mock';
		const {script} = seen;
		if (seen.toolResult) {
			reply(`Tool said: ${lastToolResult(body)}`);
			return;
		}

		switch (script.kind) {
			case 'error':
				json(response, script.status, {error: {message: script.status === 500 ? 'mock internal server error' : 'mock bad request', type: 'mock_error', code: script.status}});
				return;
			case 'tool':
				// A request without tools (e.g. Hermes titling the session) gets text instead.
				if (seen.toolCount > 0 && seen.stream) streamToolCall(response, model, script.command);
				else reply(`Tool run requested: ${script.command}`);
				return;
			case 'slow':
				holdSlowReply(response, seen);
				return;
			case 'text':
				reply(script.text);
		}

		function reply(text: string) {
			seen.reply = text;
			if (seen.stream) streamText(response, model, text);
			else completion(response, model, text);
		}
	};

	const holdSlowReply = (response: ServerResponse, seen: RecordedRequest) => {
		const model = seen.model ?? 'mock';
		const {stream} = seen;
		const finish = () => {
			held.delete(finish);
			if (response.destroyed) return;
			seen.reply = `${slowFirstChunk} and done.`;
			if (stream) {
				response.write(chunk(model, {content: ' and done.'}));
				response.write(chunk(model, {}, 'stop'));
				response.write(usageChunk(model));
				response.end('data: [DONE]\n\n');
			} else {
				completion(response, model, `${slowFirstChunk} and done.`);
			}
		};

		if (stream) {
			startStream(response);
			response.write(chunk(model, {role: 'assistant', content: slowFirstChunk}));
		}

		if (released) {
			finish();
			return;
		}

		held.add(finish);
		response.once('close', () => held.delete(finish));
	};

	const server = createServer((request, response) => {
		if (request.method === 'POST') {
			void readBody(request).then(text => {
				if (text === undefined) {
					json(response, 413, {error: {message: 'mock: request body too large'}});
					return;
				}

				let body: unknown;
				try {
					body = JSON.parse(text);
				} catch {
					json(response, 400, {error: {message: 'mock: body is not JSON'}});
					return;
				}

				if (typeof body !== 'object' || body === null) {
					json(response, 400, {error: {message: 'mock: body is not an object'}});
					return;
				}

				if (/\/chat\/completions$/.test(request.url?.split('?')[0] ?? '')) {
					answerCompletion(request, response, body as Record<string, unknown>);
					return;
				}

				// The Responses API (POST …/responses): recorded, so a test sees who tried it, then refused.
				if (/\/responses$/.test(request.url?.split('?')[0] ?? '')) keep(record(request, body as Record<string, unknown>));
				else probes++;
				json(response, 404, {error: {message: 'mock: only /chat/completions is served'}});
			}, () => response.destroy());
			return;
		}

		probes++;
		request.resume();
		json(response, 404, {error: {message: 'mock: not found'}});
	});
	server.on('connection', socket => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	server.maxConnections = 64;
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const {port} = server.address() as AddressInfo;
	const origin = `http://127.0.0.1:${port}`;

	return {
		baseUrl: `${origin}/v1`,
		origin,
		requests,
		get probes() {
			return probes;
		},
		async waitForRequest(match, timeoutMs = 60_000) {
			const earlier = requests.find(match);
			if (earlier) return earlier;
			return new Promise((resolve, reject) => {
				const waiter = {
					match,
					resolve(request: RecordedRequest) {
						clearTimeout(timer);
						resolve(request);
					},
				};
				const timer = setTimeout(() => {
					waiters.delete(waiter);
					reject(new Error(`mock model server: no matching request within ${timeoutMs} ms; saw ${requests.length}: ${JSON.stringify(requests.map(seen => seen.lastUser.slice(0, 80)))}`));
				}, timeoutMs);
				waiters.add(waiter);
			});
		},
		release() {
			released = true;
			for (const finish of [...held]) finish();
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			server.close();
			await once(server, 'close');
		},
	};
}
