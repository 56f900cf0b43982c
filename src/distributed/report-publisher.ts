// One attempt's reports from its worker to its runner host, in order and kept. Each report is
// published to the batch's stream and waits for JetStream's ack before the next one goes, so what
// the stream holds is in order and complete up to the last ack. A publish that fails (NATS cut off,
// restarting) is tried again with the same message id, so the stream keeps one copy even when the
// first try did land, until it is acked or the batch's stream is gone (its runner host has ended
// the batch). What is durable and what may be cut:
// - events and the result: always, however long NATS is away (this host keeps them until then);
// - live output: merged while a publish is under way (one report per stream, ≤ maxReportBytes), and
//   dropped past maxWaitingOutputBytes waiting: NATS away, or slower than a task that prints tens of
//   MiB at once. A drop is counted (said in the result's warnings) and marked where it happened: the
//   first output taken after it (or the result) is preceded by a stderr line saying how many bytes
//   are missing there, so the pane shows the gap. The task's log on this host keeps every byte.
import type {JetStreamClient} from '@nats-io/jetstream';
import {messageOf} from '../core/errors.js';
import {encodeMessage, messageVersion, type AttemptReport, type ReportBody} from './messages.js';
import type {Signer} from './seal.js';
import {piecesOf, sentForm} from './pieces.js';

/** Raw bytes per output report: 256 KiB is 342 KiB in base64, under NATS's default max_payload of 1 MiB. */
export const maxReportBytes = 256 * 1024;
/** Output waiting for NATS beyond this is dropped rather than held in memory. */
export const maxWaitingOutputBytes = 8 * 1024 * 1024;

/** Numbered as they are handed over: a report's seq is known at once (outcomes.ts keeps it with the result). */
type Waiting = {report: AttemptReport} | {seq: number; stream: 'stdout' | 'stderr'; chunks: Buffer[]; bytes: number};

export type ReportTarget = {
	js: JetStreamClient;
	/** Every report goes sealed with this worker's fleet key (seal.ts). */
	signer: Signer;
	/** The server's max_payload: a report larger than that goes in pieces (pieces.ts). */
	maxPayload: () => number;
	/** The attempt's report subject. */
	subject: string;
	/** Prefix of each report's message id (Nats-Msg-Id): the stream drops a second copy of one id. */
	idPrefix: string;
	worker: string;
	/** true once the batch's stream is known to be gone (its batch has ended): nothing more can arrive. */
	isGone: () => Promise<boolean>;
	log: (line: string) => void;
};

export class ReportPublisher {
	private readonly waiting: Waiting[] = [];
	private waitingOutputBytes = 0;
	private nextSeq = 0;
	private dropped = 0;
	/** Bytes dropped since the last gap note: said before the next output or the result. */
	private gap = 0;
	private sending: Promise<void> | undefined;
	private abandoned: string | undefined;

	constructor(private readonly target: ReportTarget) {}

	/** Queues the report; returns it as it will be published (numbered). */
	report(body: ReportBody): AttemptReport {
		if (body.kind === 'finished') this.noteGap();
		const report = {...body, v: messageVersion, seq: this.nextSeq++, worker: this.target.worker} as AttemptReport;
		this.waiting.push({report});
		this.kick();
		return report;
	}

	/** A report numbered before (kept by an earlier run of this worker): sent as it is, under its own seq. */
	resend(report: AttemptReport): void {
		this.waiting.push({report});
		this.kick();
	}

	output(stream: 'stdout' | 'stderr', chunk: Buffer): void {
		if (chunk.length === 0 || this.abandoned) return;
		// Once dropping, on until half of what waits has gone: one gap per stall, not one per chunk that squeezes in.
		const room = this.gap > 0 ? maxWaitingOutputBytes / 2 : maxWaitingOutputBytes;
		if (this.waitingOutputBytes + chunk.length > room) {
			this.dropped += chunk.length;
			this.gap += chunk.length;
			return;
		}

		this.noteGap();
		this.queueOutput(stream, chunk);
	}

	/** Output bytes not sent because too much was waiting. */
	get droppedOutputBytes(): number {
		return this.dropped;
	}

	/** Where output was dropped, a line in its place (on stderr, which the pane shows and no answer is read from). */
	private noteGap(): void {
		if (this.gap === 0) return;
		const note = `\n[hermes-delegate: ${this.gap} bytes of this task's output are missing here: more than ${maxWaitingOutputBytes / (1024 * 1024)} MiB waited to go over NATS; the log on worker ${this.target.worker} has every byte]\n`;
		this.gap = 0;
		this.queueOutput('stderr', Buffer.from(note));
	}

	private queueOutput(stream: 'stdout' | 'stderr', chunk: Buffer): void {
		this.waitingOutputBytes += chunk.length;
		const last = this.waiting.at(-1);
		if (last && 'stream' in last && last.stream === stream && last.bytes + chunk.length <= maxReportBytes) {
			last.chunks.push(chunk);
			last.bytes += chunk.length;
		} else {
			this.waiting.push({seq: this.nextSeq++, stream, chunks: [chunk], bytes: chunk.length});
		}

		this.kick();
	}

	/** Resolves once every report handed over is in the stream; with why not, when the batch's stream went away first. */
	async settled(): Promise<string | undefined> {
		while (this.sending) await this.sending;
		return this.abandoned;
	}

	private kick(): void {
		this.sending ??= this.sendAll().finally(() => {
			this.sending = undefined;
		});
	}

	private async sendAll(): Promise<void> {
		for (let next = this.waiting.shift(); next && !this.abandoned; next = this.waiting.shift()) {
			if ('report' in next) {
				await this.publishReport(next.report);
			} else {
				this.waitingOutputBytes -= next.bytes;
				const {seq, stream, chunks} = next;
				await this.publishReport({v: messageVersion, seq, worker: this.target.worker, kind: 'output', stream, data: Buffer.concat(chunks).toString('base64')});
			}
		}

		if (this.abandoned) this.waiting.length = 0;
	}

	/** Sealed, in one message if the server takes one that large, else in pieces (each its own message id). */
	private async publishReport(report: AttemptReport): Promise<void> {
		const {signer, subject, idPrefix} = this.target;
		const sent = sentForm(report);
		const whole = signer.seal(subject, sent).bytes;
		if (whole.length <= this.target.maxPayload() - headroom) {
			await this.publish(`${idPrefix}.${report.seq}`, whole);
			return;
		}

		for (const piece of piecesOf(encodeMessage(sent), report, this.target.maxPayload() - headroom)) {
			if (this.abandoned) return;
			await this.publish(`${idPrefix}.${report.seq}.${piece.index}`, signer.seal(subject, piece).bytes);
		}
	}

	/** Until acked, or the batch is gone, or NATS refuses it for good; a publish that failed may have landed, so the retry carries the same id. */
	private async publish(msgID: string, bytes: Uint8Array): Promise<void> {
		const {js, subject, log} = this.target;
		for (let tries = 0; ; tries++) {
			try {
				await js.publish(subject, bytes, {msgID, timeout: 2000});
				if (tries > 0) log(`reported on ${subject} again after ${tries} failed tr${tries === 1 ? 'y' : 'ies'}`);
				return;
			} catch (error) {
				const permanent = permanentError(error);
				if (permanent) {
					// Trying again cannot help (a report over max_payload was once tried forever, and its runner host waited forever).
					log(`could not report on ${subject}, for good: ${permanent}`);
					this.abandoned = `NATS refused a report for good (${permanent})`;
					return;
				}

				if (tries === 0) log(`could not report on ${subject} (${messageOf(error)}): trying again until NATS takes it`);
				if (await this.target.isGone().catch(() => false)) {
					this.abandoned = `the batch's stream is gone (its runner host has ended the batch), so nothing more of it can be reported`;
					return;
				}

				await new Promise(resolve => setTimeout(resolve, Math.min(2000, 250 * 2 ** tries)));
			}
		}
	}
}

/** Room for the message id header and the server's own framing. */
const headroom = 8 * 1024;

/** Why a publish can never succeed, or undefined for one worth trying again (NATS away, a timeout). */
export function permanentError(error: unknown): string | undefined {
	const text = messageOf(error);
	return /max.?payload|payload.*(too large|exceeded)|permissions? violation|message size exceeds|maximum message size/i.test(text) ? text : undefined;
}
