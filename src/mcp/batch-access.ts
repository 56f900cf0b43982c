// Reaching a batch by its id for the tools: live through its runner host's socket (one short
// connection per call: the agent's polling holds no connection, so a host whose batch has ended
// is free to go), finished from its results.json.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {BatchReport} from '../core/types.js';
import {connectToBatch, type BatchConnection} from '../client/connection.js';
import {chooseRun, describeRun, runHomes, type RunEntry} from '../client/live-runs.js';
import {followBatch, type FollowedBatch} from '../client/batch-view.js';
import type {McpContext} from './context.js';
import {ToolInputError} from './inputs.js';

export type Reached =
	| {kind: 'live'; run: RunEntry; connection: BatchConnection; batch: FollowedBatch}
	| {kind: 'finished'; run: RunEntry; report: BatchReport};

export function findBatch(context: McpContext, batchId: string): RunEntry {
	try {
		return chooseRun(runHomes(context.env), batchId, {needLive: false, command: 'read'});
	} catch (error) {
		throw new ToolInputError((error as Error).message, 'pass a batch_id that `delegate` returned or `batches` lists');
	}
}

export function readReport(dir: string): BatchReport | undefined {
	const file = path.join(dir, 'results.json');
	if (!existsSync(file)) return undefined;
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as BatchReport;
	} catch {
		return undefined; // Being replaced: the host still serves it, or will have written it whole.
	}
}

/**
 * The batch, live or finished. A host that ends between the look and the connect has written
 * results.json by then; a run that is neither (its host died) is a tool error that says so.
 */
export async function reachBatch(context: McpContext, batchId: string): Promise<Reached> {
	const found = findBatch(context, batchId);
	for (let tries = 0; tries < 20; tries++) {
		const run = describeRun(found.runId, found.hermesHome);
		if (run.state === 'live' && run.socket) {
			try {
				const connection = await connectToBatch(run.socket, {client: `mcp${context.origin() ? ` (${context.origin()})` : ''}`});
				return {kind: 'live', run, connection, batch: followBatch(connection)};
			} catch {
				// Gone between the look and the connect: look again.
			}
		}

		const report = readReport(run.dir);
		if (report && run.state !== 'live') return {kind: 'finished', run, report};
		if (run.state === 'owner died') {
			throw new ToolInputError(`batch ${run.runId} ended without results: its runner host died (killed with SIGKILL?)`, `\`hermes-delegate gc\` ends what it left running; start the tasks again with delegate`);
		}

		// A host starting or ending (no socket yet, or no results yet): a moment later it is one or the other.
		await new Promise(resolve => {
			setTimeout(resolve, 100);
		});
	}

	throw new ToolInputError(`batch ${found.runId} is not served by a runner host and has no results (it runs in a \`hermes-delegate run\` of its own)`, 'only batches started with delegate, `run --detach`, `tui` or `demo` can be followed here');
}

/** Leaves the host (it may end once we are gone, after its last write). */
export async function release(reached: Reached): Promise<void> {
	if (reached.kind === 'live') await reached.connection.leave('done');
}
