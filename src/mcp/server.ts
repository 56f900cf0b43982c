// `hermes-delegate mcp`: the MCP server over stdio through which a parent agent delegates. Each
// tool is a thin call into client/ (the batches run under runner hosts, exactly as `run --detach`
// starts them); this file registers the tools, keeps `delegate`'s route enum and descriptions in
// step with config.yaml (tools/list_changed when they change), and sends progress and log messages.
// stdout is the protocol: nothing else may ever be written there.
import {AsyncLocalStorage} from 'node:async_hooks';
import {unwatchFile, watchFile} from 'node:fs';
import {McpServer, CLIENT_INFO_META_KEY, type LoggingLevel, type RegisteredTool} from '@modelcontextprotocol/server';
import {serveStdio} from '@modelcontextprotocol/server/stdio';
import {defaultMcpMaxTasks, settingsPath} from '../core/config/settings.js';
import {InputError, messageOf} from '../core/errors.js';
import {terminalSafe} from '../core/output/visible-text.js';
import type {McpContext} from './context.js';
import {advertised, batchesArgs, cancelArgs, delegateSchema, outputArgs, parseArgs, routesArgs, staticSchemas, statusArgs, ToolInputError, waitArgs} from './inputs.js';
import {configPathOf, readRouting, type Routing} from './routing.js';
import {routingSignature} from './routes-view.js';
import {delegate} from './delegate.js';
import {WarmHost} from './warm-host.js';
import {batches, batchStatus, batchWait, type WaitProgress} from './batch-tools.js';
import {taskOutput} from './output-tool.js';
import {cancelTasks} from './cancel-tool.js';
import {jsonResult, toolError} from './text.js';
import {delegateDescription, descriptions, type ToolName} from './descriptions.js';

type Handler = (args: unknown, progress: WaitProgress | undefined, signal: AbortSignal) => Promise<unknown> | unknown;
type ToolContext = {mcpReq: {_meta?: {progressToken?: string | number} | undefined; envelope?: Record<string, unknown> | undefined; signal: AbortSignal; notify(notification: {method: string; params?: Record<string, unknown>}): Promise<void>; log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>}};
type RequestLog = (level: LoggingLevel, message: string) => Promise<void>;

export type ServeOptions = Omit<McpContext, 'origin' | 'log' | 'reported' | 'launch'> & {version: string; pollMs?: number};

export async function serveMcp(options: ServeOptions): Promise<void> {
	const instances = new Set<{server: McpServer; delegateTool: RegisteredTool}>();
	const requestLog = new AsyncLocalStorage<RequestLog>();
	let origin: string | undefined;
	const warmHost = new WarmHost(options.env);
	const context: McpContext = {
		env: options.env,
		hermesHome: options.hermesHome,
		options: options.options,
		reported: new Map(),
		launch: async spec => warmHost.launch(spec),
		origin: () => origin ?? [...instances].map(({server}) => server.server.getClientVersion()?.name).find(Boolean),
		// Logging, on every protocol revision: a line on stderr, which is where the SDK tells stdio
		// servers to log from 2026-07-28 on (MCP logging is deprecated there); and MCP logging as
		// well: inside a tool call through the call's own logger (on 2026-07-28 it sends only when
		// the call's _meta asks a level), outside one to the 2025-era sessions only.
		log(level, message) {
			process.stderr.write(`hermes-delegate mcp: ${level}: ${terminalSafe(message).replaceAll('\n', ' ')}\n`);
			const inCall = requestLog.getStore();
			if (inCall) {
				void inCall(level, message).catch(() => undefined);
				return;
			}

			for (const {server} of instances) {
				if (server.isConnected() && !servesModernEra(server)) void server.sendLoggingMessage({level, logger: 'hermes-delegate', data: message}).catch(() => undefined);
			}
		},
	};

	let routing: Routing | undefined = tryRouting(context);
	const factory = () => {
		const server = new McpServer({name: 'hermes-delegate', version: options.version}, {capabilities: {tools: {listChanged: true}, logging: {}}});
		const register = (name: ToolName, handler: Handler, annotations: Record<string, boolean>) => server.registerTool(name, {
			description: name === 'delegate' && routing ? delegateDescription(routing.view) : descriptions[name],
			inputSchema: advertised(name === 'delegate' ? delegateSchema(routing?.view ?? emptyView, routing?.maxTasks ?? defaultMcpMaxTasks) : staticSchemas[name]),
			annotations,
		}, async (args: unknown, ctx: ToolContext) => {
			const client = ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY] as {name?: unknown} | undefined;
			if (typeof client?.name === 'string') origin = client.name;
			const token = ctx.mcpReq._meta?.progressToken;
			const progress: WaitProgress | undefined = token === undefined ? undefined : (done, total, message) => {
				void ctx.mcpReq.notify({method: 'notifications/progress', params: {progressToken: token, progress: done, total, message}}).catch(() => undefined);
			};

			const log: RequestLog = async (level, message) => ctx.mcpReq.log(level, message, 'hermes-delegate');
			return requestLog.run(log, async () => call(context, name, () => handler(args, progress, ctx.mcpReq.signal)));
		});
		register('routes', args => {
			parseArgs(routesArgs, args, 'routes takes no arguments');
			const now = readRouting(context);
			return {...now.view, max_tasks: now.maxTasks, ...(now.warnings.length > 0 ? {warnings: now.warnings} : {})};
		}, {readOnlyHint: true});
		const delegateTool = register('delegate', async (args, progress, signal) => delegate(context, args, progress, signal), {readOnlyHint: false, destructiveHint: false, openWorldHint: true});
		register('batch_status', async args => batchStatus(context, parseArgs(statusArgs, args, 'pass {"batch_id": "…"}')), {readOnlyHint: true});
		register('batch_wait', async (args, progress, signal) => batchWait(context, parseArgs(waitArgs, args, 'pass {"batch_id": "…", "timeout_s": 240}'), progress, signal), {readOnlyHint: true});
		register('task_output', async args => taskOutput(context, parseArgs(outputArgs, args, 'pass {"batch_id": "…", "task_id": "t01"}')), {readOnlyHint: true});
		register('cancel', async args => cancelTasks(context, parseArgs(cancelArgs, args, 'pass {"batch_id": "…"} and optionally "task_id"')), {readOnlyHint: false, destructiveHint: true});
		register('batches', args => batches(context, parseArgs(batchesArgs, args, 'pass {} or {"limit": 10}')), {readOnlyHint: true});
		// serveStdio may make an instance only to answer a probe: every one is kept in step, and the
		// log goes to those connected.
		instances.add({server, delegateTool});
		return server;
	};

	// config.yaml (the routes) and delegate.yaml (the task limit) are what the tool list says: a
	// change there, by the dashboard, `hermes-delegate config` or an editor, changes the list.
	const refresh = () => {
		const now = tryRouting(context);
		if (!now || signature(now) === signature(routing)) return;
		routing = now;
		for (const {delegateTool} of instances) {
			delegateTool.update({description: delegateDescription(now.view), paramsSchema: advertised(delegateSchema(now.view, now.maxTasks))});
		}

		context.log('info', `the routing changed (mode ${now.view.mode}: ${now.view.routes.map(route => route.name).join(', ') || 'no routes'}): the tool list was updated`);
	};

	const watched = [configPathOf(context), settingsPath(context.hermesHome)];
	for (const file of watched) watchFile(file, {interval: options.pollMs ?? 500, persistent: false}, refresh);
	const handle = serveStdio(factory, {onerror: answerMalformed});
	warmHost.warm();
	try {
		// The client closing its end (or dying) ends the session; the batches run on under their hosts.
		await new Promise<void>(resolve => {
			process.stdin.once('end', resolve);
			process.stdin.once('close', resolve);
		});
	} finally {
		warmHost.close();
		for (const file of watched) unwatchFile(file, refresh);
		await handle.close();
	}
}

/**
 * A line that is JSON but no JSON-RPC message reaches here, unanswered by the SDK: the client is
 * told (-32600, id null, as JSON-RPC 2.0 says for a request whose id cannot be read) rather than
 * left waiting. A line that is no JSON at all the SDK's reader drops without a word.
 */
function answerMalformed(error: Error): void {
	const invalid = error.name === 'ZodError' || error.name === 'SyntaxError';
	process.stderr.write(`hermes-delegate mcp: ${invalid ? 'a message that is no JSON-RPC request was refused' : messageOf(error).split('\n')[0]}\n`);
	if (invalid) {
		const code = error.name === 'SyntaxError' ? -32_700 : -32_600;
		process.stdout.write(`${JSON.stringify({jsonrpc: '2.0', id: null, error: {code, message: code === -32_700 ? 'Parse error' : 'Invalid Request: not a JSON-RPC 2.0 message'}})}\n`);
	}
}

/** The first protocol revision of the era without session-wide logging (revisions are dates: they sort as text). */
const firstModernRevision = '2026-07-28';

/** A 2026-07-28 session asks for log messages per call only: nothing unasked is sent to it. */
function servesModernEra(server: McpServer): boolean {
	const revision = server.server.getNegotiatedProtocolVersion();
	return revision !== undefined && revision >= firstModernRevision;
}

const emptyView = {mode: 'default' as const, route_field: null, routes: [], default: null};

function signature(routing: Routing | undefined): string {
	return routing ? `${routingSignature(routing.view)}|${routing.maxTasks}` : '';
}

function tryRouting(context: McpContext): Routing | undefined {
	try {
		return readRouting(context);
	} catch (error) {
		context.log('warning', `the routing cannot be read: ${error instanceof InputError ? error.describe() : messageOf(error)}`);
		return undefined;
	}
}

/** A handler's answer as a tool result; bad input as a tool error (nothing was started). */
async function call(context: McpContext, name: string, run: () => Promise<unknown> | unknown) {
	try {
		return jsonResult(await run());
	} catch (error) {
		if (error instanceof ToolInputError) return toolError(error.message, error.fix);
		if (error instanceof InputError) return toolError(error.describe());
		context.log('error', `${name}: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
		return toolError(`internal error of hermes-delegate in ${name}: ${messageOf(error)}`, 'this is a bug; the batch state is unchanged unless the message says otherwise');
	}
}

export type {LoggingLevel};
