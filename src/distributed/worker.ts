// A worker host: advertises itself in the KV bucket with heartbeats, pulls task offers through a
// consumer of its own only while it has a free slot, and runs each it can on this host (worker-attempt.ts).
// Its HERMES_HOME, profiles and keys are its own: nothing of them travels but the profiles' names.
import {readdirSync, rmSync} from 'node:fs';
import path from 'node:path';
import {AckPolicy, DeliverPolicy, type JsMsg} from '@nats-io/jetstream';
import {createRunFolder, recordProcess, type RunFolder} from '../core/run-folder/folder.js';
import {localExecutor} from '../core/run/task-run.js';
import {SpendReader} from '../core/run/spend.js';
import type {HermesCapabilities} from '../core/types.js';
import {messageOf} from '../core/errors.js';
import type {Nats} from './connection.js';
import {unfitReason} from './fit.js';
import {homeRoutes, type HomeRoutes} from './home-routes.js';
import {z} from 'zod';
import {advertisementSchema, messageVersion, offerSchema, type TaskOffer, type WorkerAdvertisement} from './messages.js';
import {followReference, offerReferenceSchema} from './offer-body.js';
import {advertisementSubject, offerConsumerOf, offerStream, offerSubjects, attemptSubjects, batchStream, workerPingSubject} from './subjects.js';
import {offerAckWaitMs} from './connection.js';
import {replyTo} from './seal.js';
import {keepOutcome, markWorkerFolder, pendingOutcomes} from './outcomes.js';
import {ReportPublisher} from './report-publisher.js';
import {claim, runAttempt} from './worker-attempt.js';

export type WorkerOptions = {
	name: string;
	concurrency: number;
	hermesBin: string;
	capabilities: HermesCapabilities;
	hermesHome: string;
	env: NodeJS.ProcessEnv;
	heartbeatMs: number;
	log: (line: string) => void;
};

/** How long one pull waits for an offer before it is made again: 1 to 1.5 s (the client's floor is 1 s). */
const pullExpiresMs = () => 1000 + Math.round(Math.random() * 500);

/** Redeliveries of an offer while its claim cannot be answered (NATS away, runner host reconnecting). */
const claimRetryMs = 1000;

export class Worker {
	private readonly running = new Set<string>();
	private readonly folders = new Map<string, RunFolder>();
	private readonly spend: SpendReader;
	private stopping = false;
	private slotFreed: (() => void) | undefined;
	private heartbeat: NodeJS.Timeout | undefined;
	private heartbeatFailing = false;

	/** Read once at start: a route means what this home configured when the worker started. */
	private readonly routes: HomeRoutes;

	constructor(private readonly nats: Nats, private readonly options: WorkerOptions) {
		this.spend = new SpendReader(options.env, options.capabilities.flags.source);
		this.routes = homeRoutes(options.hermesHome);
	}

	/**
	 * Advertises, then takes work until stop(); resolves once every attempt it took has ended.
	 * `serving` is called once a runner host can find it (advertised, answering pings).
	 */
	async serve(serving: () => void = () => undefined): Promise<void> {
		await this.advertise();
		const pings = this.nats.connection.subscribe(workerPingSubject, {callback: (error, request) => {
			if (!error) request.respond(this.nats.signer.seal(replyTo(workerPingSubject), advertisementSchema.parse(this.advertisement())).bytes);
		}});
		await this.nats.connection.flush().catch(() => undefined); // the subscription stands at the server
		serving();
		void this.reportKeptOutcomes();
		this.heartbeat = setInterval(() => void this.advertise(), this.options.heartbeatMs);
		const consumer = await this.offers();
		const attempts = new Set<Promise<void>>();
		let pullFailures = 0;
		while (!this.stopping) {
			await this.freeSlot();
			if (this.stopping) break;
			const message = await consumer.next({expires: pullExpiresMs()}).then(next => {
				pullFailures = 0;
				return next;
			}, async (error: unknown) => {
				// NATS away: said once, then tried again, less often the longer it lasts.
				if (pullFailures++ === 0) this.options.log(`pulling an offer failed (${messageOf(error)}): trying again until NATS answers`);
				await new Promise(resolve => setTimeout(resolve, Math.min(5000, 250 * 2 ** pullFailures)));
				return null;
			});
			if (!message) continue;
			// No offer can end this worker: whatever goes wrong with one is said, and the offer termed.
			const taken = this.take(message).catch((error: unknown) => {
				this.options.log(`dropped an offer on ${message.subject}: ${messageOf(error)}`);
				drop(message);
			}).finally(() => attempts.delete(taken));
			attempts.add(taken);
		}

		pings.unsubscribe();
		await Promise.all(attempts);
		clearInterval(this.heartbeat);
		await this.nats.workers.delete(this.options.name).catch(() => undefined);
	}

	/** No new offers; attempts under way run to their end. */
	stop(): void {
		this.stopping = true;
		this.slotFreed?.();
	}

	advertisement(): WorkerAdvertisement {
		const {name, concurrency, capabilities, heartbeatMs} = this.options;
		return {
			v: messageVersion,
			name,
			hermes: {version: capabilities.version, probed: capabilities.probed, flags: capabilities.flags},
			profiles: profilesIn(this.options.hermesHome),
			routes: {providers: [...this.routes.providers].sort(), base_urls: [...this.routes.baseUrls].sort()},
			slots: concurrency,
			free: concurrency - this.running.size,
			running: [...this.running],
			heartbeatMs,
			at: Date.now(),
		};
	}

	/** Said once when heartbeats start failing (NATS away), and once when they go through again. */
	private async advertise(): Promise<void> {
		const advertisement = advertisementSchema.parse(this.advertisement());
		try {
			await this.nats.workers.put(this.options.name, this.nats.signer.seal(advertisementSubject(this.options.name), advertisement).bytes);
			if (this.heartbeatFailing) this.options.log('heartbeats go through again');
			this.heartbeatFailing = false;
		} catch (error) {
			if (!this.heartbeatFailing) this.options.log(`heartbeat failed (${messageOf(error)}): trying again every beat`);
			this.heartbeatFailing = true;
		}
	}

	private async freeSlot(): Promise<void> {
		while (this.running.size >= this.options.concurrency && !this.stopping) {
			await new Promise<void>(resolve => {
				this.slotFreed = resolve;
			});
		}
	}

	private async take(message: JsMsg): Promise<void> {
		// Only a runner host of this fleet may offer, and only on the subject it sealed the offer for.
		const parsed = this.nats.signer.open(z.union([offerSchema, offerReferenceSchema]), 'host', message.subject, message.data);
		const followed = parsed.ok && 'sha256' in parsed.value ? await followReference(this.nats, parsed.value) : undefined;
		if (!parsed.ok || (followed && !followed.ok)) {
			this.options.log(`refused an offer on ${message.subject}: ${!parsed.ok ? parsed.why : followed && !followed.ok ? followed.why : ''}`);
			drop(message);
			return;
		}

		const offer = followed?.ok ? followed.offer : parsed.value as TaskOffer;
		if (message.subject !== `hd.${offer.batch}.offer`) {
			this.options.log(`ignored an offer for batch ${offer.batch} that came on ${message.subject}`);
			drop(message);
			return;
		}

		const key = `${offer.batch}/${offer.task.id}/${offer.attempt}`;
		const unfit = unfitReason(offer.task, this.advertisement());
		if (unfit) {
			// Its own consumer: done with it; the workers that can run it each see it in theirs.
			this.options.log(`left task ${offer.task.id} of batch ${offer.batch} to other workers: ${unfit}`);
			message.ack();
			return;
		}

		this.running.add(key);
		try {
			const claimed = await claim(this.nats, offer.batch, attemptSubjects(offer.batch, offer.task.id, offer.attempt), this.options.name);
			if (!claimed.granted && claimed.again) {
				this.options.log(`could not claim task ${offer.task.id} of batch ${offer.batch} yet: ${claimed.why}`);
				message.nak(claimRetryMs);
				return;
			}

			if (!claimed.granted) {
				// Another worker's claim came first: the usual end of an offer every fitting worker sees, not worth a line.
				if (!claimed.taken) this.options.log(`dropped task ${offer.task.id} of batch ${offer.batch}: ${claimed.why}`);
				drop(message);
				return;
			}

			this.options.log(`running task ${offer.task.id} (attempt ${offer.attempt}) of batch ${offer.batch}`);
			void this.advertise();
			const folder = this.folderFor(offer.batch);
			const executor = localExecutor({
				hermesBin: this.options.hermesBin,
				capabilities: this.options.capabilities,
				folder,
				graceMs: offer.graceMs,
				timeoutMs: offer.timeoutMs,
				env: this.options.env,
				display: false,
				logLimitBytes: offer.logLimitBytes,
			});
			await runAttempt(message, offer, {nats: this.nats, worker: this.options.name, executor, spend: this.spend, log: this.options.log, keep: report => keepOutcome(folder, offer.task.id, offer.attempt, report, this.options.log), record: record => {
				try {
					recordProcess(folder, record);
				} catch (error) {
					this.options.log(`could not record a process of task ${offer.task.id} in ${folder.processesPath}: ${messageOf(error)}`);
				}
			}});
			this.options.log(`finished task ${offer.task.id} of batch ${offer.batch}`);
		} finally {
			this.running.delete(key);
			void this.advertise();
			this.slotFreed?.();
		}
	}

	/** This worker's own consumer of the offers (subjects.ts, offerConsumerOf), made if missing: every offer not yet granted, from the oldest. */
	private async offers() {
		const name = offerConsumerOf(this.options.name);
		await this.nats.manager.consumers.info(offerStream, name).catch(async () => this.nats.manager.consumers.add(offerStream, {
			durable_name: name,
			ack_policy: AckPolicy.Explicit,
			ack_wait: offerAckWaitMs * 1_000_000,
			max_deliver: -1,
			filter_subject: offerSubjects,
			deliver_policy: DeliverPolicy.All,
			// A worker gone for good leaves no consumer behind for long.
			inactive_threshold: 24 * 3600 * 1e9,
		}));
		return this.nats.js.consumers.get(offerStream, name);
	}

	/**
	 * Results an earlier run of this worker (same name, same home) kept and never got into their
	 * batch's stream: published now, marked recovered; dropped for a batch that has ended.
	 */
	private async reportKeptOutcomes(): Promise<void> {
		for (const outcome of pendingOutcomes(this.options.hermesHome, this.options.name, this.options.log)) {
			const {batch, taskId, attempt, report, file} = outcome;
			const publisher = new ReportPublisher({
				js: this.nats.js,
				signer: this.nats.signer,
				maxPayload: () => this.nats.maxPayload,
				subject: attemptSubjects(batch, taskId, attempt).report,
				idPrefix: `${batch}.${taskId}.${attempt}.recovered`,
				worker: this.options.name,
				isGone: async () => this.nats.isStreamGone(batchStream(batch).name),
				log: this.options.log,
			});
			publisher.resend({...report, recovered: true});
			const gone = await publisher.settled();
			// Removed before it is said: whoever reads the line finds the file gone.
			rmSync(file, {force: true});
			this.options.log(gone
				? `dropped the kept result of task ${taskId} of batch ${batch}: ${gone}`
				: `reported task ${taskId} (attempt ${attempt}) of batch ${batch}, which ended while this worker was away`);
		}
	}

	/** One run folder on this host per batch it works for: the logs of that batch's attempts. */
	private folderFor(batch: string): RunFolder {
		let folder = this.folders.get(batch);
		if (!folder) {
			folder = createRunFolder(this.options.hermesHome);
			markWorkerFolder(folder, this.options.name, batch);
			this.folders.set(batch, folder);
		}

		return folder;
	}
}

/**
 * An offer this worker should never get again: acked, not term()'d. nats-server 2.9 keeps a termed
 * message of a consumer with max_deliver -1 pending and delivers it again
 * after ack_wait (measured on 2.9.10: redelivered 2 s after a term with ack_wait 2 s), which made
 * a poison offer come back to every worker, for good.
 */
function drop(message: JsMsg): void {
	message.ack();
}

function profilesIn(hermesHome: string): string[] {
	try {
		return readdirSync(path.join(hermesHome, 'profiles'), {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => entry.name).sort();
	} catch {
		return [];
	}
}
