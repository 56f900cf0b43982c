// The runner host's socket protocol: newline-delimited JSON, one message a line (docs/protocol.md).
// Everything a client sends is parsed here with zod before the host acts on it; what the host
// sends is checked by the client as an envelope (the host is the same user's process: the client
// trusts the events inside, as the in-process store trusts the runner's).
import {z} from 'zod';
import type {RetryTarget} from '../core/types.js';
import type {SteerOutcome} from '../core/types.js';
import {clearableFields, routingModes, type BatchEvent, type DelegationConfig, type RouteEdit, type RoutePlan} from '../core/types.js';
import type {OutputRange, OutputSnapshot} from './port.js';
import type {OutputDelta} from './tail-delta.js';

/** Bumped on any change a peer of the previous version would misread. */
export const protocolVersion = 1;

/**
 * What this host understands beyond protocol 1 as first released, listed in its hello. A client
 * sends a message of a feature only to a host that lists it: a host from before the feature
 * would take the message for a malformed one and close the client.
 */
export const hostFeatures = ['detach', 'tail-delta'] as const;
export type HostFeature = (typeof hostFeatures)[number];

/**
 * Why a client leaves, in its `detach` message (the host's log says it): d or the quit question's
 * d (`detach`), its terminal went away (`terminal-gone`), the operator quit a settled batch
 * (`quit`), a script has what it came for (`done`). A client that closes without one vanished.
 */
export const leaveReasons = ['detach', 'terminal-gone', 'quit', 'done'] as const;
export type LeaveReason = (typeof leaveReasons)[number];

/** A client's last message (feature `detach`): the host lets it go after its own last word if it ends now. */
export const detachSchema = z.strictObject({type: z.literal('detach'), reason: z.enum(leaveReasons)});
export type DetachMessage = z.infer<typeof detachSchema>;

/** A client's line (a request) is small: a longer one is not ours. */
export const maxClientLineBytes = 256 * 1024;
/** A host's line can be a whole snapshot (every task's result and tail). */
export const maxHostLineBytes = 256 * 1024 * 1024;
/** Pane lines a client may ask to be pushed per task (the dashboard's frame needs ~40). */
export const maxTailLines = 2000;
/** The lines of each pane the host pushes to a client whose hello names no tailLines (the dashboard's panes show ~40). */
export const defaultTailLines = 40;

const taskId = z.string().min(1).max(200);
const routeList = z.enum(['model_map', 'profile_routes']);
const routeName = z.string().max(1000);
const text = z.string().max(64 * 1024);

const routeEditSchema = z.union([
	z.strictObject({kind: z.literal('set-mode'), mode: z.enum(routingModes)}),
	z.strictObject({kind: z.literal('set-field'), list: routeList, name: routeName, field: z.enum(['description', 'model', 'provider', 'reasoning_effort']), value: text}),
	z.strictObject({kind: z.literal('clear-field'), list: routeList, name: routeName, field: z.enum(clearableFields)}),
	z.strictObject({kind: z.literal('set-default'), list: routeList, name: routeName}),
	z.strictObject({kind: z.literal('add-route'), list: z.literal('model_map'), route: z.strictObject({name: routeName, description: text, model: text, provider: text, reasoning_effort: text.optional()})}),
	z.strictObject({kind: z.literal('add-route'), list: z.literal('profile_routes'), route: z.strictObject({name: routeName, description: text})}),
	z.strictObject({kind: z.literal('remove-route'), list: routeList, name: routeName}),
]) satisfies z.ZodType<RouteEdit>;

const retryTargetSchema = z.union([routeName, z.strictObject({model: text, provider: text.optional()})]) satisfies z.ZodType<RetryTarget>;

const rid = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** Requests (client → host), each answered by one reply with the same rid. */
export const requestSchema = z.discriminatedUnion('type', [
	z.strictObject({type: z.literal('cancel'), rid, id: taskId}),
	/** cancel with the grace period skipped (SIGKILL now, or at once when already cancelling). */
	z.strictObject({type: z.literal('kill'), rid, id: taskId}),
	z.strictObject({type: z.literal('shutdown'), rid, skipGrace: z.boolean()}),
	/** Route edits; a mode switch is the edit {kind: 'set-mode'}. */
	z.strictObject({type: z.literal('steer'), rid, edits: z.array(routeEditSchema).min(1).max(100)}),
	z.strictObject({type: z.literal('reroute'), rid, id: taskId, target: retryTargetSchema}),
	z.strictObject({type: z.literal('reload'), rid}),
	z.strictObject({type: z.literal('read-output'), rid, id: taskId, last: z.number().int().nonnegative().optional()}),
	z.strictObject({type: z.literal('search-output'), rid, id: taskId, query: text, from: z.number().int().nullable(), direction: z.union([z.literal(1), z.literal(-1)])}),
]);
export type Request = z.infer<typeof requestSchema>;
export type RequestType = Request['type'];

/** The first line a client sends. */
export const clientHelloSchema = z.strictObject({
	type: z.literal('hello'),
	protocol: z.number().int(),
	/** Who is attaching (a dashboard, `wait`, `cancel`): for the host's log. */
	client: z.string().max(200).optional(),
	tailLines: z.number().int().min(0).max(maxTailLines).optional(),
	/** Feature `tail-delta` (sent only to a host that lists it): output pushes as deltas (wire/tail-delta.ts). */
	tailDelta: z.literal(true).optional(),
});
export type ClientHello = z.infer<typeof clientHelloSchema>;

/**
 * Clients that come for an answer and go (their hello's `client`): they are never the dashboard
 * a dashboard's host waits for in its first-client grace (host/main.ts).
 */
export const scriptClients: readonly string[] = ['wait', 'cancel', 'spend'];

/** Only the version is read first, so that another version is refused by name and not as malformed. */
const versionOnly = z.looseObject({type: z.literal('hello'), protocol: z.number().int()});

export type ParsedClientLine =
	| {kind: 'hello'; hello: ClientHello}
	| {kind: 'other-version'; protocol: number}
	| {kind: 'request'; request: Request}
	| {kind: 'detach'; reason: LeaveReason}
	| {kind: 'invalid'; reason: string};

/** One line from a client, before (expectHello) or after its hello. */
export function parseClientLine(line: string, expectHello: boolean): ParsedClientLine {
	let data: unknown;
	try {
		data = JSON.parse(line);
	} catch {
		return {kind: 'invalid', reason: 'not JSON'};
	}

	if (expectHello) {
		const version = versionOnly.safeParse(data);
		if (!version.success) {
			return {kind: 'invalid', reason: 'the first message must be hello with the protocol version'};
		}

		if (version.data.protocol !== protocolVersion) {
			return {kind: 'other-version', protocol: version.data.protocol};
		}

		const hello = clientHelloSchema.safeParse(data);
		return hello.success ? {kind: 'hello', hello: hello.data} : {kind: 'invalid', reason: `hello: ${issueText(hello.error)}`};
	}

	if (typeof data === 'object' && data !== null && 'type' in data && data.type === 'detach') {
		const detach = detachSchema.safeParse(data);
		return detach.success ? {kind: 'detach', reason: detach.data.reason} : {kind: 'invalid', reason: `detach: ${issueText(detach.error)}`};
	}

	const request = requestSchema.safeParse(data);
	return request.success ? {kind: 'request', request: request.data} : {kind: 'invalid', reason: issueText(request.error)};
}

function issueText(error: z.ZodError): string {
	const issue = error.issues[0];
	return issue ? `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'invalid message';
}

/** An event as the host forwards it: `seq` counts every event the runner announced, from 1, with no gaps. */
export type SequencedEvent = {seq: number; event: BatchEvent};

/** What a batch is and how it runs, as the host serves it: every snapshot carries it. */
export type BatchIdentity = {
	plan: RoutePlan;
	runId: string;
	runDir: string;
	concurrency: number;
	graceMs: number;
	canSteer: boolean;
	canReroute: boolean;
	/** Who started the batch when not the operator at a terminal: the MCP client's name (the dashboard's header shows it). */
	origin?: string | undefined;
};

/** Only the identity of something that holds more (the host's batch also holds its runner). */
export function batchIdentity({plan, runId, runDir, concurrency, graceMs, canSteer, canReroute, origin}: BatchIdentity): BatchIdentity {
	return {plan, runId, runDir, concurrency, graceMs, canSteer, canReroute, ...(origin === undefined ? {} : {origin})};
}

export type BatchSnapshot = BatchIdentity & {
	/** The compacted history: every event but the older task.telemetry and task.spend of each task, in seq order. */
	events: SequencedEvent[];
	/** Every task's pane as the host last had it (tailLines lines each). */
	outputs: Record<string, OutputSnapshot>;
	routing: DelegationConfig | null;
	profiles: string[] | null;
	/** The newest event's seq in this snapshot (0: none yet): the next live event is seq + 1. */
	seq: number;
};

export type ReplyValue = boolean | null | OutputRange | {line: number | null} | SteerOutcome | {ok: boolean; message: string} | undefined;

/** Messages host → client. */
export type HostMessage =
	/** `features`: what the host understands beyond protocol 1 as first released (absent: nothing). */
	| {type: 'hello'; protocol: number; runId: string; features?: string[]}
	| ({type: 'snapshot'} & BatchSnapshot)
	| {type: 'event'; seq: number; event: BatchEvent}
	/** Whole tails (OutputSnapshot), or deltas to a client that asked for them (tailDelta). */
	| {type: 'output'; changes: Record<string, OutputSnapshot | OutputDelta>}
	/** The routing as it now stands, sent before the reply or config message that changed it. */
	| {type: 'routing'; routing: DelegationConfig | null; profiles: string[] | null}
	| {type: 'config'; outcome: SteerOutcome}
	| {type: 'reply'; rid: number; ok: true; value: ReplyValue}
	| {type: 'reply'; rid: number; ok: false; error: string}
	/** The last line before the host closes this client: why; `hostEnds` after a detach when the host ends with it. */
	| {type: 'bye'; reason: string; hostEnds?: boolean};

const outputSnapshotSchema = z.object({version: z.number(), totalLines: z.number(), tail: z.array(z.string()), errorLine: z.string().nullable(), lastOutputAt: z.number().nullable()});
const outputDeltaSchema = z.object({version: z.number(), totalLines: z.number(), from: z.number(), fresh: z.array(z.string()), unfinished: z.array(z.string()), kept: z.number(), errorLine: z.string().nullable(), lastOutputAt: z.number().nullable()});
const eventEnvelope = z.looseObject({type: z.string()});

/** What a client checks of the host's lines: the envelope and the parts it reads itself. */
export const hostMessageSchema = z.discriminatedUnion('type', [
	z.object({type: z.literal('hello'), protocol: z.number(), runId: z.string(), features: z.array(z.string()).optional()}),
	z.looseObject({type: z.literal('snapshot'), runId: z.string(), runDir: z.string(), seq: z.number().int(), events: z.array(z.object({seq: z.number().int(), event: eventEnvelope})), outputs: z.record(z.string(), outputSnapshotSchema), plan: z.looseObject({tasks: z.array(z.unknown())})}),
	z.object({type: z.literal('event'), seq: z.number().int(), event: eventEnvelope}),
	z.object({type: z.literal('output'), changes: z.record(z.string(), z.union([outputDeltaSchema, outputSnapshotSchema]))}),
	z.object({type: z.literal('routing'), routing: z.looseObject({mode: z.string()}).nullable(), profiles: z.array(z.string()).nullable()}),
	z.object({type: z.literal('config'), outcome: z.looseObject({ok: z.boolean(), message: z.string()})}),
	z.object({type: z.literal('reply'), rid, ok: z.boolean(), value: z.unknown().optional(), error: z.string().optional()}),
	z.object({type: z.literal('bye'), reason: z.string(), hostEnds: z.boolean().optional()}),
]);

/** A message as one line of the stream. */
export function encodeLine(message: HostMessage | ClientHello | Request | DetachMessage): string {
	return `${JSON.stringify(message)}\n`;
}
