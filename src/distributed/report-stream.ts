// The runner host's end of a batch's reports: the batch's own JetStream stream, made before its
// first offer and deleted when the runner host is done with the batch, read through a durable
// consumer with explicit acks. When NATS comes back (a restarted server, a healed network) the
// consumer goes on from where the server has it, so what workers reported meanwhile arrives; a
// consumer the server no longer has is made again from just after the last report taken. A report
// that arrives twice or late is put in its place by its attempt (InOrder, below).
import {AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, type ConsumerConfig, type ConsumerMessages} from '@nats-io/jetstream';
import {messageOf} from '../core/errors.js';
import type {Nats} from './connection.js';
import {reportSchema, type AttemptReport} from './messages.js';
import {batchStream, reportOf} from './subjects.js';
import {Pieces, receivedForm} from './pieces.js';

const consumerName = 'runner-host';
/** A batch's stream holds at most this (the oldest reports, long taken by the runner host, go first). */
export const batchStreamMaxBytes = 2 * 1024 * 1024 * 1024;
export const batchStreamMaxMessages = 1_000_000;
const dayNs = 24 * 3600 * 1e9;

/** The runner host's consumer, from the start of the stream, or from just after the last report it took. */
function consumerConfig(batch: string, lastSeq: number): Partial<ConsumerConfig> {
	const from = lastSeq === 0 ? {deliver_policy: DeliverPolicy.All} : {deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: lastSeq + 1};
	return {durable_name: consumerName, ack_policy: AckPolicy.Explicit, ack_wait: 30 * 1e9, max_ack_pending: 20_000, filter_subject: batchStream(batch).subjects, ...from};
}

export type ReportListener = {worker: () => string | undefined; onReport: (report: AttemptReport) => void};

export class ReportStream {
	private readonly listeners = new Map<string, ReportListener>();
	private readonly pieces: Pieces;
	private messages: ConsumerMessages | undefined;
	private closed = false;
	/** The stream sequence of the newest report taken: where the batch stands, for host.log. */
	lastSeq = 0;

	private constructor(private readonly nats: Nats, private readonly batch: string, private readonly log: (line: string) => void) {
		this.pieces = new Pieces(log);
	}

	static async open(nats: Nats, batch: string, log: (line: string) => void): Promise<ReportStream> {
		const {name, subjects, bodies} = batchStream(batch);
		// File storage: it outlives a restart of the server. A week at most, for a runner host that died without deleting it.
		// Bounded: a batch's reports are never more than this on the server, whatever its workers send.
		await nats.manager.streams.add({name, subjects: [subjects, bodies], retention: RetentionPolicy.Limits, storage: StorageType.File, discard: DiscardPolicy.Old, max_age: 7 * dayNs, duplicate_window: 120 * 1e9, max_bytes: batchStreamMaxBytes, max_msgs: batchStreamMaxMessages, max_msg_size: nats.maxPayload});
		await nats.manager.consumers.add(name, consumerConfig(batch, 0));
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
				await this.nats.manager.consumers.add(name, consumerConfig(this.batch, this.lastSeq));
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

		// Signed by a worker of the fleet for this very subject (attempt), and by the worker it names.
		const parsed = this.nats.signer.open(reportSchema, 'worker', subject, data);
		if (!parsed.ok || parsed.from.name !== parsed.value.worker) {
			this.log(`ignored a report of task ${where.taskId}: ${parsed.ok ? `signed by worker ${parsed.from.name} in the name of ${parsed.value.worker}` : parsed.why}`);
			return;
		}

		const listener = this.listeners.get(`${where.taskId}.${where.attempt}`);
		const holder = listener?.worker();
		if (!listener || holder !== parsed.value.worker) {
			this.log(`ignored a ${parsed.value.kind} report of task ${where.taskId} from ${parsed.value.worker}, which does not hold it`);
			return;
		}

		const report = parsed.value.kind === 'piece' ? this.pieces.add(`task ${where.taskId} (attempt ${where.attempt})`, parsed.value) : parsed.value;
		if (report) listener.onReport(receivedForm(report));
	}
}

/** Reports held ahead of a gap, at most: past either bound a report is dropped (said once), not held. */
export const maxHeldReports = 512;
export const maxHeldBytes = 64 * 1024 * 1024;

function sizeOf(report: AttemptReport): number {
	return report.kind === 'output' ? report.data.length : report.kind === 'finished' ? 4096 + report.result.answer.length + report.result.result.length : 1024;
}

/**
 * An attempt's reports in their seq order: duplicates dropped, early ones held until the gap before
 * them is filled — but only so many (a worker that skipped a seq must not grow this host's memory
 * without end: 300 reports once took it from 103 to 419 MB).
 */
export class InOrder {
	private next = 0;
	private readonly held = new Map<number, AttemptReport>();
	private heldBytes = 0;
	private overflowSaid = false;

	constructor(private readonly apply: (report: AttemptReport) => void, private readonly overflow: (why: string) => void = () => undefined) {}

	push(report: AttemptReport): void {
		if (report.seq < this.next || this.held.has(report.seq)) return;
		if (report.seq !== this.next && (report.seq >= this.next + maxHeldReports || this.heldBytes + sizeOf(report) > maxHeldBytes)) {
			if (!this.overflowSaid) this.overflow(`report ${report.seq} came while report ${this.next} is still missing, with ${this.held.size} held (${this.heldBytes} bytes): dropped, as every one past ${maxHeldReports} reports or ${maxHeldBytes / (1024 * 1024)} MiB ahead of the gap`);
			this.overflowSaid = true;
			return;
		}

		this.held.set(report.seq, report);
		this.heldBytes += sizeOf(report);
		for (let ready = this.held.get(this.next); ready; ready = this.held.get(this.next)) {
			this.held.delete(this.next++);
			this.heldBytes -= sizeOf(ready);
			this.apply(ready);
		}
	}

	/** How many wait for a gap before them to fill. */
	get holding(): number {
		return this.held.size;
	}
}
