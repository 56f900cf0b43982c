// Hermes's one-shot exit contract read into a status and a reason (docs/hermes-releases.md).
import {describe, expect, it} from 'vitest';
import {readExit, type ExitFacts} from '../../../src/core/hermes/exit-reasons.js';

const facts = (extra: Partial<ExitFacts>): ExitFacts => ({mode: 'quiet', exitCode: 0, signal: null, answer: 'Paris.', stdout: 'Paris.', stderr: 'session_id: 20261204_180000_abcdef', ...extra});

describe('readExit', () => {
	it.each([
		[75, 'quota_wall', /^quota wall \(exit 75\)/],
		[78, 'provider_refused', /exit 78/],
		[130, 'interrupted', /exit 130/],
		[2, 'usage', /exit 2/],
	] as const)('exit %i is its own reason', (exitCode, reason, sentence) => {
		const reading = readExit(facts({exitCode, answer: ''}));
		expect(reading).toMatchObject({succeeded: false, reason});
		expect(reading.sentence).toMatch(sentence);
	});

	it('exit 1 says which refusal or limit it was, where Hermes printed it', () => {
		expect(readExit(facts({exitCode: 1, stderr: 'hermes-refusal-reason: MAX_CONCURRENT_SESSIONS\nHermes is at the active session limit (2/2). Try again when another session finishes.'})).reason).toBe('session_limit');
		expect(readExit(facts({exitCode: 1, stdout: '⚠️  Reached maximum iterations (3). Requesting summary...\nPartial.'})).reason).toBe('max_turns');
		expect(readExit(facts({exitCode: 1, stdout: 'API call failed after 3 retries: HTTP 500'}))).toEqual({succeeded: false, reason: 'error'});
	});

	it('an exit 0 that answered nothing is no success', () => {
		expect(readExit(facts({answer: '', stdout: ''}))).toMatchObject({succeeded: false, reason: 'no_answer'});
		expect(readExit(facts({mode: 'text', answer: 'hermes-tui: no TTY', stdout: 'hermes-tui: no TTY'}))).toMatchObject({succeeded: false, reason: 'no_answer', sentence: expect.stringMatching(/TUI/)});
		expect(readExit(facts({mode: 'stream-json', answer: '', stdout: '', resultEvent: false})).reason).toBe('no_answer');
	});

	it('an exit 0 with an answer, or a stream whose result event came, succeeds', () => {
		expect(readExit(facts({}))).toEqual({succeeded: true});
		// A stream that printed only raw lines but ended with its result event said how it ended.
		expect(readExit(facts({mode: 'stream-json', answer: '', stdout: 'line 1', resultEvent: true}))).toEqual({succeeded: true});
		// 0.19/0.20 text mode exits 0 on a failed model call too: its transcript is the answer (docs/hermes-releases.md).
		expect(readExit(facts({mode: 'text', answer: 'Query: hi', stdout: 'Query: hi'}))).toEqual({succeeded: true});
	});

	it('an exit 0 after --max-turns ran out (0.19, 0.20) succeeds, with a note', () => {
		const reading = readExit(facts({stdout: '⚠️  Reached maximum iterations (1). Requesting summary...\nThe summary.', answer: '⚠️  Reached maximum iterations (1). Requesting summary...\nThe summary.'}));
		expect(reading).toMatchObject({succeeded: true, note: expect.stringMatching(/--max-turns limit/)});
	});
});
