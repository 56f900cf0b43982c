// Why a `hermes chat -q` that we did not stop ended as it did, read from its exit code and output
// (docs/hermes-releases.md, "Exit codes"). Hermes's one-shot contract: 0 the turn completed, 1 it
// failed or stopped partway (from 0.21.5 also at --max-turns), 130 interrupted, 2 a usage error,
// and, for a Kanban worker only (HERMES_KANBAN_TASK set, which our children never have), 75 at a
// provider's rate-limit or billing wall and 78 at a refusal no retry heals. An exit 0 that
// answered nothing is no success: a Hermes that handed the run to its TUI exits 0 that way.
import type {FailureReason} from '../types.js';
import type {OutputMode} from './flags.js';

export type ExitFacts = {
	mode: OutputMode;
	exitCode: number | null;
	signal: string | null;
	/** The answer as read for the mode (-Q stdout, stream-json text). */
	answer: string;
	/** All of stdout and stderr that is still at hand (tails), as plain text. */
	stdout: string;
	stderr: string;
	/** stream-json: whether the final `result` event came. */
	resultEvent?: boolean | undefined;
};

export type ExitReading = {
	succeeded: boolean;
	/** Set when it did not succeed. */
	reason?: FailureReason;
	/** What the reason means, for the error text (undefined: Hermes's own message says enough). */
	sentence?: string;
	/** A success a script should still hear about (the result's warnings). */
	note?: string;
};

/** What the TUI prints when it starts without a terminal, then exiting 0. */
const noTty = /hermes-tui: no TTY/;
const sessionLimit = /hermes-refusal-reason: MAX_CONCURRENT_SESSIONS|at the active session limit/;
const maxTurns = /Reached maximum iterations/;

export const quotaWallExit = 75;
export const providerRefusedExit = 78;

export function readExit(facts: ExitFacts): ExitReading {
	const output = `${facts.stdout}\n${facts.stderr}`;
	if (facts.exitCode === 0) {
		if (noTty.test(output)) {
			return {succeeded: false, reason: 'no_answer', sentence: 'Hermes exited 0 without answering: it handed the run to its TUI, which found no terminal (display.interface: tui or HERMES_TUI=1 in that home, on a Hermes without --cli); set display.interface: cli there, or upgrade Hermes'};
		}

		const empty = facts.answer.trim() === '' && (facts.mode === 'quiet' || (facts.mode === 'stream-json' && facts.resultEvent === false) || (facts.mode === 'text' && facts.stdout.trim() === ''));
		if (empty) return {succeeded: false, reason: 'no_answer', sentence: 'Hermes exited 0 without an answer'};
		// Before 0.21.5 running out of --max-turns still exits 0: the answer is the summary Hermes then asked for.
		return maxTurns.test(facts.stdout) ? {succeeded: true, note: 'the run reached its --max-turns limit: the answer is the summary Hermes asked for then (Hermes 0.21.5 and later exit 1 there)'} : {succeeded: true};
	}

	if (facts.exitCode === null) {
		return {succeeded: false, reason: 'killed'};
	}

	switch (facts.exitCode) {
		case quotaWallExit: {
			return {succeeded: false, reason: 'quota_wall', sentence: 'quota wall (exit 75): the provider\'s rate limit or billing stopped the run; it may succeed once the limit lifts'};
		}

		case providerRefusedExit: {
			return {succeeded: false, reason: 'provider_refused', sentence: 'the provider refused the run for good (exit 78: a revoked key, a model that does not exist for the account); retrying will not help'};
		}

		case 130: {
			return {succeeded: false, reason: 'interrupted', sentence: 'interrupted (exit 130)'};
		}

		case 2: {
			return {succeeded: false, reason: 'usage', sentence: 'Hermes refused the command line (exit 2)'};
		}

		default: {
			if (sessionLimit.test(output)) {
				return {succeeded: false, reason: 'session_limit', sentence: 'Hermes refused to start: its home is at its active session limit (max_concurrent_sessions)'};
			}

			if (maxTurns.test(output)) {
				return {succeeded: false, reason: 'max_turns', sentence: 'the run reached its --max-turns limit before it finished'};
			}

			return {succeeded: false, reason: 'error'};
		}
	}
}
