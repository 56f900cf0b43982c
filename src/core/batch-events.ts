// The batch's listeners, and the events that come before there is anyone to tell: a task can
// report telemetry or be re-planned before start() has written plan.json and said batch.planned,
// and every listener expects batch.planned first. So until opened, events wait in order.
import type {BatchEvent} from './types.js';

export type BatchListener = (event: BatchEvent) => void;

export class BatchEvents {
	private readonly listeners = new Set<BatchListener>();
	private early: BatchEvent[] | undefined = [];

	subscribe(listener: BatchListener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Announces `planned`, then what waited for it; from now on every event goes out at once. */
	open(planned: BatchEvent): void {
		const early = this.early ?? [];
		this.early = undefined;
		this.emit(planned);
		for (const event of early) {
			this.emit(event);
		}
	}

	emit(event: BatchEvent): void {
		if (this.early) {
			this.early.push(event);
			return;
		}

		for (const listener of this.listeners) {
			listener(event);
		}
	}
}
