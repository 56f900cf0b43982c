// The recorded-answers mode (env FAKE_HERMES_SCRIPT=PATH): the fake is told, in order, what a model
// server answered to each chat request, instead of being steered by `[fake:…]` directives. The
// contract tests (test/contract/) write one from a recorded case's `mock.answers`, so the fake can
// be held against what the real Hermes printed for the same answers. The fake never contacts the
// network: an answer here stands for the whole HTTP exchange.
//
// {"answers": [ANSWER, …], "init_s"?: N, "events"?: PATH}, an ANSWER being one of
//   {"reply": TEXT, "delay_s"?: N, "usage"?: {"prompt_tokens": N, "completion_tokens": N}}
//                                       the streamed reply (delay_s: the server waits that long first;
//                                       usage: the usage chunk the server sent with it, none if absent)
//   {"tool_call": NAME, "command": CMD} a tool call (`terminal` runs CMD with bash in its own session)
//   {"status": CODE, "message": TEXT}   an HTTP error with the error body's message
//   {"connection": "refused"}           nothing listens at the endpoint
// TEXT may hold `{model}` and `{port}`: the fake fills in the model and the endpoint's port it
// resolved from the command line and config.yaml, as the recorded mock echoed what it received.
// A request beyond the last answer gets the reply `MOCK REPLY from model={model} port={port}`.
// `init_s` keeps the fake that long in agent start-up (signal handlers set, no request yet);
// `events` is a file the fake appends one JSON line to per phase reached (init, request, tool),
// so a test can send a signal in the same phase the recorder did, without guessing a time.
import {readFileSync} from 'node:fs';

export type Answer =
	| {kind: 'reply'; text: string; delayS: number; usage?: Usage}
	| {kind: 'tool_call'; name: string; command: string}
	| {kind: 'status'; status: number; message: string}
	| {kind: 'refused'};

/** What a model server reported a call used (its `usage` chunk). */
export type Usage = {input: number; output: number};

export type Script = {answers: Answer[]; initS: number; eventsFile?: string};

export const defaultReply = 'MOCK REPLY from model={model} port={port}';

function fail(file: string, field: string, fix: string): never {
	throw new ScriptError(`fake hermes: ${file}: ${field}: ${fix}`);
}

export class ScriptError extends Error {}

function readAnswer(raw: unknown, file: string, index: number): Answer {
	const field = `answers[${index}]`;
	if (raw === null || typeof raw !== 'object') fail(file, field, 'must be an object ({"reply": …}, {"tool_call": …, "command": …}, {"status": …} or {"connection": "refused"})');
	const entry = raw as Record<string, unknown>;
	const nonNegative = (key: string) => {
		const value = entry[key] ?? 0;
		if (typeof value !== 'number' || !(value >= 0)) fail(file, `${field}.${key}`, 'must be a number of seconds, 0 or more');
		return value;
	};

	if (typeof entry['reply'] === 'string') {
		const usage = entry['usage'];
		if (usage === undefined) return {kind: 'reply', text: entry['reply'], delayS: nonNegative('delay_s')};
		const tokens = (key: string) => {
			const value = (usage as Record<string, unknown> | null)?.[key];
			if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(file, `${field}.usage.${key}`, 'must be a whole number of tokens, 0 or more');
			return value;
		};
		return {kind: 'reply', text: entry['reply'], delayS: nonNegative('delay_s'), usage: {input: tokens('prompt_tokens'), output: tokens('completion_tokens')}};
	}
	if (typeof entry['tool_call'] === 'string') {
		if (typeof entry['command'] !== 'string') fail(file, `${field}.command`, 'a tool call needs its command as a string');
		return {kind: 'tool_call', name: entry['tool_call'], command: entry['command']};
	}

	if (typeof entry['status'] === 'number') {
		if (!Number.isInteger(entry['status']) || entry['status'] < 400 || entry['status'] > 599) fail(file, `${field}.status`, 'must be an HTTP error status (400-599)');
		return {kind: 'status', status: entry['status'], message: typeof entry['message'] === 'string' ? entry['message'] : 'error'};
	}

	if (entry['connection'] === 'refused') return {kind: 'refused'};
	return fail(file, field, 'needs one of "reply", "tool_call", "status" or "connection": "refused"');
}

export function readScript(file: string): Script {
	let raw: unknown;
	try {
		raw = JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		fail(file, '(file)', `cannot be read as JSON (${error instanceof Error ? error.message : String(error)}); write {"answers": […]}`);
	}

	if (raw === null || typeof raw !== 'object' || !Array.isArray((raw as {answers?: unknown}).answers)) fail(file, 'answers', 'must be a list of answers');
	const script = raw as {answers: unknown[]; init_s?: unknown; events?: unknown};
	const initS = script.init_s ?? 0;
	if (typeof initS !== 'number' || !(initS >= 0)) fail(file, 'init_s', 'must be a number of seconds, 0 or more');
	if (script.events !== undefined && typeof script.events !== 'string') fail(file, 'events', 'must be a file path');
	return {
		answers: script.answers.map((answer, index) => readAnswer(answer, file, index)),
		initS,
		...(typeof script.events === 'string' ? {eventsFile: script.events} : {}),
	};
}

/** Fills `{model}` and `{port}` as the recorded mock did from the request it received. */
export function fillReply(text: string, model: string, port: string): string {
	return text.replaceAll('{model}', model).replaceAll('{port}', port);
}
