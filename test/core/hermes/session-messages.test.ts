// A session's messages rows as pane lines and tool-call records: calls shown when the
// model asks, results paired by tool_call_id whatever order the rows come in, parallel calls of
// one tool kept apart, interim text shown and the answer not twice, and hostile rows bounded.
import {describe, expect, it} from 'vitest';
import {SessionMessages} from '../../../src/core/hermes/session-messages.js';
import type {MessageRow} from '../../../src/core/hermes/state-db/messages.js';

let nextId = 1;
function row(values: Partial<MessageRow> & {role: string}): MessageRow {
	return {id: nextId++, content: null, contentCut: false, tool_call_id: null, tool_calls: null, toolCallsCut: false, tool_name: null, timestamp: 1000, finish_reason: null, ...values};
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({id, type: 'function', function: {name, arguments: JSON.stringify(args)}});
const asks = (calls: unknown[], at: number, content: string | null = null) => row({role: 'assistant', tool_calls: JSON.stringify(calls), finish_reason: 'tool_calls', timestamp: at, content});
const returns = (id: string, name: string, at: number, result: Record<string, unknown>) => row({role: 'tool', tool_call_id: id, tool_name: name, content: JSON.stringify(result), timestamp: at});

describe('session messages as live lines', () => {
	it('shows the call when the model asks and its result when the tool returns, with the duration from the rows', () => {
		const messages = new SessionMessages();
		expect(messages.add([row({role: 'user', content: 'the prompt', timestamp: 999})])).toEqual([]);
		expect(messages.add([asks([call('c1', 'terminal', {command: 'sleep 300'})], 1000)])).toEqual(['⚙ terminal {"command":"sleep 300"}']);
		expect(messages.toolCalls()).toEqual([{name: 'terminal', id: 'c1', input: '{"command":"sleep 300"}', duration_ms: null, is_error: null}]);
		expect(messages.add([returns('c1', 'terminal', 1004.2, {output: 'done', exit_code: 0, error: null})])).toEqual(['  ↳ terminal 4.2s']);
		// The answer is printed on stdout by Hermes: not shown a second time.
		expect(messages.add([row({role: 'assistant', content: 'The answer.', finish_reason: 'stop', timestamp: 1005})])).toEqual([]);
		expect(messages.toolCalls()).toEqual([{name: 'terminal', id: 'c1', input: '{"command":"sleep 300"}', duration_ms: 4200, is_error: false}]);
		expect(messages.callCount).toBe(1);
	});

	it('shows a failed tool with its error, and a non-zero exit', () => {
		const messages = new SessionMessages();
		messages.add([asks([call('c1', 'read_file', {path: 'x'}), call('c2', 'terminal', {command: 'false'})], 10)]);
		expect(messages.add([
			returns('c1', 'read_file', 10.5, {output: '', exit_code: null, error: 'no such file: x\nmore detail'}),
			returns('c2', 'terminal', 11, {output: '', exit_code: 1, error: null}),
		])).toEqual(['  ✗ read_file 0.5s: no such file: x', '  ↳ terminal 1.0s [exit 1]']);
		expect(messages.toolCalls().map(record => record.is_error)).toEqual([true, false]);
	});

	it('pairs two parallel calls of one tool by id, whichever ends first', () => {
		const messages = new SessionMessages();
		messages.add([asks([call('a', 'terminal', {command: 'sleep 5'}), call('b', 'terminal', {command: 'sleep 1'})], 100)]);
		expect(messages.add([returns('b', 'terminal', 101, {output: '', exit_code: 0, error: null})])).toEqual(['  ↳ terminal 1.0s']);
		expect(messages.add([returns('a', 'terminal', 105, {output: '', exit_code: 0, error: 'killed'})])).toEqual(['  ✗ terminal 5.0s: killed']);
		expect(messages.toolCalls()).toEqual([
			{name: 'terminal', id: 'a', input: '{"command":"sleep 5"}', duration_ms: 5000, is_error: true},
			{name: 'terminal', id: 'b', input: '{"command":"sleep 1"}', duration_ms: 1000, is_error: false},
		]);
	});

	it('a tool row before its call row: in one read the call is shown first; across reads both show and the record is whole', () => {
		const together = new SessionMessages();
		const result = returns('c1', 'terminal', 7, {output: '', exit_code: 0, error: null});
		const asked = asks([call('c1', 'terminal', {command: 'ls'})], 5);
		expect(together.add([result, asked])).toEqual(['⚙ terminal {"command":"ls"}', '  ↳ terminal 2.0s']);

		const apart = new SessionMessages();
		expect(apart.add([returns('c2', 'terminal', 7, {output: '', exit_code: 0, error: 'boom'})])).toEqual(['  ✗ terminal: boom']);
		expect(apart.add([asks([call('c2', 'terminal', {command: 'ls'})], 5)])).toEqual(['⚙ terminal {"command":"ls"}']);
		expect(apart.toolCalls()).toEqual([{name: 'terminal', id: 'c2', input: '{"command":"ls"}', duration_ms: 2000, is_error: true}]);
		expect(apart.callCount).toBe(1);
	});

	it('shows interim text, skips rows already handled, and remembers the last id', () => {
		const messages = new SessionMessages();
		const first = asks([call('c1', 'web_search', {query: 'q'})], 1, 'Let me look that up.\n\n');
		expect(messages.add([first])).toEqual(['Let me look that up.', '⚙ web_search {"query":"q"}']);
		expect(messages.add([first])).toEqual([]);
		expect(messages.lastId).toBe(first.id);
	});

	it('bounds what hostile rows can make it show and keep', () => {
		const messages = new SessionMessages();
		const lines = messages.add([
			row({role: 'assistant', content: `${'x'.repeat(10_000)}\n${'line\n'.repeat(500)}`, finish_reason: 'length'}),
			asks([call('c1', 'write_file', {content: 'y'.repeat(5000)})], 1),
			row({role: 'assistant', tool_calls: 'not json', finish_reason: 'tool_calls'}),
			row({role: 'assistant', tool_calls: '[{"id": "c9", "function": {"name": "t", "argum', toolCallsCut: true, finish_reason: 'tool_calls'}),
			row({role: 'tool', tool_call_id: null, tool_name: null, content: 'not json either'}),
		]);
		expect(lines.every(line => line.length <= 500)).toBe(true);
		expect(lines.length).toBeLessThan(50);
		expect(lines).toContain('… (461 more lines)');
		expect(lines).toContain('⚙ (tool calls that cannot be read) not a JSON list');
		expect(lines).toContain('⚙ (tool calls that cannot be read) longer than hermes-delegate reads');
		expect(lines.at(-1)).toBe('  ↳ unknown');
		expect(messages.toolCalls()[0]!.input!.length).toBeLessThanOrEqual(400);
	});
});
