// A reporter that also keeps the session's row and messages in state.db (state-db.ts), at the
// moments Hermes writes its own: the row at start, each tool call as it starts and as it returns,
// the answer and the totals when the turn ends
// (written before the answer is printed, so whoever reads the session line finds the row final).
// An interrupt writes nothing: the row keeps its zeros and no ended_at, as Hermes's does.
import type {Reporter} from './reporters.js';
import {tokensUsed, type Session} from './session.js';
import {fakeCost, SessionRecord} from './state-db.js';

export type Billing = {
	provider: string;
	baseUrl: string | null;
	/** The home whose state.db gets the row; undefined: none is written. */
	home: string | undefined;
	cwd: string;
	/** `[fake:cost=USD]`: the cost to record, whatever the price table says. */
	costUsd?: number | undefined;
};

export function recordingReporter(reporter: Reporter, session: Session, billing: Billing): Reporter {
	const record = billing.home === undefined ? undefined : SessionRecord.start(billing.home, {
		id: session.id,
		source: session.command.source ?? 'cli',
		model: session.model,
		// Hermes stores the prompt stripped, as the model receives it.
		prompt: session.query.trim(),
		profile: session.command.profile ?? 'default',
		release: session.release,
		cwd: billing.cwd,
	});
	if (!record) return reporter;
	// The user's message, then two per tool call (the call, its result).
	const messages = () => 1 + 2 * session.toolCalls.length;
	const ended = (apiCalls: number, messageCount: number, answer: string, answered: boolean) => {
		const tokens = tokensUsed(session, answer);
		record.turnEnded({
			messageCount,
			apiCalls,
			inputTokens: tokens.input,
			outputTokens: tokens.output,
			billingProvider: billing.provider,
			billingBaseUrl: billing.baseUrl,
			costUsd: billing.costUsd ?? fakeCost(billing.provider, tokens.input, tokens.output),
		}, answered ? {text: answer, summaryAsked: session.summaryAsked === true} : undefined);
	};

	return {
		...reporter,
		async toolStarted(call) {
			// The assistant's message asking for the call is stored as the call starts; its result after.
			record.toolCallStarted(session.toolCalls.length, messages() - 1, call);
			await reporter.toolStarted(call);
		},
		async toolFinished(call, durationMs) {
			record.toolCallEnded(messages(), call, call.output);
			await reporter.toolFinished(call, durationMs);
		},
		async answered(answer, exitOverride) {
			// The directive mode makes one model call per step plus the answer.
			const calls = session.usage ? session.usage.calls : session.toolCalls.length + 1;
			ended(calls, messages() + 1 + (session.summaryAsked ? 1 : 0), answer, true);
			return reporter.answered(answer, exitOverride);
		},
		async failed(failure, exitOverride) {
			ended(0, messages() + (session.summaryAsked ? 1 : 0), failure.message, false);
			return reporter.failed(failure, exitOverride);
		},
	};
}
