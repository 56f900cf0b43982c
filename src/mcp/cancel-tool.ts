// cancel: the dashboard's kill cascade through the batch's host, for one task or the whole batch
// (running tasks stopped, the queue dropped); waits until those tasks have ended and says how.
import {endedEvents} from '../client/task-ends.js';
import type {McpContext} from './context.js';
import {reachBatch, release} from './batch-access.js';
import {ToolInputError} from './inputs.js';

/** Past the host's grace period and then some: a task still not ended is reported as stopping. */
const endWaitMs = 60_000;

export async function cancelTasks(context: McpContext, args: {batch_id: string; task_id?: string | undefined; kill?: boolean | undefined}) {
	const reached = await reachBatch(context, args.batch_id);
	try {
		if (reached.kind === 'finished') {
			return {batch_id: reached.run.runId, stopped: [], note: 'the batch had finished already', tasks: reached.report.results.map(result => ({id: result.id, status: result.status}))};
		}

		const {connection, batch} = reached;
		const ended = endedEvents(connection);
		const before = batch.view({lines: 0});
		const skipGrace = args.kill ?? false;
		const active = (status: string) => ['queued', 'running', 'cancelling'].includes(status);
		let asked: string[];
		if (args.task_id === undefined) {
			asked = before.tasks.filter(task => active(task.status)).map(task => task.id);
			await connection.control.shutdown({skipGrace});
		} else {
			const id = args.task_id.trim().toLowerCase();
			const task = before.tasks.find(candidate => candidate.id === id);
			if (!task) throw new ToolInputError(`batch ${reached.run.runId} has no task "${args.task_id}"`, `name one of ${before.tasks.map(candidate => candidate.id).join(', ')}`);
			if (!active(task.status)) {
				return {batch_id: reached.run.runId, stopped: [], note: `${id} had ended already`, tasks: [{id, status: task.status}]};
			}

			await connection.control.cancel(id, {skipGrace});
			asked = [id];
		}

		const how = new Map<string, string>();
		const left = new Set(asked);
		const deadline = Date.now() + endWaitMs;
		while (left.size > 0 && Date.now() < deadline) {
			let timer: NodeJS.Timeout | undefined;
			const events = await Promise.race([ended.next(left), new Promise<[]>(resolve => {
				timer = setTimeout(() => resolve([]), deadline - Date.now());
			})]);
			clearTimeout(timer);
			if (events.length === 0) break;
			for (const event of events) {
				left.delete(event.id);
				how.set(event.id, event.result.status);
			}
		}

		const after = batch.view({lines: 0});
		return {
			batch_id: reached.run.runId,
			stopped: asked,
			tasks: asked.map(id => ({id, status: how.get(id) ?? after.tasks.find(task => task.id === id)?.status ?? 'unknown'})),
		};
	} finally {
		await release(reached);
	}
}
