// Reaching NATS and making sure what the distributed path needs exists there: the offers' work
// queue, the workers' shared consumer, and the KV bucket of advertisements. Both sides make them
// if missing (with the same settings, which NATS accepts as a no-op when they already exist), so
// neither has to be started first. A connection that drops (the server restarted, the network cut)
// reconnects by itself for as long as it takes; who cares hears it through onConnection.
import {connect, type NatsConnection} from '@nats-io/transport-node';
import {DiscardPolicy, JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager, RetentionPolicy, type JetStreamClient, type JetStreamManager} from '@nats-io/jetstream';
import {Kvm, type KV} from '@nats-io/kv';
import {InputError, messageOf} from '../core/errors.js';
import {offerStream, offerSubjects, workerBucket} from './subjects.js';
import {connectOptionsFor, shownUrl, type NatsAuth} from './auth.js';
import {serverDemands} from './server-info.js';
import type {Signer} from './seal.js';
import {inboxPrefixOf} from './subjects.js';

/** Offers waiting for workers, at most (a batch offers only as many as it runs at once; past this a publish is refused, not stored). */
export const offerStreamMaxBytes = 1024 * 1024 * 1024;
export const offerStreamMaxMessages = 100_000;

/** How long a worker may hold an offer without a sign of life before JetStream offers it again. */
export const offerAckWaitMs = 30_000;

export type Nats = {
	url: string;
	connection: NatsConnection;
	js: JetStreamClient;
	manager: JetStreamManager;
	workers: KV;
	/** This member's fleet key and the fleet's trust file: everything sent is sealed, everything heard opened with it. */
	signer: Signer;
	/** The largest message the server takes (its max_payload). */
	readonly maxPayload: number;
	/** Hears each loss (false) and return (true) of the connection; returns how to stop hearing it. */
	onConnection(listener: (up: boolean) => void): () => void;
	/** Whether the connection is up as far as this client knows. */
	readonly up: boolean;
	/** true when NATS says the stream does not exist; false when it exists or NATS could not be asked. */
	isStreamGone(name: string): Promise<boolean>;
	close(): Promise<void>;
};

/** Connects to `url` and readies the stream, consumer and bucket; unreachable or without JetStream: an InputError (exit 2). */
export async function openNats(url: string, who: string, auth: NatsAuth, signer: Signer): Promise<Nats> {
	let connection: NatsConnection;
	const options = connectOptionsFor(url, auth); // bad files: their own InputError, before any connecting
	// Replies come to an inbox of the member's role: the server's permissions (docs/fleet-nats.conf) keep each role's replies from the other.
	options.inboxPrefix = inboxPrefixOf(signer.identity.role);
	try {
		// A lost server is noticed within ~15 s even without a closed socket (a cut network); retried every 0.5 s.
		connection = await connect({name: who, timeout: 5000, maxReconnectAttempts: -1, reconnectTimeWait: 500, pingInterval: 5000, maxPingOut: 3, ...options});
	} catch (error) {
		const cause = `cannot reach NATS at ${shownUrl(url)}: ${messageOf(error)}`;
		const demands = await serverDemands(shownUrl(url));
		if (demands?.tlsVerify) {
			// Such a server drops a client without a (trusted) certificate in the handshake; the client only times out.
			throw auth.tlsCert === undefined
				? new InputError(`${cause}: the server asks every client for a TLS client certificate (its tls block has verify: true), and none was given`, {}, 'pass --nats-tls-cert FILE and --nats-tls-key FILE (a client certificate signed by the CA the server trusts, and its key; or tls_cert and tls_key under executor: in delegate.yaml), with --nats-tls-ca FILE for the server\'s CA')
				: new InputError(`${cause}: the server asks for a TLS client certificate and did not take ${auth.tlsCert}`, {}, 'pass with --nats-tls-cert a certificate signed by the CA in the server\'s ca_file (and valid now), with its key in --nats-tls-key');
		}

		throw new InputError(cause, {}, `start a server with JetStream (\`nats-server -js\`) there, or pass the right --nats URL (e.g. nats://127.0.0.1:4222)${auth.credsFile || auth.tlsCa ? ', and check --nats-creds/--nats-tls-ca' : ''}`);
	}

	try {
		const manager = await jetstreamManager(connection);
		// Limits, not a work queue (subjects.ts, offerConsumerOf): an offer stays until its runner host
		// deletes it (granted, or its attempt ended), a day at most for a runner host that died.
		const offers = await manager.streams.info(offerStream).catch(() => undefined);
		if (offers && offers.config.retention !== RetentionPolicy.Limits) await manager.streams.delete(offerStream).catch(() => undefined); // an earlier release's work queue: its offers are for workers of that release
		if (!offers || offers.config.retention !== RetentionPolicy.Limits) {
			await manager.streams.add({name: offerStream, subjects: [offerSubjects], retention: RetentionPolicy.Limits, max_age: 24 * 3600 * 1e9, max_bytes: offerStreamMaxBytes, max_msgs: offerStreamMaxMessages, discard: DiscardPolicy.New}).catch(async (error: unknown) => {
				// Members starting together race to make it, and NATS refuses the later ones ("subjects
				// overlap with an existing stream"): the stream they wanted is there, made by the first.
				const made = await manager.streams.info(offerStream).catch(() => undefined);
				if (made?.config.retention !== RetentionPolicy.Limits) throw error;
			});
		}

		// Entries outlive a worker by a minute at most; liveness is judged by fresh heartbeats, not by this.
		const kvm = new Kvm(connection);
		// Made by whoever comes first, as the offer stream is; a later one racing it opens it instead.
		const workers = await kvm.create(workerBucket, {ttl: 60_000}).catch((error: unknown) => kvm.open(workerBucket).catch(() => Promise.reject(error)));
		return natsOf(url, connection, manager, workers, signer);
	} catch (error) {
		await connection.close().catch(() => undefined);
		throw new InputError(`NATS at ${shownUrl(url)} does not offer JetStream (${messageOf(error)})`, {}, 'start nats-server with -js (JetStream on), version 2.9 or newer');
	}
}

function natsOf(url: string, connection: NatsConnection, manager: JetStreamManager, workers: KV, signer: Signer): Nats {
	const listeners = new Set<(up: boolean) => void>();
	let up = true;
	void (async () => {
		for await (const status of connection.status()) {
			const now: boolean = status.type === 'disconnect' ? false : status.type === 'reconnect' ? true : up;
			if (now === up) continue;
			up = now;
			for (const listener of listeners) listener(up);
		}
	})();
	return {
		url,
		connection,
		js: jetstream(connection),
		manager,
		workers,
		signer,
		get maxPayload() {
			return connection.info?.max_payload ?? 1024 * 1024;
		},
		get up() {
			return up;
		},
		onConnection(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		async isStreamGone(name) {
			try {
				await manager.streams.info(name);
				return false;
			} catch (error) {
				return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;
			}
		},
		close: async () => connection.drain().catch(() => undefined),
	};
}
