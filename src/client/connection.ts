// A client of a runner host: connects to its socket, says hello, takes the snapshot, and then
// offers a FeedSource of the live events (in seq order, none missed: a fresh snapshot after
// falling behind replays what was missed) and of the panes as each output push arrives, and a
// BatchControl whose messages go over the socket. routing and profiles are read from what the
// host last said.
import {lstat} from 'node:fs/promises';
import net from 'node:net';
import type {SteerOutcome} from '../core/types.js';
import type {BatchEvent} from '../core/types.js';
import type {FeedSource} from '../state/feed.js';
import type {BatchControl, OutputRange, OutputSnapshot} from '../wire/port.js';
import {LineReader} from '../wire/framing.js';
import {ClientPanes} from './panes.js';
import {defaultTailLines, encodeLine, hostMessageSchema, maxHostLineBytes, protocolVersion, type BatchSnapshot, type HostMessage, type LeaveReason, type Request} from '../wire/protocol.js';

/** Events held for a first listener that has not subscribed yet; past this the client is taken not to listen. */
const unheardLimit = 10_000;

export type ConnectOptions = {
	/** Who is attaching, for the host's log ("dashboard", "wait", "cancel"). */
	client?: string;
	/** Pane lines pushed per task (default 40). */
	tailLines?: number;
	/** How long the snapshot, and then each request's reply, may take (default 30 s). */
	requestTimeoutMs?: number;
};

export type BatchConnection = {
	snapshot: BatchSnapshot;
	control: BatchControl;
	/** The live events after the snapshot, in seq order. */
	source: FeedSource;
	onConfig(listener: (outcome: SteerOutcome) => void): () => void;
	/** The host went away, refused us, or we closed. */
	closed: Promise<{reason: string}>;
	close(): void;
	/**
	 * Leaves for good, saying why (host.log tells it from a client that vanished), and resolves once
	 * the host has let us go: when the host ends because we left, only after its last write to the
	 * run folder (`hostEnds`). A host from before the detach message is simply closed on (hostEnds
	 * unknown: false). Past `timeoutMs` (default 10 s) it closes and resolves with `timedOut`.
	 */
	leave(reason: LeaveReason, options?: {timeoutMs?: number}): Promise<{hostEnds: boolean; timedOut: boolean}>;
};

type Pending = {resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout};
type RequestBody = Request extends infer R ? R extends Request ? Omit<R, 'rid'> : never : never;

/** A socket file that is not ours may be another user's trap: we never attach to it. */
async function refusalOf(socketPath: string): Promise<string | undefined> {
	const stats = await lstat(socketPath).catch((error: NodeJS.ErrnoException) => error);
	if (stats instanceof Error) {
		return stats.code === 'ENOENT' ? `no runner host at ${socketPath} (the socket is gone: the batch has ended or its host died)` : `${socketPath}: ${stats.message}`;
	}

	const uid = process.getuid?.();
	if (!stats.isSocket()) return `${socketPath} is not a socket`;
	if (uid !== undefined && stats.uid !== uid) return `${socketPath} belongs to uid ${stats.uid}, not to us (uid ${uid}); not attaching`;
	return undefined;
}

export async function connectToBatch(socketPath: string, options: ConnectOptions = {}): Promise<BatchConnection> {
	const refusal = await refusalOf(socketPath);
	if (refusal !== undefined) throw new Error(refusal);
	const timeoutMs = options.requestTimeoutMs ?? 30_000;
	const socket = net.connect(socketPath);
	let snapshot: BatchSnapshot | undefined;
	const panes = new ClientPanes(options.tailLines ?? defaultTailLines);
	let routing: BatchSnapshot['routing'] = null;
	let profiles: BatchSnapshot['profiles'] = null;
	let lastSeq = 0;
	let nextRid = 1;
	const pending = new Map<number, Pending>();
	const eventListeners = new Set<(event: BatchEvent) => void>();
	// Events that come before anyone listens: the snapshot and the next events often arrive in one
	// read, so the caller, which subscribes once connectToBatch has resolved, would miss those.
	// Held for the first listener (at most unheardLimit: a client that never listens, such as
	// `cancel`, must not hold every event of a long batch).
	let unheard: BatchEvent[] | undefined = [];
	const outputListeners = new Set<(panes: Readonly<Record<string, OutputSnapshot>>) => void>();
	// Panes pushed before anyone listens (as with events), the newest of each: a fresh snapshot's
	// panes are such a push too, as are the first snapshot's (storeFromSnapshot takes those).
	let unheardPanes: Record<string, OutputSnapshot> | undefined = {};
	const pushPanes = (panes: Readonly<Record<string, OutputSnapshot>>) => {
		if (unheardPanes) Object.assign(unheardPanes, panes);
		else for (const listener of outputListeners) listener(panes);
	};

	const configListeners = new Set<(outcome: SteerOutcome) => void>();
	let closedWith: {reason: string} | undefined;
	let hostFeatures: readonly string[] = [];
	let hostEnds = false;
	let resolveClosed!: (value: {reason: string}) => void;
	const closed = new Promise<{reason: string}>(resolve => {
		resolveClosed = resolve;
	});
	let settleOpen: {resolve(snapshot: BatchSnapshot): void; reject(error: Error): void} | undefined;
	const opened = new Promise<BatchSnapshot>((resolve, reject) => {
		settleOpen = {resolve, reject};
	});

	const finish = (reason: string) => {
		if (closedWith) return;
		closedWith = {reason};
		reader.stop();
		socket.destroy();
		for (const [, request] of pending) {
			clearTimeout(request.timer);
			request.reject(new Error(`the runner host's connection closed before it answered: ${reason}`));
		}

		pending.clear();
		settleOpen?.reject(new Error(reason));
		resolveClosed(closedWith);
	};

	const emit = (seq: number, event: BatchEvent) => {
		if (seq <= lastSeq) return; // already applied (a fresh snapshot repeats what came before)
		if (seq !== lastSeq + 1) {
			finish(`missed events ${lastSeq + 1}–${seq - 1} from the runner host`);
			return;
		}

		lastSeq = seq;
		if (unheard) {
			if (unheard.push(event) > unheardLimit) unheard = undefined;
			return;
		}

		for (const listener of eventListeners) listener(event);
	};

	const takeSnapshot = (message: BatchSnapshot) => {
		panes.reset();
		({routing, profiles} = message);
		if (!snapshot) {
			snapshot = message;
			lastSeq = message.seq;
			settleOpen?.resolve(message);
			settleOpen = undefined;
			return;
		}

		// A fresh snapshot after we fell behind: what we missed is in its history.
		for (const {seq, event} of message.events) emit(seq, event);
		lastSeq = Math.max(lastSeq, message.seq);
		pushPanes(message.outputs);
	};

	let greeted = false;
	const onMessage = (message: HostMessage) => {
		if (!greeted) {
			if (message.type === 'bye') return finish(`the runner host refused: ${message.reason}`);
			if (message.type !== 'hello') return finish('the runner host did not begin with hello');
			if (message.protocol !== protocolVersion) return finish(`the runner host speaks protocol ${message.protocol}, this hermes-delegate speaks ${protocolVersion}: attach with the hermes-delegate that started the batch`);
			greeted = true;
			hostFeatures = message.features ?? [];
			// Our hello waits for the host's, so that it asks for deltas only of a host that knows them.
			const tailDelta = hostFeatures.includes('tail-delta');
			socket.write(encodeLine({type: 'hello', protocol: protocolVersion, ...(options.client === undefined ? {} : {client: options.client}), ...(options.tailLines === undefined ? {} : {tailLines: options.tailLines}), ...(tailDelta ? {tailDelta} : {})}));
			return;
		}

		switch (message.type) {
			case 'snapshot': {
				const {type: _type, ...rest} = message;
				takeSnapshot(rest);
				return;
			}

			case 'event': {
				if (snapshot) emit(message.seq, message.event);
				return;
			}

			case 'output': {
				pushPanes(panes.take(message.changes));
				return;
			}

			case 'routing': {
				({routing, profiles} = message);
				return;
			}

			case 'config': {
				for (const listener of configListeners) listener(message.outcome);
				return;
			}

			case 'reply': {
				const request = pending.get(message.rid);
				if (!request) return;
				pending.delete(message.rid);
				clearTimeout(request.timer);
				if (message.ok) request.resolve(message.value);
				else request.reject(new Error(message.error));
				return;
			}

			case 'bye': {
				hostEnds = message.hostEnds ?? false;
				finish(`the runner host closed the connection: ${message.reason}`);
				return;
			}

			case 'hello': {
				finish('the runner host said hello twice');
			}
		}
	};

	const reader = new LineReader(maxHostLineBytes, {
		line(text) {
			let data: unknown;
			try {
				data = JSON.parse(text);
			} catch {
				finish('the runner host sent a line that is not JSON');
				return;
			}

			const parsed = hostMessageSchema.safeParse(data);
			if (parsed.success) onMessage(data as HostMessage);
			else finish(`the runner host sent a malformed message (${parsed.error.issues[0]?.message ?? 'invalid'})`);
		},
		oversized: bytes => finish(`the runner host sent a line of more than ${maxHostLineBytes} bytes (${bytes})`),
	});
	socket.on('data', chunk => reader.push(chunk));
	socket.on('error', error => finish(`socket error: ${error.message}`));
	socket.on('close', () => finish('the runner host went away'));

	const request = async <T>(body: RequestBody): Promise<T> => {
		if (closedWith) throw new Error(`not connected to the runner host: ${closedWith.reason}`);
		const rid = nextRid++;
		return new Promise<T>((resolve, reject) => {
			const timer = setTimeout(() => {
				pending.delete(rid);
				reject(new Error(`the runner host did not answer ${body.type} within ${Math.round(timeoutMs / 1000)} s`));
			}, timeoutMs);
			pending.set(rid, {resolve: resolve as (value: unknown) => void, reject, timer});
			socket.write(encodeLine({...body, rid} as Request));
		});
	};

	// A host that accepts but never greets (stuck, or not a runner host) must not hang the client.
	const openTimer = setTimeout(() => finish(`the runner host sent no snapshot within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
	const first = await opened.finally(() => clearTimeout(openTimer));
	const steering = first.canSteer && first.routing !== null;
	const control: BatchControl = {
		cancel: async (id, {skipGrace}) => request<boolean>({type: skipGrace ? 'kill' : 'cancel', id}),
		shutdown: async ({skipGrace}) => {
			await request<null>({type: 'shutdown', skipGrace});
		},
		readOutput: async ({id, last}) => (await request<OutputRange | null>({type: 'read-output', id, ...(last === undefined ? {} : {last})})) ?? undefined,
		searchOutput: async search => request<{line: number | null}>({type: 'search-output', ...search}),
		...(steering ? {
			routing: () => routing!,
			profiles: () => profiles ?? [],
			steer: async edits => request<SteerOutcome>({type: 'steer', edits: [...edits]}),
			reload: async () => request<SteerOutcome>({type: 'reload'}),
			...(first.canReroute ? {reroute: async (id, target) => request<{ok: boolean; message: string}>({type: 'reroute', id, target})} : {}),
		} satisfies Partial<BatchControl> : {}),
	};

	return {
		snapshot: first,
		control,
		source: {
			subscribe(listener) {
				eventListeners.add(listener);
				const held = unheard ?? [];
				unheard = undefined;
				for (const event of held) listener(event);
				return () => eventListeners.delete(listener);
			},
			subscribeOutput(listener) {
				outputListeners.add(listener);
				const held = unheardPanes;
				unheardPanes = undefined;
				if (held && Object.keys(held).length > 0) listener(held);
				return () => outputListeners.delete(listener);
			},
		},
		onConfig(listener) {
			configListeners.add(listener);
			return () => configListeners.delete(listener);
		},
		closed,
		close: () => finish('closed by this client'),
		async leave(reason, {timeoutMs = 10_000} = {}) {
			if (closedWith) return {hostEnds, timedOut: false};
			if (!hostFeatures.includes('detach')) {
				finish('closed by this client');
				return {hostEnds: false, timedOut: false};
			}

			socket.write(encodeLine({type: 'detach', reason}));
			let timer: NodeJS.Timeout | undefined;
			const timedOut = await Promise.race([closed.then(() => false), new Promise<boolean>(resolve => {
				timer = setTimeout(() => resolve(true), timeoutMs);
			})]);
			clearTimeout(timer);
			if (timedOut) finish(`the runner host did not let us go within ${Math.round(timeoutMs / 1000)} s`);
			return {hostEnds, timedOut};
		},
	};
}
