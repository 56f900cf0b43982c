// Each task's status as a live run's runner host has it, for `logs RUN`: the run folder's process
// records say that an agent process ended, not whether its task failed or succeeded.
import {storeFromSnapshot} from '../client/attach-store.js';
import {connectToBatch} from '../client/connection.js';

/** Task id → status; undefined when the host ended between the look and the connect (the folder says the rest). */
export async function liveStatuses(socket: string): Promise<Record<string, string> | undefined> {
	let connection;
	try {
		connection = await connectToBatch(socket, {client: 'logs'});
	} catch {
		return undefined;
	}

	try {
		const {tasks} = storeFromSnapshot(connection).getState();
		return Object.fromEntries(Object.entries(tasks).map(([id, task]) => [id, task.status]));
	} finally {
		connection.close();
	}
}
