// The runner host's side of a distributed batch: a TaskExecutor (core/run/executor.ts) that hands
// each attempt to a worker through the offers' stream instead of starting a process here. It
// grants the attempt to the first worker that claims it, turns the worker's reports (read from the
// batch's stream, report-stream.ts) into the attempt's events, output and result, maps stop() to a
// cancel request, and ends the attempt as `lost` when its worker stops heartbeating. Everything a
// worker sends is parsed and checked to come from the worker that holds the attempt; anything else
// is ignored and logged. What must reach a worker while NATS is away (the offer, a stop) is tried
// again until it does or the attempt has ended.
// Past ~300 lines because one remote attempt is one state machine (offer, claim, reports, stop,
// lost): its steps share the attempt's state, and split apart they would pass it around.
import type {Msg, Subscription} from '@nats-io/transport-node';
import {finalStatus} from '../core/run/results.js';
import {endedResult, lostResult, unstartedResult} from './remote-results.js';
import type {AttemptOutput, ExecutionHooks, TaskExecutor} from '../core/run/executor.js';
import type {HermesCapabilities, PlannedTask, StopReason, TaskResult} from '../core/types.js';
import {messageOf} from '../core/errors.js';
import type {Nats} from './connection.js';
import type {Fleet} from './fleet.js';
import {cancelReplySchema, claimRequestSchema, messageVersion, offerOf, type AttemptReport, type ClaimReply} from './messages.js';
import {replyTo} from './seal.js';
import {offerMessage} from './offer-body.js';
import {permanentError} from './report-publisher.js';
import {InOrder, ReportStream} from './report-stream.js';
import {readAs, remoteOutput} from './remote-output.js';
import {defaultWorkerWaitMs} from './fit.js';
import {FitWait} from './fit-wait.js';
import {attemptSubjects, offerStream, offerSubject} from './subjects.js';

export type NatsExecutorOptions = {
	nats: Nats;
	fleet: Fleet;
	/** The batch's id (its run id): every subject of it starts with `hd.<batch>.`. */
	batch: string;
	/** What the output is read as here (the fleet's Hermes); the result itself is read on the worker. */
	capabilities: HermesCapabilities;
	graceMs: number;
	timeoutMs?: number | undefined;
	logLimitBytes: number;
	tailLines?: number | undefined;
	display?: boolean | undefined;
	/** How long an attempt no live worker can run waits for one before it ends (failed, with why). */
	workerWaitMs?: number | undefined;
	log: (line: string) => void;
};

export type NatsExecutor = TaskExecutor & {
	/** Stops reading the batch's reports and deletes its stream: once the batch has ended for good. */
	close(): Promise<void>;
};

export function natsExecutor(options: NatsExecutorOptions): NatsExecutor {
	// Made before the first offer goes out, so no report of it can come before the stream is there.
	const reports = ReportStream.open(options.nats, options.batch, options.log);
	reports.catch(() => undefined); // each attempt says it in its result
	let stopAnnouncing = () => undefined as unknown;
	let stopTimer = () => undefined as unknown;
	return {
		newOutput: onTelemetry => remoteOutput(options, onTelemetry),
		run(task, attempt, output, hooks) {
			const remote = new RemoteAttempt(task, attempt, output, hooks, options);
			const done = Promise.resolve().then(async () => remote.start(reports));
			return {stop: (reason, skipGrace) => remote.stop(reason, skipGrace), skipGrace: () => {
				// As the executor contract says: a stop under way is forced now; without one, nothing happens.
				if (remote.stopReason) remote.stop(remote.stopReason, true);
			}, done};
		},
		announce(emit) {
			// A whole snapshot each time, at most every 200 ms: free slots change with every start and end.
			let due: NodeJS.Timeout | undefined;
			const tell = () => {
				due = undefined;
				emit({type: 'batch.fleet', fleet: options.fleet.standing(), at: Date.now()});
			};

			tell();
			stopAnnouncing = options.fleet.onChange(() => {
				due ??= setTimeout(tell, 200);
			});
			stopTimer = () => clearTimeout(due);
		},
		async close() {
			stopAnnouncing();
			stopTimer();
			await (await reports.catch(() => undefined))?.close();
			// Offers still waiting (a stopped batch's queued attempts) would be offered to workers forever.
			await options.nats.manager.streams.purge(offerStream, {filter: offerSubject(options.batch)}).catch(() => undefined);
		},
	};
}

const retryMs = 1000;

class RemoteAttempt {
	stopReason: StopReason | undefined;
	private worker: string | undefined;
	private startedAt: number | undefined;
	private ended = false;
	private claims: Subscription | undefined;
	/** Until a worker claims it: whether some live worker can run it (fit-wait.ts). */
	private fitWait: FitWait | undefined;
	/** Why its worker was declared lost, while the attempt stands as `lost`: a result that still comes replaces that. */
	private lost: string | undefined;
	/** The offer's place in the offers' stream, once JetStream has it: deleted once granted or ended. */
	private offerSeq: number | undefined;
	private stopLost: (() => void) | undefined;
	private resolveDone!: () => void;
	private readonly finishedOnce = new Promise<void>(resolve => {
		this.resolveDone = resolve;
	});

	private readonly subjects;
	private readonly inOrder = new InOrder(report => this.apply(report), why => this.options.log(`task ${this.task.id}: ${why}`));

	constructor(
		private readonly task: PlannedTask,
		private readonly attempt: number,
		private readonly attemptOutput: AttemptOutput,
		private readonly hooks: ExecutionHooks,
		private readonly options: NatsExecutorOptions,
	) {
		this.subjects = attemptSubjects(options.batch, task.id, attempt);
	}

	/** Listens for its claim and reports, then publishes its offer; resolves once it has ended. */
	async start(reports: Promise<ReportStream>): Promise<void> {
		const {nats} = this.options;
		try {
			(await reports).listen(this.task.id, this.attempt, {worker: () => this.worker, onReport: report => this.take(report)});
		} catch (error) {
			this.end(unstartedResult(this.task, 'failed', `could not make the batch's stream on NATS: ${messageOf(error)}`));
			return;
		}

		this.claims = nats.connection.subscribe(this.subjects.claim, {callback: (error, message) => {
			if (!error) this.answerClaim(message);
		}});
		this.stopLost = this.options.fleet.onLost((name, why) => {
			if (name !== this.worker || this.ended) return;
			this.end(lostResult(this.task, this.startedAt, name, why));
			this.lost = why;
		});
		this.fitWait = new FitWait(this.task, this.options.fleet, this.options.workerWaitMs ?? defaultWorkerWaitMs, {
			waiting: waitingFor => this.hooks.emit({type: 'task.waiting', id: this.task.id, waitingFor, at: Date.now()}),
			giveUp: why => this.end(unstartedResult(this.task, 'failed', why)),
		});
		await this.offer();
		await this.finishedOnce;
	}

	/** The offer, published until JetStream has it (its message id makes a repeat harmless) or the attempt has ended. */
	private async offer(): Promise<void> {
		const {nats, batch} = this.options;
		let offer: Uint8Array | undefined;
		for (let tries = 0; !this.ended; tries++) {
			try {
				// Sealed; too large for one message, its body goes into the batch's stream first (offer-body.ts).
				offer ??= await offerMessage(nats, offerSubject(batch), offerOf(batch, this.task, this.attempt, this.options));
				await nats.connection.flush(); // the claim subscription stands before any worker can answer
				if (!this.ended) this.offerSeq = (await nats.js.publish(offerSubject(batch), offer, {msgID: `${batch}.${this.task.id}.${this.attempt}`, timeout: 5000})).seq;
				if (this.ended || this.worker) this.withdrawOffer(); // granted (or ended) before NATS said where it stored the offer
				return;
			} catch (error) {
				const permanent = permanentError(error);
				if (permanent) {
					this.end(unstartedResult(this.task, 'failed', `not started: NATS refused its offer for good (${permanent})`));
					return;
				}

				if (tries === 0) this.options.log(`could not offer task ${this.task.id} yet (${messageOf(error)}): trying again until NATS takes it`);
				await new Promise(resolve => setTimeout(resolve, retryMs));
			}
		}
	}

	stop(reason: StopReason, skipGrace: boolean): void {
		// One stop request per attempt; only a kill (skipGrace) is worth a second one.
		if (this.ended || (this.stopReason && !skipGrace)) return;
		this.stopReason = reason;
		if (!this.worker) {
			// No worker holds it: it never starts (a claim that comes later is refused).
			this.end(unstartedResult(this.task, finalStatus(reason, null), `stopped (${reason}) before a worker took it`));
			return;
		}

		void this.askToStop(reason, skipGrace, this.worker);
	}

	/** The stop, asked again while NATS is away, until the worker answers or the attempt has ended otherwise. */
	private async askToStop(reason: StopReason, skipGrace: boolean, worker: string): Promise<void> {
		const {connection} = this.options.nats;
		for (let tries = 0; !this.ended; tries++) {
			try {
				const {signer} = this.options.nats;
				const request = signer.seal(this.subjects.cancel, {v: messageVersion, reason, skipGrace});
				const reply = await connection.request(this.subjects.cancel, request.bytes, {timeout: this.options.graceMs + 30_000});
				const parsed = signer.open(cancelReplySchema, 'worker', replyTo(this.subjects.cancel), reply.data, {fresh: true});
				const why = !parsed.ok ? parsed.why : parsed.from.name !== worker || parsed.value.worker !== worker ? `from ${parsed.from.name}, which does not hold it` : parsed.value.for === request.nonce ? undefined : 'it answers another stop';
				if (why !== undefined || !parsed.ok) {
					this.options.log(`ignored a reply to the stop of task ${this.task.id}: ${why ?? ''}`);
					await new Promise(resolve => setTimeout(resolve, retryMs));
					continue;
				}

				this.options.log(`worker ${worker} says task ${this.task.id}'s processes are gone${parsed.value.undelivered ? `, and its result cannot reach this host (${parsed.value.undelivered})` : ''}`);
				// Its result will never come: the attempt ends here, so that the batch (and a runner stopped by a signal) can end.
				if (parsed.value.undelivered) this.end(endedResult(this.task, finalStatus(reason, null), this.startedAt, worker, `stopped (${reason}); its worker ${worker} ended its processes, but its result could not be sent: ${parsed.value.undelivered}; the log on ${worker} has its output`));
				return;
			} catch (error) {
				if (tries === 0) this.options.log(`worker ${worker} did not answer the stop of task ${this.task.id} (${messageOf(error)}): asking again until it does`);
				await new Promise(resolve => setTimeout(resolve, retryMs));
			}
		}
	}

	private answerClaim(message: Msg): void {
		const {signer} = this.options.nats;
		const parsed = signer.open(claimRequestSchema, 'worker', this.subjects.claim, message.data, {fresh: true});
		if (!parsed.ok || parsed.from.name !== parsed.value.worker) {
			// Not believed: no answer at all (a forged claim learns nothing, and takes nothing).
			this.options.log(`ignored a claim of task ${this.task.id}: ${parsed.ok ? `signed by worker ${parsed.from.name} for worker ${parsed.value.worker}` : parsed.why}`);
			return;
		}

		const reply = (value: Omit<ClaimReply, 'for'>) => message.respond(signer.seal(replyTo(this.subjects.claim), {...value, for: parsed.nonce}).bytes);

		if (this.ended || (this.worker && this.worker !== parsed.value.worker)) {
			reply({v: messageVersion, granted: false, why: this.ended ? 'the attempt has ended' : `worker ${this.worker!} has it`, taken: !this.ended});
			return;
		}

		// The same worker asking again (its first reply was lost with the connection) gets the same answer.
		if (!this.worker) {
			const worker = parsed.value.worker;
			this.worker = worker;
			this.fitWait?.stop();
			// Granted: no other worker is to see it any more.
			this.withdrawOffer();
			const advertisement = this.options.fleet.live().find(live => live.name === worker);
			if (advertisement) readAs(this.attemptOutput, advertisement.hermes.flags);
			// Still queued until its worker says the process runs (task.started): the pane says who has it meanwhile.
			this.hooks.emit({type: 'task.waiting', id: this.task.id, waitingFor: `claimed by worker ${worker}: starting there`, at: Date.now()});
		}

		reply({v: messageVersion, granted: true});
	}

	/**
	 * A result from a worker that came back (kept on its disk, sent again after a restart:
	 * recovered), or one for an attempt already declared lost, counts whatever came before it: the
	 * reports before it may be lost with the worker. Everything else goes in its order.
	 */
	private take(report: AttemptReport): void {
		if (report.kind !== 'finished' || (!report.recovered && !this.lost)) {
			this.inOrder.push(report);
			return;
		}

		const note = `reported by worker ${report.worker} when it came back${this.lost ? `, after it had been declared lost (${this.lost})` : ''}: the live output here may be incomplete (the log on ${report.worker} has all of it)`;
		const result = {...report.result, warnings: [...(report.result.warnings ?? []), note]};
		if (!this.ended) {
			this.end(result);
		} else if (this.lost) {
			this.lost = undefined;
			this.options.log(`task ${this.task.id} ended while its worker ${report.worker} was away: its result replaces "lost"`);
			this.hooks.lateResult?.(result);
		}
	}

	private apply(report: AttemptReport): void {
		if (this.ended) return;
		const id = this.task.id;
		switch (report.kind) {
			case 'started': {
				this.startedAt = report.at;
				this.hooks.emit({type: 'task.started', id, pid: report.pid, argv: report.argv, host: report.worker, at: report.at});
				break;
			}

			case 'cancelling': {
				this.hooks.emit({type: 'task.cancelling', id, cancelling: report.cancelling, at: report.at});
				break;
			}

			case 'killed': {
				this.hooks.emit({type: 'task.killed', id, at: report.at});
				break;
			}

			case 'output': {
				const chunk = Buffer.from(report.data, 'base64');
				if (report.stream === 'stdout') this.attemptOutput.output.pushStdout(chunk);
				else this.attemptOutput.output.pushStderr(chunk);
				break;
			}

			case 'finished': {
				const note = report.droppedOutputBytes > 0 ? [`${report.droppedOutputBytes} bytes of live output were not sent: more waited to go over NATS than its worker holds (NATS away, or slower than the task printed); the output here is incomplete where it says so (the log on ${report.worker} has all of it)`] : [];
				this.end(note.length > 0 ? {...report.result, warnings: [...(report.result.warnings ?? []), ...note]} : report.result);
				break;
			}
		}
	}

	/** Granted or ended: out of the offers' stream, so that no worker is offered it again. */
	private withdrawOffer(): void {
		const seq = this.offerSeq;
		if (seq === undefined) return;
		this.offerSeq = undefined;
		void this.options.nats.manager.streams.deleteMessage(offerStream, seq, false).catch(() => undefined); // gone already (the batch's offers purged)
	}

	private end(result: TaskResult): void {
		if (this.ended) return;
		this.ended = true;
		this.fitWait?.stop();
		this.claims?.unsubscribe();
		this.withdrawOffer();
		this.stopLost?.();
		this.attemptOutput.output.end();
		this.hooks.finished(result);
		this.resolveDone();
	}
}
