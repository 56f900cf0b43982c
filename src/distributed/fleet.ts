// The workers a runner host can count on, as their heartbeats in the KV bucket show them: who is
// alive now (heard from within three of its own heartbeat intervals, timed by this host's clock,
// so clocks on other hosts do not matter), and who just went silent (then its attempts are lost).
import {KvWatchInclude, type KvWatchEntry} from '@nats-io/kv';
import type {QueuedIterator} from '@nats-io/transport-node';
import type {FleetStanding, HermesCapabilities, PlannedTask, RoutePlan} from '../core/types.js';
import {messageOf} from '../core/errors.js';
import {shownUrl} from './auth.js';
import type {Nats} from './connection.js';
import {unfitReason} from './fit.js';
import {advertisementSchema, type WorkerAdvertisement} from './messages.js';
import {advertisementSubject, isSubjectToken, workerPingSubject} from './subjects.js';
import {clockSkewMs, replyTo, type Received} from './seal.js';

/** An advertisement from the bucket, believed only when worker `key` itself sealed it for its own entry. */
function openAdvertisement(nats: Nats, key: string, value: Uint8Array): Received<WorkerAdvertisement> {
	const opened = nats.signer.open(advertisementSchema, 'worker', advertisementSubject(key), value);
	if (opened.ok && (opened.from.name !== key || opened.value.name !== key)) return {ok: false, why: `signed by worker ${opened.from.name}, not by ${key}`};
	return opened;
}

/** Heartbeats a worker may miss before it is lost. */
const missedHeartbeats = 3;

type Seen = {advertisement: WorkerAdvertisement; seenAt: number};

export class Fleet {
	private readonly seen = new Map<string, Seen>();
	/** Workers lost during this runner host's life, until they heartbeat again. */
	private readonly lost = new Map<string, {why: string; at: number; advertisement: WorkerAdvertisement}>();
	private readonly lostListeners = new Set<(name: string, why: string) => void>();
	private readonly changeListeners = new Set<(who: boolean) => void>();
	private readonly check: NodeJS.Timeout;
	private readonly stopHearing: () => void;
	private watcher: QueuedIterator<KvWatchEntry> | undefined;
	private closed = false;
	/** When this host lost its own connection to NATS (null: connected): nobody is judged meanwhile. */
	private offlineSince: number | null = null;
	private confirming = false;

	private constructor(private readonly nats: Nats, private readonly log: (line: string) => void) {
		void this.follow();
		this.check = setInterval(() => this.expire(), 250);
		this.stopHearing = nats.onConnection(up => this.connection(up));
	}

	/**
	 * The live workers: those with an advertisement in the bucket that heartbeat again within a
	 * heartbeat interval or two (an entry alone may be a worker that died a moment ago).
	 */
	static async discover(nats: Nats, log: (line: string) => void): Promise<Fleet> {
		const listed: WorkerAdvertisement[] = [];
		for await (const key of await nats.workers.keys()) {
			const entry = await nats.workers.get(key);
			const opened = entry && entry.operation === 'PUT' && isSubjectToken(key) ? openAdvertisement(nats, key, entry.value) : undefined;
			if (opened?.ok && Math.abs(Date.now() - opened.value.at) <= clockSkewMs) listed.push(opened.value);
		}

		const fleet = new Fleet(nats, log);
		// Who answers now is alive now; one that does not (busy, or of an older version) is waited for by its heartbeat.
		await fleet.ping(listed.length);
		const deadline = Date.now() + 2 * Math.max(0, ...listed.map(worker => worker.heartbeatMs)) + 500;
		while (Date.now() < deadline && listed.some(worker => !fleet.seen.has(worker.name))) {
			await new Promise(resolve => setTimeout(resolve, 50));
		}

		return fleet;
	}

	private async ping(expected: number): Promise<void> {
		if (expected === 0) return;
		try {
			const answers = await this.nats.connection.requestMany(workerPingSubject, undefined, {strategy: 'count', maxWait: 500, maxMessages: expected});
			for await (const answer of answers) {
				const parsed = this.nats.signer.open(advertisementSchema, 'worker', replyTo(workerPingSubject), answer.data, {fresh: true});
				if (!parsed.ok || parsed.from.name !== parsed.value.name) {
					this.log(`ignored an answer to the fleet's ping: ${parsed.ok ? `signed by worker ${parsed.from.name} for ${parsed.value.name}` : parsed.why}`);
				} else if (!this.seen.has(parsed.value.name)) {
					this.seen.set(parsed.value.name, {advertisement: parsed.value, seenAt: Date.now()});
				}
			}
		} catch {
			// Nobody answered at all: the heartbeats decide.
		}
	}

	live(): WorkerAdvertisement[] {
		return [...this.seen.values()].map(seen => seen.advertisement);
	}

	/** Who is there, who was lost, and whether this host reaches NATS at all. */
	standing(): FleetStanding {
		return {
			server: shownUrl(this.nats.url),
			offlineSince: this.offlineSince,
			workers: [...this.seen.values()].map(({advertisement: {name, slots, free}}) => ({name, slots, free})).sort((a, b) => a.name.localeCompare(b.name)),
			lost: [...this.lost].map(([name, {why, at}]) => ({name, why, at})).sort((a, b) => a.name.localeCompare(b.name)),
		};
	}

	/** Which live workers can run `task`; when none: each live one's reason, and the lost ones that could. */
	fitting(task: PlannedTask): {live: string[]; reasons: string[]} {
		const live: string[] = [];
		const reasons: string[] = [];
		for (const {advertisement} of this.seen.values()) {
			const why = unfitReason(task, advertisement);
			if (why === undefined) live.push(advertisement.name);
			else reasons.push(`${advertisement.name}: ${why}`);
		}

		for (const [name, {why, advertisement}] of this.lost) {
			if (unfitReason(task, advertisement) === undefined) reasons.unshift(`${name}, which could, was lost: ${why}`);
		}

		if (this.seen.size === 0) reasons.push('no worker is live');
		return {live, reasons};
	}

	onLost(listener: (name: string, why: string) => void): () => void {
		this.lostListeners.add(listener);
		return () => this.lostListeners.delete(listener);
	}

	/**
	 * Hears every change of standing() (a worker's free slots, a loss, a return, the connection);
	 * `who` is true when the set of live workers changed (a worker new, back or lost).
	 */
	onChange(listener: (who: boolean) => void): () => void {
		this.changeListeners.add(listener);
		return () => this.changeListeners.delete(listener);
	}

	close(): void {
		this.closed = true;
		clearInterval(this.check);
		this.stopHearing();
		this.watcher?.stop();
	}

	/** The bucket's updates, watched again should the watch end while the fleet is still wanted. */
	private async follow(): Promise<void> {
		while (!this.closed) {
			try {
				this.watcher = await this.nats.workers.watch({include: KvWatchInclude.UpdatesOnly});
				for await (const entry of this.watcher) this.heard(entry);
			} catch (error) {
				if (!this.closed) this.log(`watching the workers' heartbeats failed (${messageOf(error)}): watching again`);
			}

			if (!this.closed) await new Promise(resolve => setTimeout(resolve, 500));
		}
	}

	private heard(entry: KvWatchEntry): void {
		if (entry.operation !== 'PUT') {
			// Not believed: anyone who may write the bucket can delete an entry. A worker that left
			// stops heartbeating; its silence, not the removal, makes it lost.
			if (this.seen.has(entry.key)) this.log(`the advertisement of worker ${entry.key} was removed: it is lost if it does not heartbeat again`);
			return;
		}

		const parsed = isSubjectToken(entry.key) ? openAdvertisement(this.nats, entry.key, entry.value) : {ok: false as const, why: 'not a worker name'};
		if (!parsed.ok) {
			this.log(`ignored a worker advertisement under "${entry.key}": ${parsed.why}`);
			return;
		}

		// Each heartbeat is newer than the last: an old one put back (a replay) says nothing of now.
		const last = this.seen.get(entry.key)?.advertisement.at ?? this.lost.get(entry.key)?.advertisement.at ?? -1;
		if (parsed.value.at <= last) {
			// A heartbeat overtaken by a ping's answer is merely late; one older than that is put back on purpose.
			if (last - parsed.value.at > 2 * parsed.value.heartbeatMs) this.log(`ignored an advertisement of worker ${entry.key} older than the last one heard (a replay)`);
			return;
		}

		const before = this.seen.get(entry.key)?.advertisement;
		this.seen.set(entry.key, {advertisement: parsed.value, seenAt: Date.now()});
		const back = this.lost.delete(entry.key);
		if (back) this.log(`worker ${entry.key} is back`);
		else if (before?.free === parsed.value.free && before.slots === parsed.value.slots) return;
		this.changed(back || before === undefined);
	}

	private connection(up: boolean): void {
		if (up) {
			const away = this.offlineSince === null ? 0 : Date.now() - this.offlineSince;
			this.offlineSince = null;
			// Nobody could be heard meanwhile: each worker gets its full allowance from now.
			for (const seen of this.seen.values()) seen.seenAt = Date.now();
			this.log(`connected to NATS again after ${(away / 1000).toFixed(1)} s; reports sent meanwhile follow`);
		} else {
			this.offlineSince = Date.now();
			this.log(`lost the connection to NATS at ${shownUrl(this.nats.url)}: reconnecting by itself; no worker is judged lost meanwhile`);
		}

		this.changed(false);
	}

	private expire(): void {
		if (this.offlineSince !== null || this.confirming) return;
		const now = Date.now();
		const silent = [...this.seen].filter(([, {advertisement, seenAt}]) => now - seenAt > missedHeartbeats * advertisement.heartbeatMs);
		if (silent.length === 0) return;
		// Silence may be ours: NATS must answer this host before anyone is called lost (a cut network
		// is noticed by the client only after its pings go unanswered).
		this.confirming = true;
		void Promise.race([this.nats.connection.rtt(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]).then(() => {
			const at = Date.now();
			for (const [name, {advertisement, seenAt}] of silent) {
				if (this.seen.get(name)?.seenAt !== seenAt) continue; // heard from meanwhile
				this.lose(name, `no heartbeat for ${((at - seenAt) / 1000).toFixed(1)} s (it beats every ${advertisement.heartbeatMs / 1000} s)`);
			}
		}, () => undefined).finally(() => {
			this.confirming = false;
		});
	}

	private lose(name: string, why: string): void {
		const seen = this.seen.get(name);
		if (!seen) return;
		this.seen.delete(name);
		this.lost.set(name, {why, at: Date.now(), advertisement: seen.advertisement});
		this.log(`worker ${name} is lost: ${why}`);
		for (const listener of this.lostListeners) listener(name, why);
		this.changed(true);
	}

	private changed(who: boolean): void {
		for (const listener of this.changeListeners) listener(who);
	}
}

/** What the batch is planned against: every flag some live worker's Hermes has (each task is then checked against real workers). */
export function fleetCapabilities(workers: readonly WorkerAdvertisement[]): HermesCapabilities {
	const first = workers[0]!;
	const flags = {...first.hermes.flags};
	for (const worker of workers) {
		for (const key of Object.keys(flags) as Array<keyof typeof flags>) flags[key] ||= worker.hermes.flags[key] ?? false;
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
