// Which tasks of a batch have ended, from a connection's events: subscribed before anything is
// asked of the host (a cancel, say), so that no task.finished is missed. `cancel` and the MCP
// server's cancel tool wait on it for the tasks they stopped.
import type {BatchEvent} from '../core/types.js';
import type {BatchConnection} from './connection.js';

export type Ends = {next(ids: ReadonlySet<string>): Promise<Array<Extract<BatchEvent, {type: 'task.finished'}>>>};

/** task.finished events from now on (subscribed before anything is asked, so none is missed). */
export function endedEvents(connection: BatchConnection): Ends {
	const seen: Array<Extract<BatchEvent, {type: 'task.finished'}>> = [];
	let wake = () => undefined as void;
	connection.source.subscribe(event => {
		if (event.type === 'task.finished') {
			seen.push(event);
			wake();
		}
	});
	let closed = false;
	void connection.closed.then(() => {
		closed = true;
		wake();
	});
	return {
		async next(ids) {
			while (!closed && !seen.some(event => ids.has(event.id))) {
				await new Promise<void>(resolve => {
					wake = resolve;
				});
			}

			const found = seen.filter(event => ids.has(event.id));
			seen.splice(0, seen.length, ...seen.filter(event => !ids.has(event.id)));
			return found;
		},
	};
}
