// One client of the runner host, from its accepted socket to its close: the hello, the parsing of
// its lines, what is pushed to it, and the bound on what may wait for it to read. A client that
// stops reading is not queued without end: once its socket holds more than the bound, nothing more
// is queued for it, its requests wait unread, and when it has drained it gets a fresh snapshot.
// Replies count against the same bound as pushes: a request is taken only while what waits for the
// client (its socket's queue and the replies held for it) is under the bound and fewer than
// maxInFlight of its requests are being answered, so a client that asks and never reads holds at
// most the bound plus those few replies (each bounded: server.ts caps read-output), and its further
// requests wait unread in the kernel (docs/reliability-security.md).
// Past 300 lines as one class: the hello, the bound and the pushes share one socket's state, and
// split they would each need the others' view of what waits for the client.
import type {Socket} from 'node:net';
import {LineReader} from '../wire/framing.js';
import {defaultTailLines, encodeLine, hostFeatures, maxClientLineBytes, parseClientLine, protocolVersion, scriptClients, type BatchSnapshot, type HostMessage, type LeaveReason, type Request, type ReplyValue, type SequencedEvent} from '../wire/protocol.js';
import {PaneLedger, type Outputs} from './pane-ledger.js';

export type ClientHost = {
	runId: string;
	maxQueueBytes: number;
	log(line: string): void;
	/** The batch as it stands, but for the panes (each client's ledger cuts them). */
	snapshot(): Omit<BatchSnapshot, 'outputs'>;
	/** The tasks' outputs as they stand now. */
	outputs(): Outputs;
	answer(request: Request): Promise<ReplyValue>;
	/**
	 * The client finished its hello (attached), said it leaves (left: it no longer counts, and waits
	 * for release()), or its connection ended (closed: once per client, whatever its phase).
	 */
	changed(client: AttachedClient, what: 'attached' | 'left' | 'closed'): void;
};

// leaving: it sent `detach`; it gets nothing more and waits for release(), which the host gives at
// once, or (when the host ends with this client gone) after the host's last write to the run folder.
type Phase = 'greeting' | 'live' | 'behind' | 'leaving' | 'closed';

/** What host.log says of a client that left with a `detach` message. */
const leaveWords: Record<LeaveReason, string> = {
	detach: 'detached (the operator pressed d)',
	'terminal-gone': 'detached: its terminal went away',
	quit: 'quit (the operator left the dashboard)',
	done: 'left: it has what it came for',
};

const helloTimeoutMs = 10_000;

/** Requests of one client answered at once: what its replies may add beyond the bound before it is taken as behind. */
const maxInFlight = 4;

export class AttachedClient {
	private phase: Phase = 'greeting';
	/** What it was last sent of each pane (set by its hello: how many lines, deltas or whole tails). */
	private panes = new PaneLedger(defaultTailLines, false);
	private name: string;
	/** Its hello named it one of the scripts (`wait`, `cancel`, `spend`), not a dashboard. */
	private script = false;
	/** What its hello called it (`wait`, `tui`…), and why it left (its `detach`). */
	private called: string | undefined;
	private leftWith: LeaveReason | undefined;
	private readonly reader: LineReader;
	/** Replies that became ready while the client was behind, encoded: sent after its fresh snapshot. */
	private waitingReplies: Buffer[] = [];
	private waitingReplyBytes = 0;
	/** Lines read from the client and not yet taken (at most what one read brought: the socket is paused meanwhile). */
	private unread: string[] = [];
	private inFlight = 0;
	private snapshotBytes = 0;
	private peakQueued = 0;

	constructor(private readonly socket: Socket, number: number, private readonly host: ClientHost) {
		this.name = `client #${number}`;
		this.reader = new LineReader(maxClientLineBytes, {
			line: text => {
				this.unread.push(text);
				this.takeLines();
			},
			oversized: bytes => this.close(`a line of more than ${maxClientLineBytes} bytes (${bytes} so far)`),
		});
		socket.on('data', chunk => this.reader.push(chunk));
		// A client killed -9 is heard as a close, or first as an error (EPIPE on our next write to it,
		// ECONNRESET when it died with our lines unread): either way it went away without detaching.
		socket.on('error', error => this.wentAway(`socket error: ${error.message}`));
		socket.on('close', () => this.wentAway('it went away'));
		socket.on('drain', () => this.caughtUp());
	}

	get closed(): boolean {
		return this.phase === 'closed';
	}

	/** Attached, and not a script that comes for an answer and goes. */
	get watching(): boolean {
		return this.attached && !this.script;
	}

	get attached(): boolean {
		return this.phase === 'live' || this.phase === 'behind';
	}

	/** It said it leaves and waits for release(). */
	get leaving(): boolean {
		return this.phase === 'leaving';
	}

	/**
	 * It left with the batch's report: a `wait` that says it has what it came for, or a dashboard
	 * the operator quit (it prints a report that results.json could not take: commands/dashboard.tsx).
	 */
	get tookReport(): boolean {
		return (this.called === 'wait' && this.leftWith === 'done') || (!this.script && this.leftWith === 'quit');
	}

	/** The most bytes this client's socket has held waiting to be read by it. */
	get peakQueuedBytes(): number {
		return this.peakQueued;
	}

	/** Sends the host's hello (after the peer check passed) and starts reading. */
	greet(): void {
		this.write({type: 'hello', protocol: protocolVersion, runId: this.host.runId, features: [...hostFeatures]});
		this.socket.resume();
		// A connection that never says hello would hold a socket for nothing.
		setTimeout(() => {
			if (this.phase === 'greeting') this.close(`no hello within ${helloTimeoutMs / 1000} s`);
		}, helloTimeoutMs).unref();
	}

	event(entry: SequencedEvent): void {
		if (this.phase !== 'live') {
			return;
		}

		this.send({type: 'event', ...entry});
	}

	/** The panes whose output moved since what this client last got. */
	publish(): void {
		if (this.phase !== 'live') {
			return;
		}

		const changes = this.panes.changes(this.host.outputs());
		if (Object.keys(changes).length > 0) {
			this.send({type: 'output', changes});
		}
	}

	/** Sent to this client if it is live (routing, config). */
	send(message: HostMessage): void {
		if (this.phase === 'live') {
			this.write(message);
		} else if (this.phase === 'behind' && message.type === 'reply') {
			this.held(Buffer.from(encodeLine(message)));
		}
	}

	/**
	 * Lets a leaving client go: its bye, then the end of the connection. `hostEnds`: the host has
	 * written its last and ends (the client may rely on the run folder no longer changing).
	 */
	release(hostEnds: boolean): void {
		if (this.phase !== 'leaving') {
			return;
		}

		this.phase = 'closed';
		this.write({type: 'bye', reason: hostEnds ? 'detached; the runner host has ended' : 'detached; the batch goes on', hostEnds});
		this.socket.end();
		setTimeout(() => this.socket.destroy(), 2000).unref();
		this.host.changed(this, 'closed');
	}

	/** Says why in a last line, then ends the connection; logs it unless the client simply left. */
	close(reason: string, tell = true): void {
		if (this.phase === 'closed') {
			return;
		}

		this.phase = 'closed';
		this.reader.stop();
		this.unread = [];
		if (tell) {
			this.host.log(`${this.name}: closed: ${reason}`);
			this.write({type: 'bye', reason});
			this.socket.end();
			// A client that reads nothing would keep the half-closed socket: it goes soon anyway.
			setTimeout(() => this.socket.destroy(), 2000).unref();
		} else {
			this.socket.destroy();
		}

		this.host.changed(this, 'closed');
	}

	/** Its connection ended without a `detach` first: killed, crashed, or a client older than that message. */
	private wentAway(reason: string): void {
		if (this.attached) this.host.log(`${this.name}: went away without detaching (killed or crashed, or a hermes-delegate from before the detach message)${reason === 'it went away' ? '' : `: ${reason}`}`);
		this.close(reason, false);
	}

	private leave(reason: LeaveReason): void {
		this.phase = 'leaving';
		this.leftWith = reason;
		this.reader.stop();
		this.unread = [];
		this.waitingReplies = [];
		this.waitingReplyBytes = 0;
		this.host.log(`${this.name}: ${leaveWords[reason]}`);
		this.host.changed(this, 'left');
	}

	/** Takes the client's lines while what waits for it allows; otherwise leaves the rest unread (paused). */
	private takeLines(): void {
		while (this.unread.length > 0 && (this.phase === 'greeting' || this.phase === 'live')) {
			if (this.inFlight >= maxInFlight || this.queuedBytes() > this.bound()) {
				this.socket.pause();
				return;
			}

			this.onLine(this.unread.shift()!);
		}

		if (this.phase === 'greeting' || this.phase === 'live') {
			this.socket.resume();
		}
	}

	/** What waits for the client to read: its socket's queue and the replies held while it is behind. */
	private queuedBytes(): number {
		return this.socket.writableLength + this.waitingReplyBytes;
	}

	/** A snapshot can be larger than the bound on its own: the bound then is twice the snapshot. (Below the
	 * socket's high-water mark 'drain' would never come: that is the least bound.) */
	private bound(): number {
		return Math.max(this.host.maxQueueBytes, this.socket.writableHighWaterMark, 2 * this.snapshotBytes);
	}

	private onLine(text: string): void {
		const parsed = parseClientLine(text, this.phase === 'greeting');
		switch (parsed.kind) {
			case 'invalid': {
				this.close(this.phase === 'greeting' ? `before its hello: ${parsed.reason}` : `malformed message: ${parsed.reason}`);
				return;
			}

			case 'other-version': {
				this.close(`protocol ${parsed.protocol} is not this runner host's protocol ${protocolVersion}: use the hermes-delegate that started this batch`);
				return;
			}

			case 'hello': {
				if (parsed.hello.client) this.name = `${this.name} (${parsed.hello.client.replaceAll(/[^\w .:/@-]/g, '?')})`;
				this.panes = new PaneLedger(parsed.hello.tailLines ?? defaultTailLines, parsed.hello.tailDelta === true);
				this.script = scriptClients.includes(parsed.hello.client ?? '');
				this.called = parsed.hello.client;
				this.phase = 'live';
				this.sendSnapshot();
				this.host.changed(this, 'attached');
				return;
			}

			case 'request': {
				void this.reply(parsed.request);
				return;
			}

			case 'detach': {
				this.leave(parsed.reason);
			}
		}
	}

	private async reply(request: Request): Promise<void> {
		this.inFlight++;
		let message: HostMessage;
		try {
			message = {type: 'reply', rid: request.rid, ok: true, value: await this.host.answer(request) ?? null};
		} catch (error) {
			message = {type: 'reply', rid: request.rid, ok: false, error: (error as Error).message};
		}

		this.inFlight--;
		this.send(message);
		this.takeLines();
	}

	private sendSnapshot(): void {
		this.write({type: 'snapshot', ...this.host.snapshot(), outputs: this.panes.snapshot(this.host.outputs())});
	}

	private write(message: HostMessage): void {
		if (this.socket.destroyed || !this.socket.writable) {
			return;
		}

		const line = Buffer.from(encodeLine(message));
		if (message.type === 'snapshot') {
			this.snapshotBytes = line.length;
		}

		this.writeLine(line);
	}

	private writeLine(line: Buffer): void {
		if (this.socket.destroyed || !this.socket.writable) {
			return;
		}

		this.socket.write(line);
		const queued = this.queuedBytes();
		this.peakQueued = Math.max(this.peakQueued, queued);
		if (this.phase === 'live' && queued > this.bound()) {
			this.phase = 'behind';
			// Its requests wait in the kernel until it reads again: no replies pile up here.
			this.socket.pause();
			this.host.log(`${this.name}: reads too slowly (${queued} bytes waiting): nothing more is queued until it has read them, then a fresh snapshot`);
		}

	}

	private caughtUp(): void {
		if (this.phase !== 'behind') {
			return;
		}

		this.phase = 'live';
		this.sendSnapshot();
		const replies = this.waitingReplies;
		this.waitingReplies = [];
		this.waitingReplyBytes = 0;
		for (const reply of replies) {
			if (this.phase === 'live') this.writeLine(reply);
			else this.held(reply);
		}

		this.takeLines();
	}

	/** A reply that was waiting and finds the client behind again: it waits on. */
	private held(line: Buffer): void {
		this.waitingReplies.push(line);
		this.waitingReplyBytes += line.length;
		this.peakQueued = Math.max(this.peakQueued, this.queuedBytes());
	}
}
