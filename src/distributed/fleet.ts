// The workers a runner host can count on, as their heartbeats in the KV bucket show them: who is
// alive now (heard from within three of its own heartbeat intervals, timed by this host's clock,
// so clocks on other hosts do not matter), and who just went silent (then its attempts are lost).
import {KvWatchInclude, type KvWatchEntry} from '@nats-io/kv';
import type {QueuedIterator} from '@nats-io/transport-node';
import type {HermesCapabilities, RoutePlan} from '../core/types.js';
import type {Nats} from './connection.js';
import {unfitReason} from './fit.js';
import {advertisementSchema, parseMessage, type WorkerAdvertisement} from './messages.js';

/** Heartbeats a worker may miss before it is lost. */
const missedHeartbeats = 3;

type Seen = {advertisement: WorkerAdvertisement; seenAt: number};

export class Fleet {
	private readonly seen = new Map<string, Seen>();
	private readonly lostListeners = new Set<(name: string, why: string) => void>();
	private readonly check: NodeJS.Timeout;

	private constructor(private readonly watcher: QueuedIterator<KvWatchEntry>, private readonly log: (line: string) => void) {
		void this.follow();
		this.check = setInterval(() => this.expire(), 250);
	}

	/**
	 * The live workers: those with an advertisement in the bucket that heartbeat again within a
	 * heartbeat interval or two (an entry alone may be a worker that died a moment ago).
	 */
	static async discover(nats: Nats, log: (line: string) => void): Promise<Fleet> {
		const listed: WorkerAdvertisement[] = [];
		for await (const key of await nats.workers.keys()) {
			const entry = await nats.workers.get(key);
			const parsed = entry && entry.operation === 'PUT' ? parseMessage(advertisementSchema, entry.value) : undefined;
			if (parsed?.ok) listed.push(parsed.value);
		}

		const fleet = new Fleet(await nats.workers.watch({include: KvWatchInclude.UpdatesOnly}), log);
		const deadline = Date.now() + 2 * Math.max(0, ...listed.map(worker => worker.heartbeatMs)) + 500;
		while (Date.now() < deadline && listed.some(worker => !fleet.seen.has(worker.name))) {
			await new Promise(resolve => setTimeout(resolve, 50));
		}

		return fleet;
	}

	live(): WorkerAdvertisement[] {
		return [...this.seen.values()].map(seen => seen.advertisement);
	}

	onLost(listener: (name: string, why: string) => void): () => void {
		this.lostListeners.add(listener);
		return () => this.lostListeners.delete(listener);
	}

	close(): void {
		clearInterval(this.check);
		this.watcher.stop();
	}

	private async follow(): Promise<void> {
		for await (const entry of this.watcher) {
			if (entry.operation !== 'PUT') {
				this.lose(entry.key, 'it left (its advertisement was removed)');
				continue;
			}

			const parsed = parseMessage(advertisementSchema, entry.value);
			if (!parsed.ok || parsed.value.name !== entry.key) {
				this.log(`ignored a malformed worker advertisement under "${entry.key}": ${parsed.ok ? 'its name is not its key' : parsed.why}`);
				continue;
			}

			this.seen.set(entry.key, {advertisement: parsed.value, seenAt: Date.now()});
		}
	}

	private expire(): void {
		const now = Date.now();
		for (const [name, {advertisement, seenAt}] of this.seen) {
			const silentMs = now - seenAt;
			if (silentMs > missedHeartbeats * advertisement.heartbeatMs) {
				this.lose(name, `no heartbeat for ${(silentMs / 1000).toFixed(1)} s (it beats every ${advertisement.heartbeatMs / 1000} s)`);
			}
		}
	}

	private lose(name: string, why: string): void {
		if (!this.seen.delete(name)) return;
		this.log(`worker ${name} is lost: ${why}`);
		for (const listener of this.lostListeners) listener(name, why);
	}
}

/** What the batch is planned against: every flag some live worker's Hermes has (each task is then checked against real workers). */
export function fleetCapabilities(workers: readonly WorkerAdvertisement[]): HermesCapabilities {
	const first = workers[0]!;
	const flags = {...first.hermes.flags};
	for (const worker of workers) {
		for (const key of Object.keys(flags) as Array<keyof typeof flags>) flags[key] ||= worker.hermes.flags[key];
	}

	return {bin: `hermes on ${workers.length} worker${workers.length === 1 ? '' : 's'}`, version: first.hermes.version, probed: true, flags};
}

/** The plan with every task no live worker can run refused, with each worker's reason: such a task is never published. */
export function refuseUnfit(plan: RoutePlan, workers: readonly WorkerAdvertisement[]): RoutePlan {
	return {...plan, tasks: plan.tasks.map(task => {
		if (task.decision.refused) return task;
		const reasons = workers.map(worker => [worker.name, unfitReason(task, worker)] as const);
		if (reasons.some(([, reason]) => reason === undefined)) return task;
		const reason = `no live worker can run it: ${reasons.map(([name, why]) => `${name}: ${why}`).join('; ')}`;
		return {...task, decision: {...task.decision, refused: true, reason}};
	})};
}
