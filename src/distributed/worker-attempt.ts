// One attempt on a worker, from a pulled offer to its acknowledgement: claim it from the runner
// host, run it with the core's local executor (process group, cascade, log on this host's disk),
// publish its events and output on the attempt's subjects, keep JetStream from redelivering it
// while it runs (in-progress acks), answer a stop once the process group is gone, and ack the
// offer only when the result has been published.
import type {NatsConnection} from '@nats-io/transport-node';
import type {JsMsg} from '@nats-io/jetstream';
import type {TaskExecutor} from '../core/run/executor.js';
import type {SpendReader} from '../core/run/spend.js';
import type {ProcessRecord} from '../core/run-folder/folder.js';
import type {BatchEvent} from '../core/types.js';
import {offerAckWaitMs} from './connection.js';
import {attemptSubjects, type AttemptSubjects} from './subjects.js';
import {cancelRequestSchema, claimReplySchema, encodeMessage, parseMessage, type AttemptEvent, type CancelReply, type TaskOffer} from './messages.js';

export type AttemptContext = {
	connection: NatsConnection;
	worker: string;
	/** The local executor for this offer's batch (its run folder on this host). */
	executor: TaskExecutor;
	spend: SpendReader;
	/** A line for processes.jsonl of this host's run folder for the batch. */
	record: (record: ProcessRecord) => void;
	log: (line: string) => void;
};

/** How a claim went: granted, or why the offer is dropped (another worker has it, or its batch is gone). */
export async function claim(connection: NatsConnection, subjects: AttemptSubjects, worker: string): Promise<{granted: true} | {granted: false; why: string}> {
	try {
		const reply = await connection.request(subjects.claim, encodeMessage({v: 1, worker}), {timeout: 5000});
		const parsed = parseMessage(claimReplySchema, reply.data);
		if (!parsed.ok) return {granted: false, why: `the claim's reply is malformed: ${parsed.why}`};
		return parsed.value.granted ? {granted: true} : {granted: false, why: parsed.value.why ?? 'refused'};
	} catch (error) {
		return {granted: false, why: `no runner host answered the claim (${error instanceof Error ? error.message : String(error)}): its batch has ended`};
	}
}

/** Runs a claimed offer; resolves once its result is published and the offer acked. */
export async function runAttempt(message: JsMsg, offer: TaskOffer, context: AttemptContext): Promise<void> {
	const {connection, worker, executor} = context;
	const {task, attempt} = offer;
	const subjects = attemptSubjects(offer.batch, task.id, attempt);
	const publish = (event: AttemptEvent) => connection.publish(subjects.events, encodeMessage(event));
	let chunks = 0;
	const attemptOutput = executor.newOutput(() => undefined); // the runner host decodes its own copy of the output
	const {output} = attemptOutput;
	const forward = (stream: 'stdout' | 'stderr', keep: (chunk: Buffer) => void) => (chunk: Buffer) => {
		connection.publish(subjects.output, encodeMessage({v: 1, seq: chunks++, stream, data: chunk.toString('base64')}));
		keep(chunk);
	};
	output.pushStdout = forward('stdout', output.pushStdout.bind(output));
	output.pushStderr = forward('stderr', output.pushStderr.bind(output));

	// Without a sign of life within ack_wait, JetStream would offer the task to another worker.
	const working = setInterval(() => message.working(), offerAckWaitMs / 3);
	let finished = false;
	const execution = executor.run(task, attempt, attemptOutput, {
		emit: event => {
			const forwarded = forwardedEvent(event, worker);
			if (forwarded) publish(forwarded);
		},
		// In this host's run folder, so `gc` here ends what a killed worker left running.
		record: record => context.record(record),
		finished: result => {
			finished = true;
			const withSpend = context.spend.attach(task, result);
			publish({v: 1, kind: 'finished', worker, result: {...withSpend, host: worker}, outputChunks: chunks, at: Date.now()});
		},
	});

	const stops = connection.subscribe(subjects.cancel, {
		callback: (error, request) => {
			if (error) return;
			const parsed = parseMessage(cancelRequestSchema, request.data);
			if (!parsed.ok) {
				context.log(`ignored a malformed stop on ${request.subject}: ${parsed.why}`);
				return;
			}

			if (!finished) execution.stop(parsed.value.reason, parsed.value.skipGrace);
			// Answered only once the group is gone: `done` resolves after the cascade and the result.
			void execution.done.then(() => request.respond(encodeMessage({v: 1, worker, gone: true} satisfies CancelReply)));
		},
	});
	await execution.done;
	clearInterval(working);
	await connection.flush().catch(() => undefined);
	message.ack();
	// A stop that arrives a moment later still gets its answer from the subscription until the drain.
	stops.unsubscribe();
}

function forwardedEvent(event: BatchEvent, worker: string): AttemptEvent | undefined {
	switch (event.type) {
		case 'task.started': {
			return {v: 1, kind: 'started', worker, pid: event.pid, argv: event.argv, at: event.at};
		}

		case 'task.cancelling': {
			return {v: 1, kind: 'cancelling', cancelling: event.cancelling, at: event.at};
		}

		case 'task.killed': {
			return {v: 1, kind: 'killed', at: event.at};
		}

		default: {
			return undefined;
		}
	}
}
