// Every message of the distributed path, as zod schemas: what a runner host and its workers
// send each other over NATS. Both ends parse everything they receive with these; a message that
// does not parse is not acted on (the receiver logs it and goes on). Types cross from here to the
// core as the core's own types (`satisfies z.ZodType<...>`), so a field added to PlannedTask or
// TaskResult that this file does not know fails the typecheck instead of being dropped silently.
import {z} from 'zod';
import {failureReasons, isFinal, reasoningEfforts, routingModes, stopReasons, type HermesCapabilities, type PlannedTask, type ResultRoute, type Spend, type TaskResult, type TaskSpec, type TokenCounts, type ToolCallRecord} from '../core/types.js';

/** A report of at most this many pieces: 64 of 256 KiB hold the largest result (two texts of 16 MiB would not: those are cut at the worker). */
export const maxPieces = 256;

/** Bumped on any change a peer of the previous version would misread. */
export const messageVersion = 3;

const id = z.string().min(1).max(200);
/** What becomes part of a subject (a batch, a task, a worker): never a '.', '*' or '>' (subjects.ts). */
const token = id.regex(/^[\w-]{1,100}$/, 'must be letters, digits, _ and - only (at most 100): it becomes a NATS subject token');
const name = z.string().max(1000);
const text = z.string().max(16 * 1024 * 1024);
const count = z.number().int().nonnegative();
const epochMs = z.number().nonnegative();
const names = z.array(name).max(1000);

const specSchema = z.strictObject({
	goal: text, context: text.optional(), name: name.optional(), characteristic: name.optional(), option: name.optional(),
	profile: name.optional(), model: name.optional(), provider: name.optional(), timeout: z.number().positive().optional(),
	toolsets: names.optional(), skills: names.optional(), max_turns: count.optional(), worktree: z.boolean().optional(),
}) satisfies z.ZodType<TaskSpec>;

// No api_key: a route's key never travels (offers strip it; a worker takes keys from its own environment).
const modelRouteSchema = z.strictObject({
	kind: z.literal('model'), name, description: text, model: name, provider: name.optional(), base_url: name.optional(),
	reasoning_effort: z.enum(reasoningEfforts).optional(), service_tier: name.optional(), fallback_providers: names.optional(), api_mode: name.optional(),
});
const profileRouteSchema = z.strictObject({kind: z.literal('profile'), name, description: text, configured_model: name.optional()});

const plannedTaskSchema = z.strictObject({
	index: count,
	id: token,
	spec: specSchema,
	characteristic: z.strictObject({value: name, inferred: z.boolean(), from: name.optional()}).optional(),
	decision: z.strictObject({
		route: z.union([modelRouteSchema, profileRouteSchema]).nullable(),
		modelOverride: z.strictObject({model: name, provider: name.optional()}).optional(),
		refused: z.boolean(),
		reason: text,
	}),
	effective: z.strictObject({model: name.nullable(), provider: name.nullable(), reasoning_effort: name.nullable(), service_tier: name.nullable(), profile: name.nullable()}),
	launch: z.strictObject({max_turns: count.nullable(), prompt_file: z.boolean(), base_url: name.nullable()}),
	warnings: z.array(text).max(1000),
	rerouted: z.strictObject({
		target: z.union([z.strictObject({mode: z.enum(routingModes), route: name}), z.strictObject({model: name, provider: name.optional()})]),
		reason: text,
	}).optional(),
}) satisfies z.ZodType<PlannedTask>;

/** A task for a worker: one attempt of one planned task, and the batch settings it runs under. */
export const offerSchema = z.strictObject({
	v: z.literal(messageVersion),
	batch: token,
	attempt: z.number().int().positive().max(999_999),
	task: plannedTaskSchema,
	graceMs: count,
	timeoutMs: z.number().positive().optional(),
	logLimitBytes: count,
});
export type TaskOffer = z.infer<typeof offerSchema>;

/** The offer as it may travel: the route's plain-text api_key removed (credentials never leave the runner host). */
export function offerOf(batch: string, task: PlannedTask, attempt: number, settings: {graceMs: number; timeoutMs?: number | undefined; logLimitBytes: number}): TaskOffer {
	const route = task.decision.route;
	const withoutKey = route?.kind === 'model' ? (({api_key: _key, ...rest}) => rest)(route) : route;
	return {v: messageVersion, batch, attempt, task: {...task, decision: {...task.decision, route: withoutKey}}, graceMs: settings.graceMs, ...(settings.timeoutMs === undefined ? {} : {timeoutMs: settings.timeoutMs}), logLimitBytes: settings.logLimitBytes};
}

const flagsSchema = z.strictObject({
	quiet: z.boolean(), reasoning: z.boolean(), streamJson: z.boolean(), queryFile: z.boolean(), runBudget: z.boolean(), maxTurns: z.boolean(),
	toolsets: z.boolean(), skills: z.boolean(), worktree: z.boolean(), source: z.boolean(), provider: z.boolean(), cli: z.boolean().optional(),
}) satisfies z.ZodType<HermesCapabilities['flags']>;

/** What a worker keeps in the KV bucket while it lives: who it is, what its Hermes can do, room. */
export const advertisementSchema = z.strictObject({
	v: z.literal(messageVersion),
	name: token,
	hermes: z.strictObject({version: name.nullable(), probed: z.boolean(), flags: flagsSchema}),
	profiles: names,
	/** The providers and base URLs its own home configures: the only ones it runs a task with (home-routes.ts). */
	routes: z.strictObject({providers: names, base_urls: names}),
	slots: z.number().int().positive(),
	free: count,
	/** The attempts it runs now, as `batch/task/attempt`: what a runner host marks lost when it goes. */
	running: z.array(name).max(10_000),
	/** How often it heartbeats: a runner host declares it lost after a few of these pass in silence. */
	heartbeatMs: z.number().int().positive().max(600_000),
	at: epochMs,
});
export type WorkerAdvertisement = z.infer<typeof advertisementSchema>;

const tokensSchema = z.strictObject({input: count, output: count, total: count, cache_read: count, cache_write: count}) satisfies z.ZodType<TokenCounts>;
const nullableCount = count.nullable();
const spendSchema = z.strictObject({
	input_tokens: nullableCount, output_tokens: nullableCount, cache_read_tokens: nullableCount, cache_write_tokens: nullableCount, reasoning_tokens: nullableCount,
	api_calls: nullableCount, tool_calls: nullableCount, cost_usd: z.number().nonnegative().nullable(), cost_status: name.nullable(), model: name.nullable(), billing_provider: name.nullable(),
}) satisfies z.ZodType<Spend>;
const toolCallSchema = z.strictObject({
	name, id: name.nullable(), input: text.nullable(), duration_ms: z.number().nonnegative().nullable(), is_error: z.boolean().nullable(), ambiguous: z.literal(true).optional(),
}) satisfies z.ZodType<ToolCallRecord>;
const resultRouteSchema = z.strictObject({
	name: name.nullable(), kind: z.enum(['model', 'profile', 'parent', 'explicit']), base_url: name.nullable().optional(), provider: name.nullable(), model: name.nullable(),
	reasoning_effort: name.nullable(), service_tier: name.nullable(), profile: name.nullable(), refused: z.boolean(), reason: text,
}) satisfies z.ZodType<ResultRoute>;
// Typed as any status so a result crosses as the core's type; only final ones are accepted.
const finalStatusSchema = z.enum(['queued', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled', 'timed_out', 'refused', 'lost']).refine(isFinal, 'must be a final status');
const isoTime = z.string().max(100).nullable();

const resultShape = {
	id, name: name.nullable(), goal: text, model: name.nullable(), route: resultRouteSchema, status: finalStatusSchema, success: z.boolean(),
	exit_code: z.number().int().nullable(), signal: name.nullable(), started_at: isoTime, finished_at: isoTime, duration_ms: z.number().nullable(),
	result: text, result_truncated: z.boolean().optional(), answer: text, session_id: name.nullable(), hermes_version: name.nullable(), tokens: tokensSchema.nullable(),
	model_used: name.nullable(), configured_model: name.nullable().optional(), cost_usd: z.number().optional(), spend: spendSchema.nullable().optional(),
	tool_calls: z.array(toolCallSchema).max(100_000), error: text.optional(), failure_reason: z.enum(failureReasons).optional(), warnings: z.array(text).max(10_000).optional(), log: text.nullable(), host: name.optional(),
	attempt: z.number().int().positive().optional(),
};
// An attempt's result from a worker is one attempt: earlier attempts are the runner host's to keep.
const resultSchema = z.strictObject(resultShape) satisfies z.ZodType<Omit<TaskResult, 'earlier_attempts'>>;

const cancellingSchema = z.strictObject({reason: z.enum(stopReasons), termSentAt: epochMs, killDueAt: epochMs, killSent: z.boolean()});

const v = z.literal(messageVersion);
/**
 * What a worker reports about one attempt, on the attempt's report subject (kept in the batch's
 * stream). `seq` numbers an attempt's reports from 0 with no gap, so the runner host applies them
 * in that order whatever order JetStream hands them over in (a redelivery after a server restart
 * may come late) and drops any it has seen. Every report names its worker: one from a worker
 * that does not hold the attempt is dropped before it can take a place in that order.
 */
export const reportSchema = z.discriminatedUnion('kind', [
	z.strictObject({v, seq: count, worker: id, kind: z.literal('started'), pid: z.number().int().positive(), argv: z.array(text).max(10_000), at: epochMs}),
	z.strictObject({v, seq: count, worker: id, kind: z.literal('cancelling'), cancelling: cancellingSchema, at: epochMs}),
	z.strictObject({v, seq: count, worker: id, kind: z.literal('killed'), at: epochMs}),
	/** A piece of the output, one stream's bytes (a worker merges what piled up while it waited for the previous one's ack). */
	z.strictObject({v, seq: count, worker: id, kind: z.literal('output'), stream: z.enum(['stdout', 'stderr']), data: z.base64().max(1024 * 1024)}),
	/**
	 * The last report: the result, once the process group is gone. droppedOutputBytes: live output
	 * the worker did not send because too much was waiting (NATS unreachable); its log has all of it.
	 */
	/** recovered: sent again by the worker started anew, from what it kept on its disk (outcomes.ts): reports before it may never come. */
	/** resultIsAnswer: `result` was sent empty, being `answer` again (sent once: an answer of 0.6 MB sent twice went over max_payload). */
	z.strictObject({v, seq: count, worker: id, kind: z.literal('finished'), result: resultSchema, droppedOutputBytes: count, at: epochMs, recovered: z.literal(true).optional(), resultIsAnswer: z.literal(true).optional()}),
	/**
	 * One of `count` pieces of the report numbered `seq`, too large for one NATS message: its JSON,
	 * cut (pieces.ts). Each piece is sealed on its own; the whole is read once every piece is there.
	 */
	z.strictObject({v, seq: count, worker: id, kind: z.literal('piece'), index: count, count: z.number().int().min(2).max(maxPieces), data: z.base64().max(1024 * 1024), recovered: z.literal(true).optional()}),
]);
export type AttemptReport = z.infer<typeof reportSchema>;
export type FinishedReport = Extract<AttemptReport, {kind: 'finished'}>;
/** A report as the attempt hands it over: the publisher (report-publisher.ts) adds the version, its seq and the worker. */
type Body<R> = R extends unknown ? Omit<R, 'v' | 'seq' | 'worker'> : never;
export type ReportBody = Body<Exclude<AttemptReport, {kind: 'piece'}>>;
export type PieceReport = Extract<AttemptReport, {kind: 'piece'}>;

/** A worker asks for an attempt it pulled; only the first claim of an attempt is granted. */
export const claimRequestSchema = z.strictObject({v: z.literal(messageVersion), worker: token});
/** for: the nonce of the claim it answers (seal.ts), so that a grant heard once cannot grant another claim. */
export const claimReplySchema = z.strictObject({v: z.literal(messageVersion), for: z.string().max(64), granted: z.boolean(), why: text.optional(), taken: z.boolean().optional()});
export type ClaimReply = z.infer<typeof claimReplySchema>;

/** A stop for one attempt; answered once the attempt's process group is gone. */
export const cancelRequestSchema = z.strictObject({v: z.literal(messageVersion), reason: z.enum(stopReasons), skipGrace: z.boolean()});
export type CancelRequest = z.infer<typeof cancelRequestSchema>;
/**
 * for: the nonce of the stop it answers. result: whether the attempt's result is in the batch's
 * stream (then it follows there), or why it never will be: the runner host then ends the attempt
 * itself rather than wait for it.
 */
export const cancelReplySchema = z.strictObject({v: z.literal(messageVersion), for: z.string().max(64), worker: id, gone: z.boolean(), why: text.optional(), undelivered: text.optional()});
export type CancelReply = z.infer<typeof cancelReplySchema>;

/** Parsed JSON, or why not: the one way every receiver reads a message's bytes. */
export function parseMessage<T extends z.ZodType>(schema: T, bytes: Uint8Array): {ok: true; value: z.output<T>} | {ok: false; why: string} {
	let json: unknown;
	try {
		json = JSON.parse(new TextDecoder('utf-8', {fatal: true}).decode(bytes));
	} catch (error) {
		return {ok: false, why: `not JSON text (${error instanceof Error ? error.message : String(error)})`};
	}

	const parsed = schema.safeParse(json);
	return parsed.success ? {ok: true, value: parsed.data} : {ok: false, why: z.prettifyError(parsed.error).replaceAll('\n', '; ').slice(0, 500)};
}

export function encodeMessage(value: unknown): Uint8Array {
	return new TextEncoder().encode(JSON.stringify(value));
}
