// What the agent reads about each tool. The tool names are an interface (other people's agents and
// skills call them): never rename one. `delegate`'s description carries the routes as they stand.
import type {RoutesView} from './routes-view.js';

export type ToolName = 'routes' | 'delegate' | 'batch_status' | 'batch_wait' | 'task_output' | 'cancel' | 'batches';

export const descriptions: Record<ToolName, string> = {
	routes: 'The routing the operator configured, read now: the active mode, each route (name, what it is for, model/provider/reasoning effort or profile) in config order, and the default. Call it again whenever you need the current routes: the operator may edit them while you work.',
	delegate: 'Start a batch of subagent tasks, each run in parallel as its own Hermes process on the route you choose for it. Returns at once with the batch id and each task\'s route (or why it was refused); set wait_s to wait for the results. The operator can watch and steer the batch in hermes-delegate\'s dashboard.',
	batch_status: 'Where each task of a batch stands: status, route, attempt, seconds elapsed and quiet, spend so far (unknown when Hermes has not said), and its last output lines.',
	batch_wait: 'Wait until the batch has finished (or, with until "any", the next task has), at most timeout_s, then return the status and each finished task\'s result. When it times out the batch goes on: call it again.',
	task_output: 'A window of one task\'s output, plain text: the last lines, lines from an offset, or only the lines containing a search text.',
	cancel: 'Stop one task (task_id) or the whole batch: the task\'s process group gets SIGTERM, then SIGKILL after the grace period (at once with kill). Returns how each stopped task ended.',
	batches: 'The newest batches of this Hermes home, live and finished, with who started them: to find your work again after a restart.',
};

/** `delegate`'s description with the routes it can choose from, as the operator described them. */
export function delegateDescription(view: RoutesView): string {
	if (view.route_field === null || view.routes.length === 0) {
		const on = view.routes[0] ? `Hermes's own delegation settings (${view.routes[0].model})` : 'the parent\'s own model';
		return `${descriptions.delegate}\nRouting mode: ${view.mode}; every task runs on ${on}: there is no route to choose.`;
	}

	const lines = view.routes.map(route => `- ${route.name}: ${route.description}`);
	return `${descriptions.delegate}\nRouting mode: ${view.mode}. Pick each task's route in "${view.route_field}" by what the operator wrote about it:\n${lines.join('\n')}${view.default ? `\nWithout one a task takes ${view.default}.` : ''}`;
}
