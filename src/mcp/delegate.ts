// The `delegate` tool: checks the whole batch against the routing as it stands (a bad task is a
// tool error and nothing starts), then starts it under a runner host exactly as `run --detach`
// does (client/launch.ts; warm-host.ts keeps one started ahead) and answers with the plan: each task's route, or why it was refused.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import type {PlannedTask, RoutePlan} from '../core/types.js';
import {attachCommandFor} from '../client/live-runs.js';
import type {McpContext} from './context.js';
import {maxTaskTextBytes, maxWaitSeconds, parseArgs, ToolInputError} from './inputs.js';
import {readRouting, type Routing} from './routing.js';
import {batchWait, type WaitProgress} from './batch-tools.js';
import {plainLine} from './text.js';

const noNul = (value: string) => !value.includes('\0');
const text = z.string().refine(noNul, 'contains a NUL character, which no command-line argument can carry');
const short = text.trim().min(1, 'must not be empty').max(200);
const taskInput = z.strictObject({
	goal: text.trim().min(1, 'must not be empty: say what the subagent must do'),
	context: text.optional(),
	name: short.optional(),
	timeout_s: z.number().positive().max(7 * 86_400).optional(),
	characteristic: short.optional(),
	option: short.optional(),
	profile: short.optional(),
});
const delegateArgs = z.strictObject({tasks: z.array(taskInput).min(1, 'give at least one task'), wait_s: z.number().min(0).max(maxWaitSeconds).optional()});
type TaskInput = z.output<typeof taskInput>;

/** Every task checked against the routing; the first problems as one ToolInputError. */
function checkTasks(tasks: readonly TaskInput[], routing: Routing): void {
	const {view} = routing;
	const names = view.routes.map(route => route.name);
	if (tasks.length > routing.maxTasks) {
		throw new ToolInputError(`${tasks.length} tasks is more than the ${routing.maxTasks} one delegate call may start`, `split the work into batches of at most ${routing.maxTasks} (the limit is mcp.max_tasks in delegate.yaml)`);
	}

	const problems: string[] = [];
	tasks.forEach((task, index) => {
		const bytes = Buffer.byteLength(task.goal) + Buffer.byteLength(task.context ?? '');
		if (bytes > maxTaskTextBytes) problems.push(`tasks[${index}]: goal and context are ${Math.ceil(bytes / 1024)} KiB, over the ${maxTaskTextBytes / 1024} KiB a task may carry (write the material to a file and name it in the goal)`);
		for (const field of ['option', 'profile'] as const) {
			const wanted = task[field];
			if (wanted === undefined) continue;
			if (view.route_field !== field) {
				problems.push(`tasks[${index}].${field}: the active routing mode is ${view.mode}, which ${view.route_field ? `takes "${view.route_field}"` : 'has no routes to choose'}`);
			} else if (!names.includes(field === 'profile' ? wanted.toLowerCase() : wanted)) {
				problems.push(`tasks[${index}].${field}: "${plainLine(wanted)}" is not a route of ${view.mode} (routes: ${names.join(', ')})`);
			}
		}
	});
	if (problems.length > 0) {
		throw new ToolInputError(`nothing was started: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`, `call routes to see the routes as they stand, and name one of them${view.route_field ? ` in "${view.route_field}"` : ''} or leave the route out`);
	}
}

function asTaskFile(task: TaskInput) {
	const {timeout_s: timeout, ...rest} = task;
	return {...rest, ...(timeout === undefined ? {} : {timeout})};
}

function plannedTask(task: PlannedTask) {
	const name = task.spec.name === undefined ? null : plainLine(task.spec.name);
	if (task.decision.refused) return {id: task.id, name, refused: plainLine(task.decision.reason)};
	const {effective, decision} = task;
	return {
		id: task.id,
		name,
		route: {name: decision.route?.name ?? null, kind: decision.route?.kind ?? (decision.modelOverride ? 'explicit' : 'parent'), provider: effective.provider, model: effective.model, reasoning_effort: effective.reasoning_effort, profile: effective.profile},
		why: plainLine(decision.reason),
	};
}

export async function delegate(context: McpContext, args: unknown, progress?: WaitProgress, signal?: AbortSignal) {
	const {tasks, wait_s: waitS} = parseArgs(delegateArgs, args, 'pass {"tasks": [{"goal": "…"}, …]}; tools/list shows the schema');
	const routing = readRouting(context);
	checkTasks(tasks, routing);
	const options = Object.fromEntries(Object.entries(context.options).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
	// The client's own name for itself: shown by ls and the dashboard, so one short line.
	const origin = context.origin()?.replaceAll(/\s+/g, ' ').trim().slice(0, 100) || undefined;
	const status = await context.launch({command: 'run', taskArg: '-', options, stdinIsTTY: false, stdin: JSON.stringify(tasks.map(asTaskFile)), color: false, ...(origin ? {origin} : {})});
	if (status.type === 'refused') {
		throw new ToolInputError(`nothing was started: ${status.message.replace(/^hermes-delegate: /, '').trim()}`, 'fix what the message names and call delegate again');
	}

	const plan = JSON.parse(readFileSync(path.join(status.runDir, 'plan.json'), 'utf8')) as RoutePlan;
	context.log('info', `batch ${status.runId}: ${plan.tasks.length} task(s) started for ${origin ?? 'an MCP client'}`);
	const started = {
		batch_id: status.runId,
		watch: attachCommandFor(status.runId),
		tasks: plan.tasks.map(plannedTask),
		...(status.warnings.length > 0 ? {warnings: status.warnings.map(plainLine)} : {}),
	};
	if (!waitS) return started;
	const waited = await batchWait(context, {batch_id: status.runId, until: 'all', timeout_s: waitS}, progress, signal);
	return {...started, ...waited};
}
