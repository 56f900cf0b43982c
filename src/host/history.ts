// The events a newly attached client must replay to stand where the in-process store stands:
// every event, except that a task's telemetry, its live spend and the fleet are whole snapshots, so only the
// newest of each is kept (a stream-json batch sends dozens a second; the history must not grow with them).
import type {BatchEvent} from '../core/types.js';
import type {SequencedEvent} from '../wire/protocol.js';

export class EventHistory {
	private lastSeq = 0;
	/** By seq; a Map keeps insertion order, and an older snapshot leaves it in O(1). */
	private readonly kept = new Map<number, SequencedEvent>();
	/** `type:task id` → seq of the newest snapshot event of that kind for that task. */
	private readonly snapshotAt = new Map<string, number>();

	add(event: BatchEvent): SequencedEvent {
		const entry = {seq: ++this.lastSeq, event};
		if (event.type === 'task.telemetry' || event.type === 'task.spend' || event.type === 'batch.fleet') {
			const key = event.type === 'batch.fleet' ? event.type : `${event.type}:${event.id}`;
			const older = this.snapshotAt.get(key);
			if (older !== undefined) {
				this.kept.delete(older);
			}

			this.snapshotAt.set(key, entry.seq);
		}

		this.kept.set(entry.seq, entry);
		return entry;
	}

	get seq(): number {
		return this.lastSeq;
	}

	events(): SequencedEvent[] {
		return [...this.kept.values()];
	}
}
