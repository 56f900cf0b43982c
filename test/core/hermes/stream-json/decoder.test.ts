// The decoder stands between Hermes's stdout and a task's pane and results: whatever the pipe's
// chunking, the pane must show the same thing and the results must say the same thing.
import {describe, expect, it} from 'vitest';
import {StreamJsonDecoder} from '../../../../src/core/hermes/stream-json/decoder.js';
import type {TaskTelemetry} from '../../../../src/core/types.js';

// As Python's json.dumps writes it (", " and ": ", non-ASCII as is), with Hermes's timestamps.
function pythonJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((item) => pythonJson(item)).join(', ')}]`;
	if (value === null || typeof value !== 'object') return JSON.stringify(value);
	return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(', ')}}`;
}

const event = (fields: Record<string, unknown>) => `${pythonJson({...fields, timestamp: 1_796_069_485_032})}\n`;

const session = [
	event({type: 'system', subtype: 'init', model: 'google/gemini-3-flash-preview', session_id: '20261130_201125_fc4d23'}),
	event({type: 'text', text: 'Let me look. '}),
	event({type: 'tool_use', name: 'web_search', tool_call_id: 'call_1', input: {query: 'capital of France 日本語'}}),
	event({type: 'tool_use', name: 'terminal', tool_call_id: 'call_2', input: {command: 'echo hi'}}),
	event({type: 'tool_result', name: 'terminal', tool_call_id: 'call_2', output: '{"output": "hi", "exit_code": 0}', duration_ms: 812, is_error: false}),
	event({type: 'tool_result', name: 'web_search', tool_call_id: 'call_1', output: 'rate limited\nretry later', duration_ms: 1500, is_error: true}),
	event({type: 'text', text: 'Paris is the capital '}),
	event({type: 'text', text: 'of France 🇫🇷.\nÉté: yes.'}),
	event({type: 'result', session_id: '20261130_201125_fc4d23', exit_code: 0, text: 'Paris is the capital of France 🇫🇷.\nÉté: yes.', tokens: {input: 1923, output: 86, total: 2009, cache_read: 10, cache_write: 0}, duration_ms: 2035}),
].join('');

const expectedDisplay = [
	'configured model google/gemini-3-flash-preview · session 20261130_201125_fc4d23',
	'Let me look. ',
	'⚙ web_search {"query":"capital of France 日本語"}',
	'⚙ terminal {"command":"echo hi"}',
	'  ↳ terminal 0.8s',
	'  ✗ web_search 1.5s: rate limited',
	'Paris is the capital of France 🇫🇷.',
	'Été: yes.',
].join('\n');

function decode(chunks: readonly Buffer[], onTelemetry?: (telemetry: TaskTelemetry) => void) {
	const decoder = new StreamJsonDecoder(onTelemetry ? {onTelemetry} : {});
	const shown = [...chunks.map((chunk) => decoder.push(chunk)), decoder.end()];
	return {display: Buffer.concat(shown).toString('utf8'), shown, summary: decoder.summary()};
}

const whole = (text: string) => decode([Buffer.from(text, 'utf8')]);

describe('StreamJsonDecoder', () => {
	it('shows a session as the reply streaming in, one line per tool call and result', () => {
		const {display, summary} = whole(session);

		expect(display).toBe(expectedDisplay);
		expect(summary).toEqual({
			configuredModel: 'google/gemini-3-flash-preview',
			sessionId: '20261130_201125_fc4d23',
			answer: {text: 'Paris is the capital of France 🇫🇷.\nÉté: yes.', truncated: false},
			result: {exitCode: 0, error: null, durationMs: 2035},
			tokens: {input: 1923, output: 86, total: 2009, cache_read: 10, cache_write: 0},
			costUsd: null,
			toolCalls: [
				{name: 'web_search', id: 'call_1', input: '{"query":"capital of France 日本語"}', duration_ms: 1500, is_error: true},
				{name: 'terminal', id: 'call_2', input: '{"command":"echo hi"}', duration_ms: 812, is_error: false},
			],
			plainLines: 0,
			plainText: '',
		});
	});

	it('gives the same display and summary however stdout is cut, even inside a UTF-8 character', () => {
		const bytes = Buffer.from(session, 'utf8');
		const reference = whole(session);
		for (let at = 0; at <= bytes.length; at++) {
			const split = decode([bytes.subarray(0, at), bytes.subarray(at)]);
			expect(split.display, `cut at byte ${at}`).toBe(reference.display);
			expect(split.summary, `cut at byte ${at}`).toEqual(reference.summary);
		}

		const byteByByte = decode([...bytes].map((byte) => Buffer.from([byte])));
		expect(byteByByte.display).toBe(reference.display);
		expect(byteByByte.summary).toEqual(reference.summary);
	});

	it('pairs results with their calls by id in any order, else with the oldest open call of that name', () => {
		const {summary, display} = whole(
			[
				event({type: 'tool_use', name: 'read_file', tool_call_id: 'a', input: {path: 'a'}}),
				event({type: 'tool_use', name: 'read_file', tool_call_id: 'b', input: {path: 'b'}}),
				event({type: 'tool_result', name: 'read_file', tool_call_id: 'b', output: '', duration_ms: 200, is_error: false}),
				event({type: 'tool_use', name: 'terminal', input: {command: 'one'}}),
				event({type: 'tool_use', name: 'terminal', input: {command: 'two'}}),
				event({type: 'tool_result', name: 'terminal', output: '', duration_ms: 100, is_error: false}),
				event({type: 'tool_result', name: 'read_file', tool_call_id: 'a', output: '', duration_ms: 300, is_error: false}),
				// A result ahead of its call is one call, not two.
				event({type: 'tool_result', name: 'patch', tool_call_id: 'c', output: 'no such file', duration_ms: 50, is_error: true}),
				event({type: 'tool_use', name: 'patch', tool_call_id: 'c', input: {path: 'c'}}),
			].join(''),
		);

		expect(summary.toolCalls).toEqual([
			{name: 'read_file', id: 'a', input: '{"path":"a"}', duration_ms: 300, is_error: false},
			{name: 'read_file', id: 'b', input: '{"path":"b"}', duration_ms: 200, is_error: false},
			{name: 'terminal', id: null, input: '{"command":"one"}', duration_ms: 100, is_error: false, ambiguous: true},
			{name: 'terminal', id: null, input: '{"command":"two"}', duration_ms: null, is_error: null, ambiguous: true},
			{name: 'patch', id: 'c', input: '{"path":"c"}', duration_ms: 50, is_error: true},
		]);
		expect(display.split('\n')).toContain('  ✗ patch 0.1s: no such file');
	});

	it('keeps a line that is not an event as plain output, on a line of its own', () => {
		const {display, summary} = whole(
			[
				event({type: 'text', text: 'Half a line'}),
				'  ⚠ a warning line that is not an event\n',
				event({type: 'text', text: ' and the rest.\n'}),
				'READY\n',
			].join(''),
		);

		expect(display).toBe('Half a line\n  ⚠ a warning line that is not an event\n and the rest.\nREADY\n');
		expect(summary.plainLines).toBe(2);
		expect(summary.answer).toEqual({text: 'Half a line and the rest.\n', truncated: false});
	});

	it('shows garbage and JSON that is no event as it came, and skips event types it does not know', () => {
		const garbage = ['{"type": "text", "text": "unterminated', '[1, 2, 3]', '"just a string"', '{"no_type": true}', '{"type": 7}', '{not json at all}', ''];
		const {display, summary} = whole(`${garbage.join('\n')}\n${event({type: 'thinking', text: 'hmm'})}${event({type: 'system', subtype: 'compaction'})}`);

		expect(display).toBe(`${garbage.join('\n')}\n`);
		expect(summary.plainLines).toBe(garbage.length);
		expect(summary.answer.text).toBe('');
	});

	it('passes a 3 MiB line through in pieces instead of holding it, and decodes what follows', () => {
		const line = 'é'.repeat(3 * 512 * 1024); // 3 MiB of two-byte characters
		const bytes = Buffer.from(`${event({type: 'text', text: 'before'})}${line}\n${event({type: 'text', text: 'after'})}`, 'utf8');
		const decoder = new StreamJsonDecoder();
		const shown: Buffer[] = [];
		let shownBytes = 0;
		for (let at = 0; at < bytes.length; at += 65_537) {
			const piece = decoder.push(bytes.subarray(at, at + 65_537));
			// Each piece stands alone as UTF-8: a character is never split between two of them.
			expect(Buffer.from(piece.toString('utf8'), 'utf8').equals(piece)).toBe(true);
			shown.push(piece);
			shownBytes += piece.length;
			// Never more than the limit (plus the last chunk) held back.
			expect(Math.min(at + 65_537, bytes.length) - shownBytes).toBeLessThan(1024 * 1024 + 2 * 65_537);
		}

		shown.push(decoder.end());
		expect(Buffer.concat(shown).toString('utf8')).toBe(`before\n${line}\nafter`);
		expect(decoder.summary().plainLines).toBe(1);
		expect(decoder.summary().answer.text).toBe('beforeafter');
	});

	it('reports a failed run: its error shown, its exit code and error in the summary', () => {
		const {display, summary} = whole(
			[
				event({type: 'system', subtype: 'init', model: 'm1', session_id: 's1'}),
				event({type: 'result', session_id: 's1', exit_code: 1, text: 'API call failed after 3 retries: HTTP 429: rate limited', tokens: {input: 10, output: 0, total: 10, cache_read: 0, cache_write: 0}, duration_ms: 11_000, error: 'HTTP 429: rate limited'}),
			].join(''),
		);

		expect(display).toBe('configured model m1 · session s1\n✗ HTTP 429: rate limited\n');
		expect(summary.result).toEqual({exitCode: 1, error: 'HTTP 429: rate limited', durationMs: 11_000});
		expect(summary.answer.text).toBe('API call failed after 3 retries: HTTP 429: rate limited');
	});

	it('pairs results by tool_call_id when Hermes sends one, whatever their order', () => {
		const {summary} = whole([
			event({type: 'tool_use', name: 'terminal', tool_call_id: 'a', input: {command: 'sleep 5'}}),
			event({type: 'tool_use', name: 'terminal', tool_call_id: 'b', input: {command: 'true'}}),
			event({type: 'tool_result', name: 'terminal', tool_call_id: 'b', output: '', duration_ms: 10, is_error: false}),
			event({type: 'tool_result', name: 'terminal', tool_call_id: 'a', output: 'boom', duration_ms: 5000, is_error: true}),
		].join(''));
		expect(summary.toolCalls).toEqual([
			{name: 'terminal', id: 'a', input: '{"command":"sleep 5"}', duration_ms: 5000, is_error: true},
			{name: 'terminal', id: 'b', input: '{"command":"true"}', duration_ms: 10, is_error: false},
		]);
	});

	it('without tool_call_id (every stored Hermes) pairs by name in order, and marks calls of one tool that overlapped', () => {
		const {summary} = whole([
			event({type: 'tool_use', name: 'read_file', input: {path: 'a'}}),
			event({type: 'tool_result', name: 'read_file', output: 'x', duration_ms: 3, is_error: false}),
			event({type: 'tool_use', name: 'terminal', input: {command: 'sleep 5'}}),
			event({type: 'tool_use', name: 'terminal', input: {command: 'true'}}),
			event({type: 'tool_use', name: 'web_search', input: {query: 'q'}}),
			event({type: 'tool_result', name: 'web_search', output: 'ok', duration_ms: 7, is_error: false}),
			event({type: 'tool_result', name: 'terminal', output: '', duration_ms: 10, is_error: false}),
			event({type: 'tool_result', name: 'terminal', output: 'boom', duration_ms: 5000, is_error: true}),
		].join(''));
		expect(summary.toolCalls).toEqual([
			{name: 'read_file', id: null, input: '{"path":"a"}', duration_ms: 3, is_error: false},
			// Arrival order says the first terminal call took 10 ms: a guess, so both say so.
			{name: 'terminal', id: null, input: '{"command":"sleep 5"}', duration_ms: 10, is_error: false, ambiguous: true},
			{name: 'terminal', id: null, input: '{"command":"true"}', duration_ms: 5000, is_error: true, ambiguous: true},
			{name: 'web_search', id: null, input: '{"query":"q"}', duration_ms: 7, is_error: false},
		]);
	});

	describe('a final result line longer than the 1 MiB line limit (a long answer)', () => {
		const inPieces = (text: string) => {
			const bytes = Buffer.from(text, 'utf8');
			const pieces: Buffer[] = [];
			for (let at = 0; at < bytes.length; at += 65_536) pieces.push(bytes.subarray(at, at + 65_536));
			return decode(pieces);
		};

		const tokens = {input: 52_000, output: 260_000, total: 312_000, cache_read: 0, cache_write: 0};

		it('is read whole: the answer exactly, its tokens, and none of its JSON in the pane', () => {
			// Under 1 MiB of answer, over 1 MiB of JSON: quotes and newlines are escaped.
			const answer = 'Él dijo "sí"\n'.repeat(60_000);
			expect(Buffer.byteLength(answer)).toBeLessThan(1024 * 1024);
			const line = event({type: 'result', session_id: 's1', exit_code: 0, text: answer, tokens, duration_ms: 90_000});
			expect(Buffer.byteLength(line)).toBeGreaterThan(1024 * 1024);
			const {display, summary} = inPieces(`${event({type: 'text', text: 'Interim commentary. '})}${line}`);
			expect(summary.answer).toEqual({text: answer, truncated: false});
			expect(summary.tokens).toEqual(tokens);
			expect(summary.result).toEqual({exitCode: 0, error: null, durationMs: 90_000});
			expect(display).toBe('Interim commentary. ');
		});

		it('an answer over the answer limit is cut and says so, with the tokens kept', () => {
			const answer = 'x'.repeat(1536 * 1024);
			const {summary} = inPieces(event({type: 'result', session_id: 's1', exit_code: 0, text: answer, tokens, duration_ms: 5}));
			expect(summary.answer.truncated).toBe(true);
			expect(summary.answer.text).toBe('x'.repeat(1024 * 1024));
			expect(summary.tokens).toEqual(tokens);
		});

		it('one longer than the result limit is read from its two ends: the answer\'s start (cut), session, exit code, tokens and error', () => {
			const answer = `"quoted" ${'ü\\'.repeat(2 * 1024 * 1024)}`;
			const line = event({type: 'result', session_id: 's9', exit_code: 1, text: answer, tokens, duration_ms: 7, error: 'budget "spent", "tokens": {} said'});
			expect(Buffer.byteLength(line)).toBeGreaterThan(4 * 1024 * 1024);
			const {display, summary} = inPieces(line);
			expect(summary.answer.truncated).toBe(true);
			expect(Buffer.byteLength(summary.answer.text)).toBeLessThanOrEqual(1024 * 1024);
			expect(answer.startsWith(summary.answer.text)).toBe(true);
			expect(summary.answer.text.length).toBeGreaterThan(300_000);
			expect(summary.sessionId).toBe('s9');
			expect(summary.tokens).toEqual(tokens);
			expect(summary.result).toEqual({exitCode: 1, error: 'budget "spent", "tokens": {} said', durationMs: 7});
			expect(display).toBe('✗ budget "spent", "tokens": {} said\n');
		});
	});

	it('takes all-zero tokens (what Hermes writes for an interrupted or failed run) as unknown, not as 0', () => {
		const interrupted = whole(event({type: 'result', session_id: 's1', exit_code: 130, text: '', tokens: {input: 0, output: 0, total: 0, cache_read: 0, cache_write: 0}, duration_ms: 4000, error: 'Interrupted'}));
		expect(interrupted.summary.result?.exitCode).toBe(130);
		expect(interrupted.summary.tokens).toBeNull();
	});

	it('keeps the last lines that are not events: a start-up failure printed as plain text', () => {
		const {summary} = whole(`${event({type: 'system', subtype: 'init', model: '', session_id: ''})}Hermes isn't configured yet.\r\nRun 'hermes setup' first.\n`);
		expect(summary.result).toBeNull();
		expect(summary.plainText).toBe("Hermes isn't configured yet.\nRun 'hermes setup' first.");
	});

	it('counts missing token fields as 0, a missing tokens object as unknown, a missing result as none', () => {
		expect(whole(event({type: 'result', exit_code: 0, text: 'ok', tokens: {input: 5, output: 'many'}})).summary.tokens).toEqual({input: 5, output: 0, total: 0, cache_read: 0, cache_write: 0});
		expect(whole(event({type: 'result', exit_code: 0, text: 'ok'})).summary.tokens).toBeNull();

		const cut = whole(`${event({type: 'system', subtype: 'init', model: 'm1', session_id: 's1'})}${event({type: 'text', text: 'partial'})}`);
		expect(cut.summary.result).toBeNull();
		expect(cut.summary.tokens).toBeNull();
		expect(cut.summary.answer).toEqual({text: 'partial', truncated: false});
	});

	it('reads a cost when the result carries one', () => {
		expect(whole(event({type: 'result', exit_code: 0, text: '', estimated_cost_usd: 0.0123})).summary.costUsd).toBe(0.0123);
		expect(whole(event({type: 'result', exit_code: 0, text: '', cost_usd: 0.5, estimated_cost_usd: 0.1})).summary.costUsd).toBe(0.5);
	});

	it('keeps the first MiB of a longer answer and says it was cut', () => {
		const delta = 'ü'.repeat(100_000); // 200,000 bytes each
		const {summary} = whole(Array.from({length: 6}, () => event({type: 'text', text: delta})).join(''));

		expect(summary.answer.truncated).toBe(true);
		expect(Buffer.byteLength(summary.answer.text)).toBe(1024 * 1024);
		expect(summary.answer.text).toMatch(/^ü+$/);
	});

	it('shows a long tool input cut, on a fresh line, and a JSON string only as its own characters', () => {
		const {display} = whole(
			[
				event({type: 'text', text: 'Working\u001B[2J'}),
				event({type: 'tool_use', name: 'write_file', tool_call_id: 'w', input: {path: 'notes.md', content: 'line\n'.repeat(100)}}),
			].join(''),
		);
		const lines = display.split('\n');

		expect(lines[0]).toBe('Working\u001B[2J');
		expect(lines[1]).toMatch(/^⚙ write_file \{"path":"notes.md","content":"line\\nline\\n.*…$/);
		expect([...lines[1]!.slice('⚙ write_file '.length)]).toHaveLength(120);
		expect(lines).toHaveLength(3);
	});

	it('flushes an unterminated last line at the end', () => {
		expect(whole('{"type": "text", "text": "no newline"}').display).toBe('no newline');
		expect(whole('plain tail').display).toBe('plain tail');
		expect(whole('plain tail').summary.plainLines).toBe(1);
	});

	it('tells its listener about the model, each tool call and the final tokens', () => {
		const seen: TaskTelemetry[] = [];
		decode([Buffer.from(session)], (telemetry) => seen.push(telemetry));

		expect(seen.map((telemetry) => telemetry.tool_calls)).toEqual([0, 1, 2, 2, 2, 2]);
		// init's model is the configured one, read before start-up: never reported as the model used.
		expect(seen[0]).toEqual({model_used: null, configured_model: 'google/gemini-3-flash-preview', session_id: '20261130_201125_fc4d23', tokens: null, cost_usd: null, tool_calls: 0});
		expect(seen.at(-1)!.tokens).toEqual({input: 1923, output: 86, total: 2009, cache_read: 10, cache_write: 0});
	});
});
