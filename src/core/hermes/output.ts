// What a finished `hermes chat` said, read the way its output mode means it (docs/hermes-releases.md):
// - -Q: stdout is the reply verbatim on success and Hermes's error message on failure (exit 1);
//   stderr holds `session_id: ID` on its own line, and from 0.21 maybe warnings before it.
// - stream-json: the decoder's summary (the final `result` event: exit code, error, tokens).
// - text (a Hermes with neither): stdout is banners and boxes, and a failed model call exits 0.
import {sanitizeLine, stripSgr} from '../output/sanitize.js';
import type {StreamSummary} from './stream-json/decoder.js';
import type {OutputMode} from './flags.js';
import type {TokenCounts, ToolCallRecord} from '../types.js';

export type HermesOutcome = {
	answer: string;
	answerTruncated: boolean;
	/** Hermes's own error message; undefined when it gave none (the caller describes the exit). */
	error: string | undefined;
	sessionId: string | null;
	tokens: TokenCounts | null;
	/** stream-json `system/init`'s model: configured before start-up, not necessarily the one used. */
	configuredModel: string | null;
	toolCalls: ToolCallRecord[];
	costUsd: number | null;
	/** Something about this run a script should know (e.g. a stream that never said how it ended). */
	notes: string[];
};

export type HermesOutputInput = {
	mode: OutputMode;
	exitCode: number | null;
	/** The tail of raw stdout (the -Q reply or error), trailing newline removed. */
	stdout: {text: string; truncated: boolean};
	/** The stderr tail as plain text. */
	stderr: string;
	stream?: StreamSummary | undefined;
};

const sessionLine = /^session_id:\s*(\S+)\s*$/m;

/** `session_id: ID` on stderr (-Q and stream-json both print it last). */
export function sessionIdOf(stderr: string): string | null {
	return [...stderr.matchAll(new RegExp(sessionLine.source, 'gm'))].at(-1)?.[1] ?? null;
}

/**
 * Text without Hermes's closing `\nsession_id: ID\n` (written in one piece as it ends): protocol,
 * not news, in a pane or an error.
 */
export function withoutSessionLines(text: string): string {
	return text.includes('session_id:') ? text.replaceAll(/(?:^|\n)session_id:[^\n]*(?:\n|$)/g, '') : text;
}

/** A chunk of stderr without the session line, decoded only when it may hold one. */
export function withoutSessionLine(chunk: Buffer): Buffer {
	return chunk.includes('session_id:') ? Buffer.from(withoutSessionLines(chunk.toString('utf8'))) : chunk;
}

/**
 * stderr lines that are no error: warnings Hermes prints on the way (from 0.21: a home picked
 * without HERMES_HOME, a config.yaml it could not read) and the machine-readable reason line
 * before a refusal's message. They are shown (the log, the pane, the result's warnings), never
 * taken for the error of a run.
 */
const notAnError = /^(?:\[HERMES_HOME fallback\]|hermes-refusal-reason:|(?:⚠️?\s*)?warning\b)/i;

/** stderr without the session line: what is left is worth showing as an error, if anything. */
export function stderrMessage(stderr: string): string {
	return withoutSessionLines(stderr).split('\n').filter(line => !notAnError.test(line.trim())).join('\n').trim();
}

/** The warnings Hermes printed on stderr (see notAnError), each once, for the result's warnings. */
export function stderrWarnings(stderr: string): string[] {
	const lines = withoutSessionLines(stderr).split('\n').map(line => line.trim());
	return [...new Set(lines.filter(line => notAnError.test(line) && !line.startsWith('hermes-refusal-reason:')))].map(line => `Hermes warned: ${line}`);
}

export function interpretHermesOutput(input: HermesOutputInput): HermesOutcome {
	const outcome = interpret(input);
	const warnings = input.mode === 'text' ? [] : stderrWarnings(input.stderr);
	return warnings.length === 0 ? outcome : {...outcome, notes: [...warnings, ...outcome.notes]};
}

function interpret(input: HermesOutputInput): HermesOutcome {
	const succeeded = input.exitCode === 0;
	const base = {sessionId: sessionIdOf(input.stderr), tokens: null, configuredModel: null, toolCalls: [], costUsd: null, notes: []};
	if (input.mode === 'stream-json' && input.stream) {
		return fromStream(input.stream, input, succeeded);
	}

	if (input.mode === 'quiet') {
		return succeeded
			? {...base, answer: input.stdout.text, answerTruncated: input.stdout.truncated, error: undefined}
			: {...base, answer: '', answerTruncated: false, error: failureMessage(input.stdout.text, input.stderr)};
	}

	// Text mode: the reply is somewhere in a box; keep all of it rather than guess.
	return {
		...base,
		answer: succeeded ? input.stdout.text : '',
		answerTruncated: succeeded && input.stdout.truncated,
		error: succeeded ? undefined : lastLineOf(stderrMessage(input.stderr)),
		notes: ['this Hermes has neither -Q nor --format stream-json: its output is a formatted transcript, and a failed model call still exits 0'],
	};
}

function fromStream(stream: StreamSummary, input: HermesOutputInput, succeeded: boolean): HermesOutcome {
	const notes: string[] = [];
	if (!stream.result && input.exitCode !== null) {
		notes.push('Hermes ended without its final stream-json `result` event: tokens and the final text may be missing');
	}

	const error = succeeded ? undefined : stream.result?.error ?? failureMessage(stream.plainText, input.stderr);
	return {
		answer: succeeded ? stream.answer.text : '',
		answerTruncated: succeeded && stream.answer.truncated,
		error: error === undefined ? undefined : lastLines(error, 20),
		sessionId: stream.sessionId ?? sessionIdOf(input.stderr),
		tokens: stream.tokens,
		configuredModel: stream.configuredModel,
		toolCalls: stream.toolCalls,
		costUsd: stream.costUsd,
		notes,
	};
}

/**
 * Hermes's message for a failed run. -Q prints model and API failures on stdout, but a crash, a
 * traceback, a missing profile or an argparse refusal goes to stderr, and stdout may then hold
 * only progress text: stderr's last line, when there is one, is the one that says what broke.
 */
export function failureMessage(stdout: string, stderr: string): string | undefined {
	const fromStderr = lastLineOf(stderrMessage(stderr));
	if (fromStderr !== undefined) return fromStderr;
	const fromStdout = plainText(stdout);
	return fromStdout === '' ? undefined : lastLines(fromStdout, 20);
}

/** Text as an error shows it: no escapes, no carriage returns (Rich ends lines in \r\n), no trailing blanks. */
function plainText(text: string): string {
	return stripSgr(sanitizeLine(text)).replaceAll('\r', '').split('\n').map(line => line.trimEnd()).join('\n').trim();
}

function lastLineOf(text: string): string | undefined {
	return plainText(text).split('\n').findLast(line => line.trim() !== '')?.trim();
}

function lastLines(text: string, count: number): string {
	const lines = text.split('\n');
	return lines.length > count ? lines.slice(-count).join('\n') : text;
}
