import {describe, expect, it} from 'vitest';
import {interpretHermesOutput, sessionIdOf, stderrMessage} from '../../../src/core/hermes/output.js';

// The shapes below are what the real Hermes printed (docs/hermes-releases.md).
const quietSuccess = {mode: 'quiet' as const, exitCode: 0, stdout: {text: 'Hello from mock', truncated: false}, stderr: '\nsession_id: 20261130_101010_abcd\n'};

describe('interpretHermesOutput in -Q mode', () => {
	it('takes stdout verbatim as the answer and the session id from stderr', () => {
		const outcome = interpretHermesOutput(quietSuccess);
		expect(outcome).toMatchObject({answer: 'Hello from mock', error: undefined, sessionId: '20261130_101010_abcd'});
	});

	it('a failure (exit 1) carries Hermes\'s message from stdout as the error, not the session line', () => {
		const outcome = interpretHermesOutput({...quietSuccess, exitCode: 1, stdout: {text: 'API call failed after 3 retries: HTTP 500: mock internal server error', truncated: false}});
		expect(outcome.answer).toBe('');
		expect(outcome.error).toBe('API call failed after 3 retries: HTTP 500: mock internal server error');
		expect(outcome.sessionId).toBe('20261130_101010_abcd');
	});

	it('a failure that printed nothing on stdout falls back to stderr without the session line', () => {
		const outcome = interpretHermesOutput({...quietSuccess, exitCode: 2, stdout: {text: '', truncated: false}, stderr: 'usage: hermes ...\nhermes: error: unrecognized arguments: --reasoning high\n'});
		expect(outcome.error).toMatch(/unrecognized arguments: --reasoning high/);
	});
});

describe('the error of a failed -Q run', () => {
	it('is stderr\'s last line when stdout holds only progress text and stderr the failure', () => {
		const stderr = 'Traceback (most recent call last):\n  File "cli.py", line 9, in run\nRuntimeError: the terminal tool refused: sandbox is read-only\n\nsession_id: 20261130_101010_abcd\n';
		const outcome = interpretHermesOutput({...quietSuccess, exitCode: 1, stdout: {text: '⚠️  Reached maximum iterations (1). Requesting summary...', truncated: false}, stderr});
		expect(outcome.error).toBe('RuntimeError: the terminal tool refused: sandbox is read-only');
	});

	it('is stdout\'s message, without Rich\'s carriage returns, when stderr has only the session line', () => {
		const outcome = interpretHermesOutput({...quietSuccess, exitCode: 1, stdout: {text: "Unknown provider 'x'. Check 'hermes model' for available providers, or run \r\n'hermes doctor' to diagnose config issues.\r", truncated: false}});
		expect(outcome.error).toBe("Unknown provider 'x'. Check 'hermes model' for available providers, or run\n'hermes doctor' to diagnose config issues.");
	});
});

describe('interpretHermesOutput in stream-json mode', () => {
	const stream = {
		configuredModel: 'm1', sessionId: 's1', answer: {text: 'The answer.', truncated: false},
		result: {exitCode: 0, error: null, durationMs: 10}, tokens: {input: 10, output: 3, total: 13, cache_read: 0, cache_write: 0},
		costUsd: null, toolCalls: [{name: 'terminal', id: 'c1', input: '{"command":"ls"}', duration_ms: 5, is_error: false}], plainLines: 0, plainText: '',
	};

	it('takes the answer, model, tokens and tool calls from the stream', () => {
		const outcome = interpretHermesOutput({mode: 'stream-json', exitCode: 0, stdout: {text: '{"type":"result"}', truncated: false}, stderr: '', stream});
		expect(outcome).toMatchObject({answer: 'The answer.', configuredModel: 'm1', sessionId: 's1', tokens: {total: 13}, notes: []});
		expect(outcome.toolCalls).toHaveLength(1);
	});

	it('a run that failed before any result event has its message from stdout\'s plain lines', () => {
		const plain = {...stream, answer: {text: '', truncated: false}, result: null, tokens: null, toolCalls: [], plainLines: 2, plainText: "Hermes isn't configured yet.\nRun 'hermes setup' first."};
		const outcome = interpretHermesOutput({mode: 'stream-json', exitCode: 1, stdout: {text: '', truncated: false}, stderr: '', stream: plain});
		expect(outcome.error).toBe("Hermes isn't configured yet.\nRun 'hermes setup' first.");
		expect(outcome.tokens).toBeNull();
	});

	it('a failed run reports the result event\'s error', () => {
		const outcome = interpretHermesOutput({mode: 'stream-json', exitCode: 1, stdout: {text: '', truncated: false}, stderr: '\nsession_id: s1\n', stream: {...stream, result: {exitCode: 1, error: 'HTTP 400: bad request', durationMs: 5}}});
		expect(outcome).toMatchObject({answer: '', error: 'HTTP 400: bad request'});
	});

	it('says so when the stream ended without its result event', () => {
		const outcome = interpretHermesOutput({mode: 'stream-json', exitCode: 0, stdout: {text: '', truncated: false}, stderr: '', stream: {...stream, result: null}});
		expect(outcome.notes.join('\n')).toMatch(/without its final stream-json `result` event/);
	});
});

describe('session lines', () => {
	it('finds the last session id and removes it from the error text', () => {
		expect(sessionIdOf('x\nsession_id: a\nsession_id: b\n')).toBe('b');
		expect(stderrMessage('\nsession_id: b\n')).toBe('');
	});
});

describe('stderr that is not only the session line (Hermes 0.21)', () => {
	const fallback = "[HERMES_HOME fallback] HERMES_HOME is unset but active profile is 'coder'";
	const configWarning = 'Warning: /h/config.yaml could not be read (duplicate key); it is not used for this run';

	it('reads the session id from its own line among warnings', () => {
		expect(sessionIdOf(`${fallback}\n${configWarning}\n\nsession_id: 20261204_101010_abcdef\n`)).toBe('20261204_101010_abcdef');
	});

	it('keeps warnings as warnings: a success carries them, and a failure\'s error is still Hermes\'s message on stdout', () => {
		const stderr = `${fallback}\n${configWarning}\n\nsession_id: 20261204_101010_abcdef\n`;
		const success = interpretHermesOutput({...quietSuccess, stderr});
		expect(success).toMatchObject({answer: 'Hello from mock', error: undefined});
		expect(success.notes).toEqual([`Hermes warned: ${fallback}`, `Hermes warned: ${configWarning}`]);
		const failure = interpretHermesOutput({...quietSuccess, exitCode: 1, stdout: {text: 'API call failed after 3 retries: HTTP 500', truncated: false}, stderr});
		expect(failure.error).toBe('API call failed after 3 retries: HTTP 500');
		expect(stderrMessage(stderr)).toBe('');
	});

	it('a refusal\'s reason line is protocol: the message after it is the error', () => {
		const stderr = 'hermes-refusal-reason: MAX_CONCURRENT_SESSIONS\nHermes is at the active session limit (2/2). Try again when another session finishes.\n';
		expect(interpretHermesOutput({...quietSuccess, exitCode: 1, stdout: {text: '', truncated: false}, stderr}).error).toBe('Hermes is at the active session limit (2/2). Try again when another session finishes.');
	});
});
