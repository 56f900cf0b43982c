// Reaching NATS and making sure what the distributed path needs exists there: the offers' work
// queue, the workers' shared consumer, and the KV bucket of advertisements. Both sides make them
// if missing (with the same settings, which NATS accepts as a no-op when they already exist), so
// neither has to be started first.
import {connect, type NatsConnection} from '@nats-io/transport-node';
import {AckPolicy, jetstream, jetstreamManager, RetentionPolicy, type JetStreamClient} from '@nats-io/jetstream';
import {Kvm, type KV} from '@nats-io/kv';
import {InputError, messageOf} from '../core/errors.js';
import {offerConsumer, offerStream, offerSubjects, workerBucket} from './subjects.js';

/** How long a worker may hold an offer without a sign of life before JetStream offers it again. */
export const offerAckWaitMs = 30_000;

export type Nats = {connection: NatsConnection; js: JetStreamClient; workers: KV; close(): Promise<void>};

/** Connects to `url` and readies the stream, consumer and bucket; unreachable or without JetStream: an InputError (exit 2). */
export async function openNats(url: string, who: string): Promise<Nats> {
	let connection: NatsConnection;
	try {
		connection = await connect({servers: url, name: who, timeout: 5000, maxReconnectAttempts: -1});
	} catch (error) {
		throw new InputError(`cannot reach NATS at ${url}: ${messageOf(error)}`, {}, `start a server with JetStream (\`nats-server -js\`) there, or pass the right --nats URL (e.g. nats://127.0.0.1:4222)`);
	}

	try {
		const manager = await jetstreamManager(connection);
		await manager.streams.info(offerStream).catch(async () => manager.streams.add({name: offerStream, subjects: [offerSubjects], retention: RetentionPolicy.Workqueue}));
		await manager.consumers.info(offerStream, offerConsumer).catch(async () => manager.consumers.add(offerStream, {
			durable_name: offerConsumer,
			ack_policy: AckPolicy.Explicit,
			ack_wait: offerAckWaitMs * 1_000_000,
			max_deliver: -1,
			filter_subject: offerSubjects,
		}));
		// Entries outlive a worker by a minute at most; liveness is judged by fresh heartbeats, not by this.
		const workers = await new Kvm(connection).create(workerBucket, {ttl: 60_000});
		return {connection, js: jetstream(connection), workers, close: async () => connection.drain().catch(() => undefined)};
	} catch (error) {
		await connection.close().catch(() => undefined);
		throw new InputError(`NATS at ${url} does not offer JetStream (${messageOf(error)})`, {}, 'start nats-server with -js (JetStream on), version 2.9 or newer');
	}
}
