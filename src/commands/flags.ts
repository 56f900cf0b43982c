// The flags of every subcommand, as commander hands them over: one schema per command, checked
// at the edge (cli.ts) so a flag renamed in cli.ts but not here fails at once instead of arriving
// as undefined; and the checks of the values that come as text, each naming its flag and the fix.
import {z} from 'zod';
import {InputError} from '../core/errors.js';
import {dashboardAgentNice} from '../core/process/priority.js';

const text = z.string().optional();
const flag = z.boolean().optional();

// Strict: a key commander sets that no schema knows is a flag added in cli.ts and not here.
const batchShape = {
	config: text,
	hermesBin: text,
	concurrency: text,
	sequential: flag,
	grace: text,
	timeout: text,
	failFast: flag,
	strict: flag,
	demo: flag,
	logLimit: text,
	budgetUsd: text,
	budgetTokens: text,
	stuckTimeout: text,
};
export const batchOptions = z.strictObject(batchShape);
// Where tasks run on worker hosts, and how NATS is reached (distributed/auth.ts).
const natsShape = {nats: text, natsCreds: text, natsTlsCa: text, natsTlsCert: text, natsTlsKey: text};
export const runOptions = z.strictObject({...batchShape, ...natsShape, dryRun: flag, jsonl: flag, json: flag, detach: flag});
export const tuiOptions = z.strictObject({...batchShape, ...natsShape, theme: text, exitWhenDone: flag, agentNice: text, mouse: flag});
export const logsOptions = z.strictObject({follow: flag, raw: flag, attempt: text});
export const doctorOptions = z.strictObject({config: text, hermesBin: text, json: flag});
export const gcOptions = z.strictObject({dryRun: flag, grace: text});
// `config`'s own flags reach its subcommands too (optsWithGlobals).
const configShape = {config: text, json: flag, show: flag};
export const configOptions = z.strictObject(configShape);
const routeFieldsShape = {...configShape, description: text, model: text, provider: text, reasoning: text, default: flag};
export const addRouteOptions = z.strictObject(routeFieldsShape);
export const routeEditOptions = z.strictObject({
	...routeFieldsShape,
	/** Optional keys to remove from the route (`route --clear provider reasoning_effort`). */
	clear: z.array(z.string()).optional(),
	/** Which list NAME is in, when it is in both. */
	in: text,
});
export const removeRouteOptions = z.strictObject({...configShape, in: text});
// The commands that reach a batch through its runner host.
export const attachOptions = z.strictObject({theme: text, exitWhenDone: flag, mouse: flag});
export const lsOptions = z.strictObject({json: flag});
export const spendOptions = z.strictObject({json: flag});
export const waitOptions = z.strictObject({timeout: text, jsonl: flag});
export const cancelOptions = z.strictObject({kill: flag});
// `mcp`: run's batch flags that apply to every batch the server starts.
export const mcpOptions = z.strictObject({config: text, hermesBin: text, concurrency: text, grace: text, timeout: text, budgetUsd: text, budgetTokens: text, logLimit: text, stuckTimeout: text});
export const setupOptions = z.strictObject({profile: text, dryRun: flag});
export const workerOptions = z.strictObject({...natsShape, nats: z.string(), concurrency: text, name: text, hermesBin: text, heartbeat: text});
export type NatsOptions = {[K in keyof typeof natsShape]?: string | undefined};

export type BatchOptions = z.infer<typeof batchOptions>;
export type RunOptions = z.infer<typeof runOptions>;
export type TuiOptions = z.infer<typeof tuiOptions>;
export type LogsOptions = z.infer<typeof logsOptions>;
export type DoctorOptions = z.infer<typeof doctorOptions>;
export type GcOptions = z.infer<typeof gcOptions>;
export type ConfigOptions = z.infer<typeof configOptions>;
export type AttachOptions = z.infer<typeof attachOptions>;
export type LsOptions = z.infer<typeof lsOptions>;
export type SpendOptions = z.infer<typeof spendOptions>;
export type WaitOptions = z.infer<typeof waitOptions>;
export type CancelOptions = z.infer<typeof cancelOptions>;
export type WorkerOptions = z.infer<typeof workerOptions>;
export type McpOptions = z.infer<typeof mcpOptions>;
export type SetupOptions = z.infer<typeof setupOptions>;
/** The flags of `config route`, `add-route` and `remove-route` (not a route's `hermes chat` flags: core/hermes/flags.ts). */
export type RouteEditOptions = z.infer<typeof routeEditOptions>;

/**
 * Commander's options for `command`, checked against its schema. A mismatch is our bug (cli.ts
 * and this file disagree), not the operator's: commander has already refused unknown flags.
 */
export function optionsOf<T extends z.ZodType>(schema: T, options: unknown, command: string): z.output<T> {
	const parsed = schema.safeParse(options);
	if (!parsed.success) {
		throw new Error(`the options of \`${command}\` do not match commands/flags.ts: ${z.prettifyError(parsed.error)}`);
	}

	return parsed.data;
}

export function parseNumber(raw: string, flag: string, rules: {integer?: boolean; min: number; exclusiveMin?: boolean}): number {
	const value = Number(raw);
	const tooSmall = rules.exclusiveMin ? value <= rules.min : value < rules.min;
	if (raw.trim() === '' || !Number.isFinite(value) || (rules.integer && !Number.isInteger(value)) || tooSmall) {
		const kind = rules.integer ? 'a whole number' : 'a number';
		throw new InputError(`${flag} must be ${kind} ${rules.exclusiveMin ? 'above' : 'of at least'} ${rules.min}, got "${raw}"`, {}, `e.g. ${flag} ${rules.integer ? 4 : 2.5}`);
	}

	return value;
}

/** --agent-nice: 0 to 19, default dashboardAgentNice (see core/process/priority.ts). */
export function agentNiceOption(text: string | undefined): number {
	if (text === undefined) {
		return dashboardAgentNice;
	}

	const value = Number(text);
	if (!/^\d+$/.test(text.trim()) || value > 19) {
		throw new InputError(`--agent-nice: ${JSON.stringify(text)} is not a niceness from 0 to 19`, {}, `pass a whole number from 0 (agents keep their priority) to 19; the default is ${dashboardAgentNice}`);
	}

	return value;
}
