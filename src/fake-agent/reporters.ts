// The three ways Hermes reports a `chat -q` run (docs/hermes-releases.md): the human text mode, -Q (the
// answer alone on stdout), and --format stream-json (JSON lines). Each reporter owns what goes to
// stdout and stderr and the exit code; the run itself (steps, timing) is the same for all three.
import {once} from 'node:events';
import {crlf, errorPanel, replyPanel} from './rich-text.js';
import {formatDuration, pythonJson, textDeltas, tokensUsed, type Session, type ToolCall} from './session.js';

export async function write(text: string, stream: NodeJS.WriteStream = process.stdout): Promise<void> {
	// Respecting backpressure is the point: a reader that keeps up sees a steady stream, one that
	// does not stalls us instead of growing our memory.
	if (!stream.write(text)) await once(stream, 'drain');
}

export type Failure = {
	/** What the provider said, e.g. `HTTP 429: rate limited` (Hermes's result `error`). */
	summary: string;
	/** What Hermes answers instead: `API call failed after 3 retries: …` (its final_response). */
	message: string;
	/** The retry log text mode prints before the panel, one line each; a made-up 429 log when absent. */
	log?: string[];
};

export type Reporter = {
	start(): Promise<void>;
	toolStarted(call: ToolCall): Promise<void>;
	toolFinished(call: ToolCall, durationMs: number): Promise<void>;
	/** Returns the exit code: `exitOverride` ([fake:exit=N]) when given, else what Hermes would. */
	answered(answer: string, exitOverride: number | undefined): Promise<number>;
	failed(failure: Failure, exitOverride: number | undefined): Promise<number>;
	/** SIGTERM/SIGINT mid-conversation, the way that ends with exit 130 rather than a traceback. */
	interrupted(): Promise<void>;
};

const sessionLine = (session: Session) => write(`\nsession_id: ${session.id}\n`, process.stderr);

function quietReporter(session: Session): Reporter {
	return {
		async start() {},
		async toolStarted() {},
		async toolFinished() {},
		async answered(answer, exitOverride) {
			await write(`${answer}\n`);
			await sessionLine(session);
			return exitOverride ?? 0;
		},
		async failed(failure, exitOverride) {
			// -Q prints Hermes's final response even when it is the error: only the exit code tells.
			await write(`${failure.message}\n`);
			await sessionLine(session);
			return exitOverride ?? 1;
		},
		interrupted: () => sessionLine(session),
	};
}

/** The retry log the directive mode makes up for `[fake:fail]`: three rate-limited attempts. */
function madeUpRetryLog(session: Session, failure: Failure): string[] {
	const provider = session.command.provider ?? 'auto';
	const lines: string[] = [];
	for (const [attempt, wait] of [[1, '2.1'], [2, '5.6'], [3, '']] as const) {
		lines.push(
			`⚠️  API call failed (attempt ${attempt}/3): RateLimitError [HTTP 429]`,
			`   🔌 Provider: ${provider}  Model: ${session.model}`,
			'   🌐 Endpoint: https://openrouter.ai/api/v1',
			`   📝 Error: ${failure.summary}`,
			`   ⏱️  Elapsed: ${(attempt * 2.4).toFixed(2)}s  Context: 2 msgs, ~3,980 tokens`,
		);
		if (wait) lines.push(`⏳ Retrying in ${wait}s (attempt ${attempt}/3)...`);
	}

	lines.push(`❌ API failed after 3 retries — ${failure.summary}`, `   💀 Final error: ${failure.summary}`);
	return lines;
}

// Rich writes `\r\n` (banner rule, tool lines, panels, retry log); plain prints write `\n`.
function textReporter(session: Session): Reporter {
	const footer = async (messages: number) => {
		const calls = session.toolCalls.length;
		await write(
			[
				'',
				'Resume this session with:',
				`  hermes --resume ${session.id}`,
				'',
				`Session:        ${session.id}`,
				`Duration:       ${formatDuration(Date.now() - session.startedAt)}`,
				`Messages:       ${messages} (1 user, ${2 * calls} tool calls)`,
				'',
			].join('\n'),
		);
	};

	return {
		async start() {
			await write(`Query: ${session.query}\nInitializing agent...${crlf}${'─'.repeat(40)}${crlf}\n`);
		},
		async toolStarted(call) {
			if (call.preparing) await write(`  ┊ ${call.preparing}${crlf}`);
		},
		async toolFinished(call, durationMs) {
			const exit = call.exitCode ? ` [exit ${call.exitCode}]` : '';
			await write(`  ┊ ${call.label}  ${(durationMs / 1000).toFixed(1)}s${exit}${crlf}`);
		},
		async answered(answer, exitOverride) {
			await write(`${crlf}${replyPanel(answer, session.release)}`);
			await footer(2 + 2 * session.toolCalls.length);
			return exitOverride ?? 0;
		},
		async failed(failure, exitOverride) {
			const log = failure.log ?? madeUpRetryLog(session, failure);
			await write(`${log.map((line) => `${line}${crlf}`).join('')}${errorPanel(failure.message, session.release)}`);
			await footer(1 + 2 * session.toolCalls.length);
			// The real Hermes exits 0 here: without -Q a failed run looks like a success.
			return exitOverride ?? 0;
		},
		async interrupted() {},
	};
}

function streamJsonReporter(session: Session): Reporter {
	const emit = (event: Record<string, unknown>) => write(`${pythonJson({...event, timestamp: Date.now()})}\n`);
	let resultSent = false;
	// A failed or interrupted run knows no counts: Hermes then writes zeros (its `or 0`), so the fake does too.
	const noTokens = {input: 0, output: 0, total: 0, cache_read: 0, cache_write: 0};
	const result = async (exitCode: number, text: string, error?: string, tokens = tokensUsed(session, text)) => {
		if (resultSent) return exitCode;
		resultSent = true;
		await emit({
			type: 'result',
			session_id: session.id,
			exit_code: exitCode,
			text,
			tokens,
			duration_ms: Date.now() - session.startedAt,
			error,
		});
		await sessionLine(session);
		return exitCode;
	};

	return {
		async start() {
			await emit({type: 'system', subtype: 'init', model: session.model, session_id: session.id});
		},
		// No stored Hermes release sends tool_call_id (its tool progress callback is not given one):
		// calls are told apart by name and order only, so the fake leaves it out too.
		async toolStarted(call) {
			await emit({type: 'tool_use', name: call.name, input: call.input});
		},
		async toolFinished(call, durationMs) {
			await emit({type: 'tool_result', name: call.name, output: call.output, duration_ms: Math.round(durationMs), is_error: call.isError});
		},
		async answered(answer, exitOverride) {
			for (const delta of textDeltas(answer)) await emit({type: 'text', text: delta});
			return result(exitOverride ?? 0, answer);
		},
		async failed(failure, exitOverride) {
			return result(exitOverride ?? 1, failure.message, failure.summary, noTokens);
		},
		async interrupted() {
			await result(130, '', 'Interrupted', noTokens);
		},
	};
}

export type OutputMode = 'text' | 'quiet' | 'stream-json';

export function outputMode(session: Session): OutputMode {
	if (session.command.format === 'stream-json') return 'stream-json';
	return session.command.quiet ? 'quiet' : 'text';
}

export function makeReporter(session: Session): Reporter {
	const mode = outputMode(session);
	if (mode === 'stream-json') return streamJsonReporter(session);
	return mode === 'quiet' ? quietReporter(session) : textReporter(session);
}
