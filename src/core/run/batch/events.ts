// The batch's listeners, and the events that come before there is anyone to tell: a task can
// report telemetry or be re-planned before start() has written plan.json and said batch.planned,
// and every listener expects batch.planned first. So until opened, events wait in order.
// A listener that throws must not take the batch down with it (its processes would be left to
// nobody, its results never written): the exception is kept, every other listener still hears
// the event, and the runner reports it once the results are safe (throwFailure).
import type {BatchEvent} from '../../types.js';
import {messageOf} from '../../errors.js';

export type BatchListener = (event: BatchEvent) => void;

export class BatchEvents {
	private readonly listeners = new Set<BatchListener>();
	private early: BatchEvent[] | undefined = [];
	private failure: {error: unknown} | undefined;
	/** The first failure ever, for the report's warnings (throwFailure clears only what it rethrows). */
	private firstFailure: string | undefined;

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
			try {
				listener(event);
			} catch (error) {
				this.failure ??= {error};
				this.firstFailure ??= `a listener of the batch's events threw on ${event.type}: ${messageOf(error)}`;
			}
		}
	}

	/** What the first listener that threw said, as a warning for the report. */
	get problem(): string | undefined {
		return this.firstFailure;
	}

	/** Throws what a listener threw since the last call, if anything: `resultsAt` says where the results, safe by now, went. */
	throwFailure(resultsAt: string): void {
		const failure = this.failure;
		this.failure = undefined;
		if (failure) {
			throw new Error(`a listener of the batch's events threw: ${messageOf(failure.error)}; the batch went on and ${resultsAt}`, {cause: failure.error});
		}
	}
}
