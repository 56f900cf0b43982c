// What a cancel of one task does, whoever asks (a client, the stuck monitor, a budget, fail-fast,
// shutdown): a queued task never starts; a running attempt is asked to stop once — its cascade, or
// for one on a worker host a stop request, whose `cancelling` comes back a round trip later — and a
// second cancel meanwhile is none, unless it is a kill (skipGrace), which ends the grace at once.
import type {TaskEntry} from './batch/tasks.js';
import type {TaskExecution} from './executor.js';
import type {StopReason} from '../types.js';

export class TaskStops {
	/** Attempts a stop was asked of. */
	private readonly asked = new WeakSet<TaskExecution>();

	/** `dropQueued`: the queued task ends cancelled, not started, and leaves the queue. */
	constructor(private readonly dropQueued: (entry: TaskEntry, reason: StopReason) => void) {}

	/** true when this call stopped something (or hastened a stop under way). */
	cancel(entry: TaskEntry, reason: StopReason, skipGrace: boolean): boolean {
		if (entry.status === 'queued') {
			this.dropQueued(entry, reason);
			return true;
		}

		if (entry.status === 'cancelling' && skipGrace) {
			entry.run?.skipGrace();
			return true;
		}

		if (entry.status !== 'running' || !entry.run) {
			return false;
		}

		if (this.asked.has(entry.run)) {
			if (skipGrace) entry.run.skipGrace();
			return skipGrace;
		}

		this.asked.add(entry.run);
		entry.run.stop(reason, skipGrace);
		return true;
	}
}
