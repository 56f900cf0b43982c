// When a batch has finished: start() begins the first round; a round ends once every task handed
// to the concurrency limit has ended (tasks queued while it waits included) and the results are
// written, and then batch.finished is announced. `run` exits there. The dashboard keeps the
// batch: a retry (R) after the finish re-opens it for another round, which ends the same way,
// with results.json rewritten. whenSettled() is how the dashboard waits for the last one.
import type {BatchReport} from '../../types.js';

export type RoundHooks = {
	/** Writes the round up: plan.json settled, the report built, results.json written. */
	writeUp: () => Promise<BatchReport>;
	/** Announces batch.finished; may throw what a listener threw meanwhile (see BatchEvents.throwFailure). */
	announce: (report: BatchReport) => void;
};

export class BatchRounds {
	private readonly pending: Array<Promise<void>> = [];
	private phase: 'new' | 'running' | 'settled' = 'new';
	private current: Promise<BatchReport> | undefined;
	private last: BatchReport | undefined;
	/** What announcing a round threw (a listener's exception): whenSettled() says it too, whoever heard it first. */
	private failure: {error: unknown} | undefined;

	constructor(private readonly hooks: RoundHooks) {}

	/** Called by start(): the first round begins. A runner runs its batch once. */
	begin(): void {
		if (this.phase !== 'new') {
			throw new Error('start() was called twice: a BatchRunner runs its batch once; make a new runner for a new batch');
		}

		this.phase = 'running';
	}

	/** No round runs: the batch has finished (for now, if it may be re-opened). */
	get settled(): boolean {
		return this.phase === 'settled';
	}

	/** batch.finished has been announced at least once: a refusal then stands, whatever re-plans follow. */
	get finishedOnce(): boolean {
		return this.last !== undefined;
	}

	/** A task's run, handed to the concurrency limit: the round waits for it. */
	add(work: Promise<void>): void {
		this.pending.push(work);
	}

	/** Waits for this round's tasks, writes it up and announces it; resolves with its report. */
	wait(): Promise<BatchReport> {
		const round = this.settle();
		this.current = round;
		// Whoever waits for the round sees a rejection; a re-opened round nobody waits for yet must not crash the process with it.
		round.catch(() => undefined);
		return round;
	}

	/** A retry after the finish: another round begins, for the task the caller queues next (synchronously). */
	reopen(): void {
		this.phase = 'running';
		void this.wait();
	}

	/** The report of the last round, once no round runs any more; rejects if announcing any round threw. */
	async whenSettled(): Promise<BatchReport> {
		while (this.current) {
			await this.current;
		}

		if (this.failure) {
			throw this.failure.error;
		}

		if (!this.last) {
			throw new Error('the batch has not finished a round: call start() first');
		}

		return this.last;
	}

	private async settle(): Promise<BatchReport> {
		for (;;) {
			// At least one turn, even with nothing pending yet: reopen() is followed at once by the task it re-opened for.
			do {
				await Promise.all(this.pending.splice(0));
			} while (this.pending.length > 0);

			const report = await this.hooks.writeUp();
			// A retry that came while the results were being written belongs to this round: wait for it too.
			if (this.pending.length === 0) {
				this.phase = 'settled';
				this.last = report;
				this.current = undefined;
				try {
					this.hooks.announce(report);
				} catch (error) {
					this.failure ??= {error};
					throw error;
				}

				return report;
			}
		}
	}
}
