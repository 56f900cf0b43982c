// The runner host's side of a distributed batch: a TaskExecutor (core/run/executor.ts) that hands
// each attempt to a worker through the offers' work queue instead of starting a process here. It
// grants the attempt to the first worker that claims it, turns the worker's messages into the
// attempt's events, output and result, maps stop() to a cancel request, and ends the attempt as
// `lost` when its worker stops heartbeating. Everything a worker sends is parsed and checked to
// come from the worker that holds the attempt; anything else is ignored and logged.
import type {Msg, Subscription} from '@nats-io/transport-node';
import {buildResult, finalStatus} from '../core/run/results.js';
import {newAttemptOutput} from '../core/run/task-run.js';
import type {AttemptOutput, ExecutionHooks, TaskExecutor} from '../core/run/executor.js';
import type {HermesCapabilities, PlannedTask, StopReason, TaskResult} from '../core/types.js';
import {messageOf} from '../core/errors.js';
import type {Nats} from './connection.js';
import type {Fleet} from './fleet.js';
import {attemptEventSchema, cancelReplySchema, claimRequestSchema, encodeMessage, offerOf, outputChunkSchema, parseMessage, type AttemptEvent, type ClaimReply} from './messages.js';
import {attemptSubjects, offerSubject} from './subjects.js';

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
	log: (line: string) => void;
};

export function natsExecutor(options: NatsExecutorOptions): TaskExecutor {
	return {
		newOutput: onTelemetry => newAttemptOutput(options, onTelemetry),
		run(task, attempt, output, hooks) {
			const remote = new RemoteAttempt(task, attempt, output, hooks, options);
			const done = Promise.resolve().then(async () => remote.start());
			return {stop: (reason, skipGrace) => remote.stop(reason, skipGrace), skipGrace: () => remote.stop(remote.stopReason ?? 'cancel', true), done};
		},
	};
}

class RemoteAttempt {
	stopReason: StopReason | undefined;
	private worker: string | undefined;
	private startedAt: number | undefined;
	private nextSeq = 0;
	private readonly notes: string[] = [];
	private ended = false;
	private subscription: Subscription | undefined;
	private stopLost: (() => void) | undefined;
	private resolveDone!: () => void;
	private readonly finishedOnce = new Promise<void>(resolve => {
		this.resolveDone = resolve;
	});

	private readonly subjects;

	constructor(
		private readonly task: PlannedTask,
		private readonly attempt: number,
		private readonly attemptOutput: AttemptOutput,
		private readonly hooks: ExecutionHooks,
		private readonly options: NatsExecutorOptions,
	) {
		this.subjects = attemptSubjects(options.batch, task.id, attempt);
	}

	/** Listens on the attempt's subjects, then publishes its offer; resolves once it has ended. */
	async start(): Promise<void> {
		const {nats, batch} = this.options;
		const base = this.subjects.events.slice(0, -'.events'.length);
		this.subscription = nats.connection.subscribe(`${base}.*`, {callback: (error, message) => {
			if (!error) this.receive(message);
		}});
		this.stopLost = this.options.fleet.onLost((name, why) => {
			if (name === this.worker) this.end(this.lostResult(name, why));
		});
		try {
			await nats.connection.flush(); // our subscription stands before any worker can answer
			if (!this.ended) {
				await nats.js.publish(offerSubject(batch), encodeMessage(offerOf(batch, this.task, this.attempt, this.options)), {msgID: `${batch}.${this.task.id}.${this.attempt}`});
			}
		} catch (error) {
			this.end(this.unstartedResult('failed', `could not offer it to the workers through NATS: ${messageOf(error)}`));
		}

		await this.finishedOnce;
	}

	stop(reason: StopReason, skipGrace: boolean): void {
		if (this.ended) return;
		this.stopReason = reason;
		if (!this.worker) {
			// No worker holds it: it never starts (a claim that comes later is refused).
			this.end(this.unstartedResult(finalStatus(reason, null), `stopped (${reason}) before a worker took it`));
			return;
		}

		const {connection} = this.options.nats;
		const worker = this.worker;
		void connection.request(this.subjects.cancel, encodeMessage({v: 1, reason, skipGrace}), {timeout: this.options.graceMs + 60_000}).then(reply => {
			const parsed = parseMessage(cancelReplySchema, reply.data);
			this.options.log(parsed.ok ? `worker ${parsed.value.worker} says task ${this.task.id}'s processes are gone` : `ignored a malformed reply to the stop of task ${this.task.id}: ${parsed.why}`);
		}, (error: unknown) => this.options.log(`worker ${worker} did not answer the stop of task ${this.task.id}: ${messageOf(error)}`));
	}

	private receive(message: Msg): void {
		const kind = message.subject.slice(message.subject.lastIndexOf('.') + 1);
		if (kind === 'claim') this.answerClaim(message);
		else if (kind === 'events') this.onEvent(message);
		else if (kind === 'output') this.onOutput(message);
		else if (kind !== 'cancel') this.options.log(`ignored a message on ${message.subject}: no such subject of an attempt`);
	}

	private answerClaim(message: Msg): void {
		const parsed = parseMessage(claimRequestSchema, message.data);
		const reply = (value: ClaimReply) => message.respond(encodeMessage(value));
		if (!parsed.ok) {
			this.options.log(`ignored a malformed claim of task ${this.task.id}: ${parsed.why}`);
			return;
		}

		if (this.ended || this.worker) {
			reply({v: 1, granted: false, why: this.ended ? 'the attempt has ended' : `worker ${this.worker!} has it`});
			return;
		}

		this.worker = parsed.value.worker;
		reply({v: 1, granted: true});
	}

	private onEvent(message: Msg): void {
		const parsed = parseMessage(attemptEventSchema, message.data);
		if (!parsed.ok) {
			this.options.log(`ignored a malformed event of task ${this.task.id}: ${parsed.why}`);
			return;
		}

		const event = parsed.value;
		if (this.ended || !this.worker || ('worker' in event && event.worker !== this.worker)) {
			this.options.log(`ignored a ${event.kind} event of task ${this.task.id} from ${'worker' in event ? event.worker : 'a worker'} that does not hold it`);
			return;
		}

		this.apply(event);
	}

	private apply(event: AttemptEvent): void {
		const id = this.task.id;
		switch (event.kind) {
			case 'started': {
				this.startedAt = event.at;
				this.hooks.emit({type: 'task.started', id, pid: event.pid, argv: event.argv, at: event.at});
				break;
			}

			case 'cancelling': {
				this.hooks.emit({type: 'task.cancelling', id, cancelling: event.cancelling, at: event.at});
				break;
			}

			case 'killed': {
				this.hooks.emit({type: 'task.killed', id, at: event.at});
				break;
			}

			case 'finished': {
				if (event.outputChunks !== this.nextSeq) this.notes.push(`the worker sent ${event.outputChunks} output chunks and ${this.nextSeq} arrived: the output here is incomplete (the worker's log has all of it)`);
				const {notes} = this;
				this.end({...event.result, ...(notes.length > 0 ? {warnings: [...(event.result.warnings ?? []), ...notes]} : {})});
				break;
			}
		}
	}

	private onOutput(message: Msg): void {
		const parsed = parseMessage(outputChunkSchema, message.data);
		if (!parsed.ok || this.ended || !this.worker) {
			this.options.log(`ignored ${parsed.ok ? 'output of task ' + this.task.id + ' that no worker holds' : `malformed output of task ${this.task.id}: ${parsed.why}`}`);
			return;
		}

		const {seq, stream, data} = parsed.value;
		if (seq < this.nextSeq) return; // a duplicate
		this.nextSeq = seq + 1;
		const chunk = Buffer.from(data, 'base64');
		if (stream === 'stdout') this.attemptOutput.output.pushStdout(chunk);
		else this.attemptOutput.output.pushStderr(chunk);
	}

	private lostResult(worker: string, why: string): TaskResult {
		const errorText = `its worker ${worker} was lost: ${why}. What became of the attempt is unknown (it may have run on, with side effects), so it is not run again by itself; R runs it again`;
		return {...buildResult(this.task, {status: 'lost', exitCode: null, signal: null, startedAt: this.startedAt ?? null, finishedAt: Date.now(), stdout: {text: '', truncated: false}, errorText, logPath: null}), host: worker};
	}

	private unstartedResult(status: TaskResult['status'], errorText: string): TaskResult {
		return buildResult(this.task, {status, exitCode: null, signal: null, startedAt: null, finishedAt: null, stdout: {text: '', truncated: false}, errorText, logPath: null});
	}

	private end(result: TaskResult): void {
		if (this.ended) return;
		this.ended = true;
		this.subscription?.unsubscribe();
		this.stopLost?.();
		this.attemptOutput.output.end();
		this.hooks.finished(result);
		this.resolveDone();
	}
}
