// The batch's queue (instead of a generic concurrency limit): tasks wait here in the order they
// were queued, and each time something changes (a task queued, one ended, a budget reached) the
// queue asks admission.ts about every waiting task, so a task held back by its provider's slots
// does not hold back the tasks behind it on other providers.
import {admit, homeOf, providerOf, type AdmissionState} from '../admission.js';
import type {PlannedTask} from '../../types.js';

export type QueueHooks = {
	/** The task as it is now (a re-plan may change it while it waits); undefined: it no longer waits (cancelled). */
	waitingTask: (id: string) => PlannedTask | undefined;
	/** Runs the attempt; resolves when it has ended. */
	start: (id: string) => Promise<void>;
	refuse: (id: string, reason: string) => void;
	/** What a waiting task waits for changed. */
	waiting: (id: string, waitingFor: string | null) => void;
};

type Waiting = {id: string; done: () => void; waitingFor: string | null};

export class BatchQueue {
	private readonly queue: Waiting[] = [];
	/** Running attempts: task id → the provider it holds a slot of, and the Hermes home its session is open in. */
	private readonly running = new Map<string, {provider: string | null; home: string}>();
	private pumpDue = false;

	constructor(private readonly limits: Omit<AdmissionState, 'running' | 'runningOn' | 'runningIn'>, private readonly hooks: QueueHooks) {}

	/** Queues the task; resolves once it has run, or left the queue without running. */
	add(id: string): Promise<void> {
		return new Promise(resolve => {
			this.queue.push({id, done: resolve, waitingFor: null});
			this.pumpSoon();
		});
	}

	/** Something the decision reads changed (a budget was reached, a task was cancelled): ask again. */
	pumpSoon(): void {
		if (this.pumpDue) return;
		this.pumpDue = true;
		// A turn later, like the limit before it: start() queues every task first, then they start in order.
		queueMicrotask(() => {
			this.pumpDue = false;
			this.pump();
		});
	}

	private pump(): void {
		// Slots held per provider and per home, counted once a pump and kept up to date as it starts
		// tasks: asked of every waiting task, a count made from the running map each time was a
		// pump's main cost in a long queue (every ended task pumps once).
		const onProvider = new Map<string | null, number>();
		const inHome = new Map<string, number>();
		const hold = (held: {provider: string | null; home: string}) => {
			onProvider.set(held.provider, (onProvider.get(held.provider) ?? 0) + 1);
			inHome.set(held.home, (inHome.get(held.home) ?? 0) + 1);
		};

		for (const held of this.running.values()) hold(held);
		const state: AdmissionState = {
			...this.limits,
			running: this.running.size,
			runningOn: provider => onProvider.get(provider) ?? 0,
			runningIn: home => inHome.get(home) ?? 0,
		};
		for (const waiting of [...this.queue]) {
			const task = this.hooks.waitingTask(waiting.id);
			if (task === undefined) {
				this.leave(waiting);
				continue;
			}

			state.running = this.running.size;
			const decision = admit(task, state);
			if (decision.kind === 'start') {
				this.queue.splice(this.queue.indexOf(waiting), 1);
				const held = {provider: providerOf(task), home: homeOf(task)};
				this.running.set(waiting.id, held);
				hold(held);
				void this.hooks.start(waiting.id).finally(() => {
					this.running.delete(waiting.id);
					waiting.done();
					this.pumpSoon();
				});
			} else if (decision.kind === 'refuse') {
				this.leave(waiting);
				this.hooks.refuse(waiting.id, decision.reason);
			} else if (decision.waitingFor !== waiting.waitingFor) {
				waiting.waitingFor = decision.waitingFor;
				this.hooks.waiting(waiting.id, decision.waitingFor);
			}
		}
	}

	/** Out of the queue without running: the round need not wait for it. A started one resolves when it ends. */
	private leave(waiting: Waiting): void {
		this.queue.splice(this.queue.indexOf(waiting), 1);
		waiting.done();
	}
}
