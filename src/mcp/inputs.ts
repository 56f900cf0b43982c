// The tools' input: the JSON Schemas the agent reads (tools/list) and the checks its arguments get.
// The SDK is told to accept any arguments (acceptAnything below): the checks are ours, so that a
// bad call gets a tool error naming the field and the fix (isError, nothing started) rather than
// a schema library's words.
import {z} from 'zod';
import {fromJsonSchema} from '@modelcontextprotocol/server';
import type {RoutesView} from './routes-view.js';
import {routeFieldSchema} from './routes-view.js';

/** A goal and its context together, in bytes: past this a task is a document, not an instruction. */
export const maxTaskTextBytes = 128 * 1024;
export const maxWaitSeconds = 600;
/** Hermes cuts a tool call at 300 s unless its mcp_servers entry says `timeout:` (setup writes 660). */
export const defaultWaitSeconds = 240;
export const maxOutputLines = 500;

type Schema = Record<string, unknown>;

const batchId: Schema = {type: 'string', description: 'The batch id `delegate` returned (also listed by `batches`).'};
const taskId: Schema = {type: 'string', description: 'A task id from `delegate` or `batch_status` (t01, t02, …).'};

function object(properties: Record<string, Schema>, required: string[] = []): Schema {
	return {type: 'object', properties, required, additionalProperties: false};
}

/** `delegate`'s input schema for the routing as it stands: the route field is its enum, or absent. */
export function delegateSchema(view: RoutesView, maxTasks: number): Schema {
	const route = routeFieldSchema(view);
	const task = object({
		goal: {type: 'string', description: 'What the subagent must do, self-contained: it sees nothing of your conversation.'},
		context: {type: 'string', description: 'Facts, files or constraints the subagent needs, appended to the goal.'},
		name: {type: 'string', description: 'A short label shown in the dashboard and the results.'},
		timeout_s: {type: 'number', exclusiveMinimum: 0, description: 'Stop the task after this many seconds (status timed_out).'},
		characteristic: {type: 'string', description: 'coding, research, quick, reasoning or creative: picks a route when you name none.'},
		...(route ? {[route.field]: route.schema} : {}),
	}, ['goal']);
	return object({
		tasks: {type: 'array', minItems: 1, maxItems: maxTasks, items: task, description: `The tasks, each run as its own Hermes subagent in parallel (at most ${maxTasks}).`},
		wait_s: {type: 'number', minimum: 0, maximum: maxWaitSeconds, default: 0, description: 'Wait up to this many seconds for the batch to finish before answering (0: answer at once with the plan).'},
	}, ['tasks']);
}

export const staticSchemas = {
	routes: object({}),
	batch_status: object({batch_id: batchId, lines: {type: 'integer', minimum: 0, maximum: 20, default: 3, description: 'Last output lines per task.'}}, ['batch_id']),
	batch_wait: object({
		batch_id: batchId,
		until: {type: 'string', enum: ['all', 'any'], default: 'all', description: 'all: the whole batch; any: the next task to finish that this session was not given yet (at once if one has).'},
		timeout_s: {type: 'number', minimum: 0, maximum: maxWaitSeconds, default: defaultWaitSeconds, description: `Return after this many seconds even if not done (default ${defaultWaitSeconds}).`},
	}, ['batch_id']),
	task_output: object({
		batch_id: batchId,
		task_id: taskId,
		lines: {type: 'integer', minimum: 1, maximum: maxOutputLines, default: 50, description: 'How many lines.'},
		offset: {type: 'integer', minimum: 0, description: 'First line (0-based); absent: the last lines.'},
		search: {type: 'string', description: 'Only lines containing this text (any case).'},
	}, ['batch_id', 'task_id']),
	cancel: object({
		batch_id: batchId,
		task_id: {...taskId, description: 'The task to stop; absent: the whole batch (running tasks stopped, queued ones dropped).'},
		kill: {type: 'boolean', default: false, description: 'Skip the grace period: SIGKILL at once.'},
	}, ['batch_id']),
	batches: object({limit: {type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'How many of the newest batches.'}}),
} as const;

const acceptAnything = {
	getValidator<T>() {
		return (input: unknown): {valid: true; data: T; errorMessage: undefined} => ({valid: true, data: input as T, errorMessage: undefined});
	},
};

/** A schema for the SDK: advertised as written, arguments passed through to our own checks. */
export function advertised(schema: Schema) {
	// The cast: the SDK's validator type cannot say "any T" for a validator that checks nothing.
	return fromJsonSchema<Record<string, unknown>>(schema as never, acceptAnything as never);
}

export class ToolInputError extends Error {
	constructor(message: string, readonly fix: string) {
		super(message);
	}
}

/** Parses arguments with `schema`; the first problems, each with its path, as one ToolInputError. */
export function parseArgs<T extends z.ZodType>(schema: T, args: unknown, fix: string): z.output<T> {
	const parsed = schema.safeParse(args ?? {});
	if (parsed.success) return parsed.data;
	const problems = parsed.error.issues.slice(0, 5).map(issue => `${issue.path.length > 0 ? issue.path.map(part => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '') : 'arguments'}: ${issue.message}`);
	throw new ToolInputError(`bad arguments: ${problems.join('; ')}`, fix);
}

const id = z.string().trim().min(1, 'must not be empty').max(100);
export const statusArgs = z.strictObject({batch_id: id, lines: z.number().int().min(0).max(20).optional()});
export const waitArgs = z.strictObject({batch_id: id, until: z.enum(['all', 'any']).optional(), timeout_s: z.number().min(0).max(maxWaitSeconds).optional()});
export const outputArgs = z.strictObject({batch_id: id, task_id: id, lines: z.number().int().min(1).max(maxOutputLines).optional(), offset: z.number().int().min(0).optional(), search: z.string().min(1).max(200).optional()});
export const cancelArgs = z.strictObject({batch_id: id, task_id: id.optional(), kill: z.boolean().optional()});
export const batchesArgs = z.strictObject({limit: z.number().int().min(1).max(50).optional()});
export const routesArgs = z.strictObject({});
