// The runner host's end of a batch's reports: the batch's own JetStream stream, made before its
// first offer and deleted when the runner host is done with the batch, read through a durable
// consumer with explicit acks. When NATS comes back (a restarted server, a healed network) the
// consumer goes on from where the server has it, so what workers reported meanwhile arrives; a
// consumer the server no longer has is made again from just after the last report taken. A report
// that arrives twice or late is put in its place by its attempt (InOrder, below).
import {AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, type ConsumerConfig, type ConsumerMessages} from '@nats-io/jetstream';
import {messageOf} from '../core/errors.js';
import type {Nats} from './connection.js';
import {parseMessage, reportSchema, type AttemptReport} from './messages.js';
import {batchStream, reportOf} from './subjects.js';

const consumerName = 'runner-host';
const dayNs = 24 * 3600 * 1e9;

/** The runner host's consumer, from the start of the stream, or from just after the last report it took. */
function consumerConfig(lastSeq: number): Partial<ConsumerConfig> {
	const from = lastSeq === 0 ? {deliver_policy: DeliverPolicy.All} : {deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: lastSeq + 1};
	return {durable_name: consumerName, ack_policy: AckPolicy.Explicit, ack_wait: 30 * 1e9, max_ack_pending: 20_000, ...from};
}

export type ReportListener = {worker: () => string | undefined; onReport: (report: AttemptReport) => void};

export class ReportStream {
	private readonly listeners = new Map<string, ReportListener>();
	private messages: ConsumerMessages | undefined;
	private closed = false;
	/** The stream sequence of the newest report taken: where the batch stands, for host.log. */
	lastSeq = 0;

	private constructor(private readonly nats: Nats, private readonly batch: string, private readonly log: (line: string) => void) {}

	static async open(nats: Nats, batch: string, log: (line: string) => void): Promise<ReportStream> {
		const {name, subjects} = batchStream(batch);
		// File storage: it outlives a restart of the server. A week at most, for a runner host that died without deleting it.
		await nats.manager.streams.add({name, subjects: [subjects], retention: RetentionPolicy.Limits, storage: StorageType.File, discard: DiscardPolicy.Old, max_age: 7 * dayNs, duplicate_window: 120 * 1e9});
		await nats.manager.consumers.add(name, consumerConfig(0));
		const stream = new ReportStream(nats, batch, log);
		await stream.follow();
		return stream;
	}

	/** Reports of one attempt go to `listener` from now on; the listener sorts them (InOrder). */
	listen(taskId: string, attempt: number, listener: ReportListener): void {
		this.listeners.set(`${taskId}.${attempt}`, listener);
	}

	async close(): Promise<void> {
		this.closed = true;
		this.messages?.stop();
		await this.nats.manager.streams.delete(batchStream(this.batch).name).catch((error: unknown) => {
			this.log(`could not delete the batch's stream ${batchStream(this.batch).name} (${messageOf(error)}); NATS drops it after a week`);
		});
	}

	private async follow(): Promise<void> {
		const consumer = await this.nats.js.consumers.get(batchStream(this.batch).name, consumerName);
		// Pulls that expire every 5 s: a consumer gone from the server is noticed within that, not 30 s.
		const messages = await consumer.consume({max_messages: 512, expires: 5000});
		this.messages = messages;
		void this.recreateWhenGone(messages);
		void (async () => {
			for await (const message of messages) {
				this.lastSeq = Math.max(this.lastSeq, message.seq);
				this.take(message.subject, message.data);
				message.ack();
			}

			if (!this.closed) this.log('the batch\'s reports stopped arriving (its consumer ended); results still to come will be missing');
		})();
	}

	/**
	 * The consumer gone from the server (deleted, or a server that lost its state): made again from
	 * just after the last report taken, which the running consume() then reads from.
	 */
	private async recreateWhenGone(messages: ConsumerMessages): Promise<void> {
		for await (const status of messages.status()) {
			if (this.closed || (status.type !== 'consumer_not_found' && status.type !== 'consumer_deleted')) continue;
			const {name} = batchStream(this.batch);
			try {
				await this.nats.manager.consumers.add(name, consumerConfig(this.lastSeq));
				this.log(`the batch's consumer was gone (${status.type}): made again from report ${this.lastSeq + 1} of ${name}`);
			} catch (error) {
				this.log(`the batch's consumer is gone (${status.type}) and could not be made again yet: ${messageOf(error)}`);
			}
		}
	}

	private take(subject: string, data: Uint8Array): void {
		const where = reportOf(this.batch, subject);
		if (!where) {
			this.log(`ignored a message on ${subject}: no such subject of an attempt`);
			return;
		}

		const parsed = parseMessage(reportSchema, data);
		if (!parsed.ok) {
			this.log(`ignored a malformed report of task ${where.taskId}: ${parsed.why}`);
			return;
		}

		const report = parsed.value;
		const listener = this.listeners.get(`${where.taskId}.${where.attempt}`);
		const holder = listener?.worker();
		if (!listener || holder !== report.worker) {
			this.log(`ignored a ${report.kind} report of task ${where.taskId} from ${report.worker}, which does not hold it`);
			return;
		}

		listener.onReport(report);
	}
}

/** An attempt's reports in their seq order: duplicates dropped, early ones held until the gap before them is filled. */
export class InOrder {
	private next = 0;
	private readonly held = new Map<number, AttemptReport>();

	constructor(private readonly apply: (report: AttemptReport) => void) {}

	push(report: AttemptReport): void {
		if (report.seq < this.next || this.held.has(report.seq)) return;
		this.held.set(report.seq, report);
		for (let ready = this.held.get(this.next); ready; ready = this.held.get(this.next)) {
			this.held.delete(this.next++);
			this.apply(ready);
		}
	}
}
