// One attempt on a worker, from a pulled offer to its acknowledgement: claim it from the runner
// host, run it with the core's local executor (process group, cascade, log on this host's disk),
// report its events, output and result to the batch's stream (report-publisher.ts), keep JetStream
// from redelivering it while it runs (in-progress acks), answer a stop once the process group is
// gone, and ack the offer only when the result is in the batch's stream.
import {NoRespondersError} from '@nats-io/transport-node';
import type {JsMsg} from '@nats-io/jetstream';
import type {TaskExecutor} from '../core/run/executor.js';
import type {SpendReader} from '../core/run/spend.js';
import type {ProcessRecord} from '../core/run-folder/folder.js';
import type {BatchEvent} from '../core/types.js';
import {messageOf} from '../core/errors.js';
import {offerAckWaitMs} from './connection.js';
import {attemptSubjects, batchStream, type AttemptSubjects} from './subjects.js';
import {cancelRequestSchema, claimReplySchema, messageVersion, type AttemptReport, type CancelReply, type TaskOffer, type ReportBody} from './messages.js';
import {replyTo} from './seal.js';
import type {Nats} from './connection.js';
import {ReportPublisher} from './report-publisher.js';

export type AttemptContext = {
	nats: Nats;
	worker: string;
	/** The local executor for this offer's batch (its run folder on this host). */
	executor: TaskExecutor;
	spend: SpendReader;
	/** A line for processes.jsonl of this host's run folder for the batch. */
	record: (record: ProcessRecord) => void;
	/** The attempt's final report, kept on this host's disk until the batch's stream has it; returns how to forget it. */
	keep: (report: AttemptReport) => () => void;
	log: (line: string) => void;
};

export type ClaimOutcome = {granted: true} | {granted: false; why: string; again: boolean; taken?: boolean};

/**
 * How a claim went: granted; or refused, for good (another worker has it, its batch has ended) or
 * for now (again: NATS is away, or the runner host did not answer in time — the offer waits).
 */
export async function claim(nats: Nats, batch: string, subjects: AttemptSubjects, worker: string): Promise<ClaimOutcome> {
	try {
		const request = nats.signer.seal(subjects.claim, {v: messageVersion, worker});
		const reply = await nats.connection.request(subjects.claim, request.bytes, {timeout: 5000});
		// Only a runner host of the fleet grants, and only this very claim (a grant heard before grants nothing).
		const parsed = nats.signer.open(claimReplySchema, 'host', replyTo(subjects.claim), reply.data, {fresh: true});
		if (!parsed.ok) return {granted: false, why: `the claim's reply is not believed: ${parsed.why}`, again: false};
		if (parsed.value.for !== request.nonce) return {granted: false, why: 'the claim\'s reply answers another claim', again: false};
		return parsed.value.granted ? {granted: true} : {granted: false, why: parsed.value.why ?? 'refused', again: false, taken: parsed.value.taken === true};
	} catch (error) {
		// Nobody listens for the claim: the batch has ended — or its runner host has not resubscribed
		// yet after NATS came back. Only a stream that is gone says the batch has ended.
		const gone = error instanceof Error && error.cause instanceof NoRespondersError && await nats.isStreamGone(batchStream(batch).name);
		return gone
			? {granted: false, why: 'its batch has ended (no runner host answers, and its stream is gone)', again: false}
			: {granted: false, why: `no answer from the runner host yet (${messageOf(error)})`, again: true};
	}
}

/** Runs a claimed offer; resolves once its result is in the batch's stream (or the batch is gone) and the offer acked. */
export async function runAttempt(message: JsMsg, offer: TaskOffer, context: AttemptContext): Promise<void> {
	const {nats, worker, executor} = context;
	const {connection} = nats;
	const {task, attempt} = offer;
	const subjects = attemptSubjects(offer.batch, task.id, attempt);
	const reports = new ReportPublisher({
		js: nats.js,
		signer: nats.signer,
		maxPayload: () => nats.maxPayload,
		subject: subjects.report,
		idPrefix: `${offer.batch}.${task.id}.${attempt}`,
		worker,
		isGone: async () => nats.isStreamGone(batchStream(offer.batch).name),
		log: context.log,
	});
	const attemptOutput = executor.newOutput(() => undefined); // the runner host decodes its own copy of the output
	const {output} = attemptOutput;
	const forward = (stream: 'stdout' | 'stderr', keep: (chunk: Buffer) => void) => (chunk: Buffer) => {
		reports.output(stream, chunk);
		keep(chunk);
	};
	output.pushStdout = forward('stdout', output.pushStdout.bind(output));
	output.pushStderr = forward('stderr', output.pushStderr.bind(output));

	// Without a sign of life within ack_wait, JetStream would offer the task to another worker.
	const working = setInterval(() => message.working(), offerAckWaitMs / 3);
	let finished = false;
	let forget = () => undefined as unknown;
	const execution = executor.run(task, attempt, attemptOutput, {
		emit: event => {
			const forwarded = forwardedEvent(event);
			if (forwarded) reports.report(forwarded);
		},
		// In this host's run folder, so `gc` here ends what a killed worker left running.
		record: record => context.record(record),
		finished: result => {
			finished = true;
			const withSpend = context.spend.attach(task, result);
			forget = context.keep(reports.report({kind: 'finished', result: {...withSpend, host: worker}, droppedOutputBytes: reports.droppedOutputBytes, at: Date.now()}));
		},
	});

	const stops = connection.subscribe(subjects.cancel, {
		callback: (error, request) => {
			if (error) return;
			// Only a runner host of the fleet may stop it, and only with a stop made for this attempt, now.
			const parsed = nats.signer.open(cancelRequestSchema, 'host', subjects.cancel, request.data, {fresh: true});
			if (!parsed.ok) {
				context.log(`refused a stop on ${request.subject}: ${parsed.why}`);
				return;
			}

			if (!finished) execution.stop(parsed.value.reason, parsed.value.skipGrace);
			// Answered once the group is gone and the result is in the stream, or known never to get there.
			void execution.done.then(async () => reports.settled()).then(undelivered => {
				const reply = {v: messageVersion, for: parsed.nonce, worker, gone: true, ...(undelivered ? {undelivered} : {})} satisfies CancelReply;
				request.respond(nats.signer.seal(replyTo(subjects.cancel), reply).bytes);
			});
		},
	});
	await execution.done;
	const abandoned = await reports.settled();
	if (abandoned) context.log(`task ${task.id} of batch ${offer.batch} ended, but ${abandoned}`);
	clearInterval(working);
	message.ack();
	forget(); // in the stream (or its batch is gone): nothing for a restart to report
	// A stop that arrives a moment later still gets its answer from the subscription until the drain.
	stops.unsubscribe();
}

function forwardedEvent(event: BatchEvent): ReportBody | undefined {
	switch (event.type) {
		case 'task.started': {
			return {kind: 'started', pid: event.pid, argv: event.argv, at: event.at};
		}

		case 'task.cancelling': {
			return {kind: 'cancelling', cancelling: event.cancelling, at: event.at};
		}

		case 'task.killed': {
			return {kind: 'killed', at: event.at};
		}

		default: {
			return undefined;
		}
	}
}
