// The events a newly attached client must replay to stand where the in-process store stands:
// every event, except that a task's telemetry is a whole snapshot, so only its newest is kept
// (a stream-json batch sends dozens a second; the history must not grow with them).
import type {BatchEvent} from '../core/types.js';
import type {SequencedEvent} from './protocol.js';

export class EventHistory {
	private lastSeq = 0;
	/** By seq; a Map keeps insertion order, and an older telemetry leaves it in O(1). */
	private readonly kept = new Map<number, SequencedEvent>();
	private readonly telemetryAt = new Map<string, number>();

	add(event: BatchEvent): SequencedEvent {
		const entry = {seq: ++this.lastSeq, event};
		if (event.type === 'task.telemetry') {
			const older = this.telemetryAt.get(event.id);
			if (older !== undefined) {
				this.kept.delete(older);
			}

			this.telemetryAt.set(event.id, entry.seq);
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
