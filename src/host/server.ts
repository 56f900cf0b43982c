// The runner host's side of the socket: serves one batch to any number of clients. It keeps the
// compacted event history (history.ts) so a client attaching at any time rebuilds the store's
// state, forwards every event with its sequence number, pushes each client's output changes at a
// capped rate (the one pacer of the output: it runs only while a client is attached), and applies
// control requests from any client once, through the one BatchControl, so that every client sees
// the effect as events. Serve before the runner starts:
// the history begins with the first event the server sees.
import net from 'node:net';
import {unlink} from 'node:fs/promises';
import type {SteerOutcome} from '../core/types.js';
import type {BatchRunner} from '../core/run/runner.js';
import {cannotSteer, type BatchControl} from '../wire/port.js';
import {AttachedClient, type ClientHost} from './attached-client.js';
import {EventHistory} from './history.js';
import {outputsOf} from './pane-ledger.js';
import {boundedRange} from './reply-bounds.js';
import {publishPacer, type PublishPace} from '../core/output/publish-pace.js';
import {onAnyOutputChange} from '../core/output/task-output.js';
import {checkPeer} from './peer.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {defaultMaxConnections, refusalOf} from './admission.js';
import {batchIdentity, encodeLine, type BatchIdentity, type HostMessage, type Request, type ReplyValue} from '../wire/protocol.js';
import {clearStaleSocket, listenPrivately, unsafeFolder} from './socket-file.js';

export type HostedBatch = BatchIdentity & {
	runner: BatchRunner;
	/** runnerControl(runner, steering) */
	control: BatchControl;
	/** config.yaml changed on disk (steering.watch): forwarded to every client as a `config` message. */
	watchConfig?(listener: (outcome: SteerOutcome) => void): () => void;
};

/** `publishHz` (default 12, the dashboard's rate) and `busyPublishHz` (default 4, as the in-process dashboard drew under a flood): output pushes per second to each client (publish-pace.ts). */
export type ServeOptions = PublishPace & {
	log?(line: string): void;
	/** Most bytes waiting in one client's socket before nothing more is queued for it (default 8 MiB). */
	maxQueueBytes?: number;
	/** Connections held at once before more are refused (default 64: admission.ts). */
	maxConnections?: number;
	/**
	 * Asked when a client has said it leaves (detach), after the client count listeners ran: true
	 * holds it until releaseLeaving() (the host ends now, and the client hears of it once the host
	 * has written its last); false, or absent, lets it go at once.
	 */
	holdLeaving?(): boolean;
	/** A client left with the batch's report (attached-client.ts tookReport; results-keeper.ts). */
	reportTaken?(): void;
};

export type BatchServer = {
	socketPath: string;
	/** Clients attached now (their hello accepted). */
	clients(): number;
	/** Whether a client other than a script (wait, cancel, spend: protocol.ts) has attached since serving began. */
	watcherCame(): boolean;
	onClients(listener: (count: number) => void): () => void;
	/** The most bytes any client's socket has held waiting to be read (the slow-reader bound's witness). */
	peakQueuedBytes(): number;
	/** Stops serving: no new connection; every client is told why and closed, but those leaving (detach) wait for releaseLeaving. */
	close(): Promise<void>;
	/** Lets go every client that sent `detach` and was held (holdLeaving): the host has written its last and ends. */
	releaseLeaving(): void;
};

export async function serveBatch(batch: HostedBatch, socketPath: string, options: ServeOptions = {}): Promise<BatchServer> {
	// What a client sent (an unknown key of its JSON, its name) reaches host.log only made terminal-safe,
	// on one line: an escape sequence in it would act on whoever reads the log with cat or tail.
	const log = (line: string) => options.log?.(terminalSafe(line).replaceAll('\n', ' '));
	const {control} = batch;
	const history = new EventHistory();
	const clients = new Set<AttachedClient>();
	let peakOfGone = 0;
	let stopped = false;
	const pacer = publishPacer(options);
	let publishTimer: NodeJS.Timeout | undefined;
	let anyoneAttached = false;
	// The host wakes to push only when a pane changed while a dashboard is attached: quiet tasks,
	// or nobody attached, cost no wake-ups. One push per pacer slot, however much changed in it.
	function wake(): void {
		if (!anyoneAttached || stopped || publishTimer !== undefined) return;
		publishTimer = setTimeout(publishNow, pacer.wait());
		publishTimer.unref();
	}

	function publishNow(): void {
		clearTimeout(publishTimer);
		publishTimer = undefined;
		pacer.published();
		for (const client of clients) client.publish();
	}

	function pace(on: boolean): void {
		anyoneAttached = on;
		if (on) {
			wake();
		} else {
			clearTimeout(publishTimer);
			publishTimer = undefined;
		}
	}

	// Before any await: no event of the batch may pass unseen.
	const unsubscribe = batch.runner.subscribe(event => {
		// A task's pane is whole when its status says it finished: what it printed goes first.
		if (event.type === 'task.finished' && anyoneAttached) publishNow();
		const entry = history.add(event);
		for (const client of clients) client.event(entry);
	});
	const toAll = (message: HostMessage) => {
		for (const client of clients) client.send(message);
	};

	const routingMessage = (): HostMessage => ({type: 'routing', routing: control.routing?.() ?? null, profiles: control.profiles?.() ?? null});
	const answer = async (request: Request): Promise<ReplyValue> => {
		switch (request.type) {
			case 'cancel':
			case 'kill': {
				// The runner answers false to a second cancel of one task: the reply says so.
				return control.cancel(request.id, {skipGrace: request.type === 'kill'});
			}

			case 'shutdown': {
				await control.shutdown({skipGrace: request.skipGrace});
				return null;
			}

			case 'steer':
			case 'reload': {
				if (!batch.canSteer || !control.steer || !control.reload) throw new Error(cannotSteer);
				const outcome = await (request.type === 'steer' ? control.steer(request.edits) : control.reload());
				// Every client's routing is current before the reply that changed it arrives.
				toAll(routingMessage());
				return outcome;
			}

			case 'reroute': {
				if (!batch.canReroute || !control.reroute) throw new Error('this batch cannot re-route tasks: it was started without its config');
				return control.reroute(request.id, request.target);
			}

			case 'read-output': {
				const range = await control.readOutput(request.last === undefined ? {id: request.id} : {id: request.id, last: request.last});
				return range ? boundedRange(range) : null;
			}

			case 'search-output': {
				return control.searchOutput({id: request.id, query: request.query, from: request.from, direction: request.direction});
			}
		}
	};

	const countListeners = new Set<(count: number) => void>();
	const attachedCount = () => [...clients].filter(client => client.attached).length;
	let lastCount = 0;
	let watcherCame = false;
	/** Every connection from its accept to its close, those still being checked included. */
	const connections = new Map<AttachedClient, Promise<void>>();
	const host: ClientHost = {
		runId: batch.runId,
		maxQueueBytes: options.maxQueueBytes ?? 8 * 1024 * 1024,
		log,
		snapshot: () => ({
			...batchIdentity(batch),
			events: history.events(),
			routing: control.routing?.() ?? null,
			profiles: control.profiles?.() ?? null,
			seq: history.seq,
		}),
		outputs: () => outputsOf(batch.runner),
		answer,
		changed(client, what) {
			if (what === 'closed') {
				connections.delete(client);
				if (clients.delete(client)) peakOfGone = Math.max(peakOfGone, client.peakQueuedBytes);
			}

			if (what === 'attached' && client.watching) watcherCame = true;
			const count = attachedCount();
			if (count !== lastCount) {
				lastCount = count;
				pace(count > 0);
				for (const listener of countListeners) listener(count);
			}

			if (what === 'left' && client.tookReport) options.reportTaken?.();
			if (what === 'left' && !(options.holdLeaving?.() ?? false)) client.release(false);
		},
	};

	const refusal = await unsafeFolder(socketPath);
	if (refusal !== undefined) {
		unsubscribe();
		throw new Error(`not serving the batch at ${socketPath}: ${refusal}`);
	}

	let accepted = 0;
	let checking = 0;
	const admission = {maxConnections: options.maxConnections ?? defaultMaxConnections, concurrency: batch.concurrency};
	const server = net.createServer({pauseOnConnect: true}, socket => {
		const refusal = refusalOf(connections.size, checking, admission);
		if (refusal !== undefined) {
			// Told why, then closed at once: its descriptor is what is short.
			log(`client #${++accepted}: refused: ${refusal}`);
			socket.on('error', () => undefined);
			socket.end(encodeLine({type: 'bye', reason: `refused: ${refusal}`}), () => socket.destroy());
			return;
		}

		const client = new AttachedClient(socket, ++accepted, host);
		connections.set(client, new Promise(resolve => {
			socket.once('close', () => resolve());
		}));
		checking++;
		void checkPeer(socket).then(peer => {
			checking--;
			if (client.closed) {
				return; // it left while it was being checked
			}

			if (closing) {
				client.close('the runner host is closing');
				return;
			}

			if (!peer.ok) {
				log(`client #${accepted}: refused: ${peer.reason}`);
				client.close('refused: only the user who started this batch may attach to it', true);
				return;
			}

			clients.add(client);
			client.greet();
		});
	});
	const unwatch = batch.watchConfig?.(outcome => {
		toAll(routingMessage());
		toAll({type: 'config', outcome});
	});
	const unwatchOutput = onAnyOutputChange(wake);

	const stop = () => {
		stopped = true;
		pace(false);
		unwatchOutput();
		unwatch?.();
		unsubscribe();
	};

	try {
		await clearStaleSocket(socketPath);
		await listenPrivately(server, socketPath);
	} catch (error) {
		stop();
		server.close();
		throw error;
	}

	let closing: Promise<void> | undefined;
	return {
		socketPath,
		clients: attachedCount,
		watcherCame: () => watcherCame,
		onClients(listener) {
			countListeners.add(listener);
			return () => countListeners.delete(listener);
		},
		peakQueuedBytes: () => Math.max(peakOfGone, ...[...clients].map(client => client.peakQueuedBytes)),
		async close() {
			closing ??= (async () => {
				stop();
				server.close();
				// Every connection but those that said they leave: they hear the host's last word (releaseLeaving).
				const closed = [...connections].filter(([client]) => !client.leaving).map(([, gone]) => gone);
				for (const client of clients) {
					if (!client.leaving) client.close('the runner host is closing');
				}

				await Promise.all(closed);
				await unlink(socketPath).catch(() => undefined);
			})();
			return closing;
		},
		releaseLeaving() {
			for (const client of clients) client.release(true);
		},
	};
}

