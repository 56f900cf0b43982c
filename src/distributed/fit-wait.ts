// An offered attempt no worker has claimed yet, watched against the fleet. Until a worker claims it
// the task is queued, not running (it holds no process anywhere), and its pane says what it waits
// for (task.waiting): a free slot on one of the live workers that can run it, or, while no live
// worker can (the only fitting worker left, say), a worker that can — and after `waitMs` without
// one it gives up with each worker's reason. A fitting worker that comes back in time takes it as
// usual: the wait is then over.
import type {PlannedTask} from '../core/types.js';
import type {Fleet} from './fleet.js';

export type FitWaitHooks = {
	/** What it waits for, as the pane says it. */
	waiting: (waitingFor: string) => void;
	/** No live worker could run it for the whole wait: why, for its result. */
	giveUp: (why: string) => void;
};

export class FitWait {
	private said: string | undefined;
	private timer: NodeJS.Timeout | undefined;
	private readonly stopWatching: () => void;

	constructor(private readonly task: PlannedTask, private readonly fleet: Fleet, private readonly waitMs: number, private readonly hooks: FitWaitHooks) {
		// Only who is live matters here, not their free slots (which change with every start and end).
		this.stopWatching = fleet.onChange(who => {
			if (who) this.check();
		});
		this.check();
	}

	/** Claimed or ended: nothing more to watch. */
	stop(): void {
		this.stopWatching();
		clearTimeout(this.timer);
	}

	private check(): void {
		const {live, reasons} = this.fleet.fitting(this.task);
		const seconds = Math.round(this.waitMs / 1000);
		const waitingFor = live.length > 0 ? offeredTo(live) : `waiting for a worker that can run it (${reasons.join('; ')}); gives up ${seconds} s after the last one left`;
		if (waitingFor !== this.said) {
			this.said = waitingFor;
			this.hooks.waiting(waitingFor);
		}

		if (live.length > 0) {
			clearTimeout(this.timer);
			this.timer = undefined;
			return;
		}

		this.timer ??= setTimeout(() => {
			this.timer = undefined;
			const now = this.fleet.fitting(this.task);
			if (now.live.length === 0) this.hooks.giveUp(`not started: no live worker could run it for ${seconds} s (${now.reasons.join('; ')}); R runs it again once one can (executor.worker_wait in delegate.yaml sets the wait)`);
		}, this.waitMs);
	}
}

/** The names shown of the workers an offer waits on: a few, then how many more. */
const namesShown = 4;

/** Offered, no worker has claimed it yet: every one that can run it is busy (or has not pulled it yet). */
function offeredTo(live: readonly string[]): string {
	const names = live.length > namesShown ? `${live.slice(0, namesShown).join(', ')} and ${live.length - namesShown} more` : live.join(', ');
	return `offered: waiting for a free slot on a worker that can run it (${names})`;
}
