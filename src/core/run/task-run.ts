// One attempt of one task as a local process group, from launch to TaskResult: the prompt file,
// the spawn, the output piped to the task's log and its TaskOutput, the timeout, the watch on its
// process family, the kill cascade, and reading Hermes's output into a result. This is the local
// executor (executor.ts): the batch (runner.ts) only decides when, and hears back through its hooks.
// It stays one file over 300 lines because it is one idea: the steps of an attempt (prepare, spawn,
// awaitExit, cleanUp, interpret) share the attempt's state, and split apart they would pass it around.
import {lowerAgentPriority} from '../process/priority.js';
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {interpretHermesOutput, withoutSessionLine} from '../hermes/output.js';
import {readExit} from '../hermes/exit-reasons.js';
import {buildLaunch, childEnv, promptOf, type Launch} from '../hermes/launcher.js';
import {spawnIfDescriptors} from '../process/open-files.js';
import {watchFamily, type FamilyWatch} from '../process/family.js';
import {familyOutlivesAgent} from '../process/after-exit.js';
import {forgetGroup, processStartTicks, rememberGroup, startKillCascade, type Cascade, type GroupExit, type GroupProcess} from '../process/group.js';
import {readProcStat} from '../process/proc-tree.js';
import {buildResult, describeExit, describeStop, finalStatus, stoppedBecause, type TimeoutLimit} from './results.js';
import {outputModeOf} from '../hermes/flags.js';
import type {RunFolder} from '../run-folder/folder.js';
import {StreamJsonDecoder} from '../hermes/stream-json/decoder.js';
import {TaskOutput} from '../output/task-output.js';
import {closeTaskLog, openTaskLog, type TaskLog} from '../output/task-log.js';
import {outputEnd, pipeWithBackpressure, type OutputActivity} from '../output/output-pipe.js';
import type {HermesCapabilities, PlannedTask, StopReason, TaskResult, TaskTelemetry, ToolCallRecord} from '../types.js';
import type {AttemptOutput, ExecutionHooks, TaskExecutor} from './executor.js';
import {setLongTimeout} from './long-timer.js';
import {attemptStateDb} from './spend.js';
import {FollowLoop, SessionFollower} from './session-follower.js';
import {messageOf} from '../errors.js';

/** What every task of a batch is started with: the part of the batch's RunnerOptions that is not about the batch. */
export type TaskRunSettings = {
	hermesBin: string;
	/** What the installed Hermes can do (hermes/probe.ts): decides the output mode and the flags. */
	capabilities: HermesCapabilities;
	folder: RunFolder;
	graceMs: number;
	/** Batch timeout per task; a task's own `timeout` wins. */
	timeoutMs?: number | undefined;
	env?: NodeJS.ProcessEnv | undefined;
	/** Lines of output kept in memory per task for the dashboard. */
	tailLines?: number | undefined;
	/** false when nobody watches (headless run): output goes to the logs and the result only. */
	display?: boolean | undefined;
	/** Most bytes one task's log keeps (its first and last part); 0 or absent: no limit. */
	logLimitBytes?: number | undefined;
	/** How often each task's process tree is scanned for descendants that leave its session (setsid); 0: never. */
	descendantScanMs?: number | undefined;
	/** Niceness each agent is given as it starts (process/priority.ts); 0 or absent: left alone. */
	agentNice?: number | undefined;
	/** How often running attempts' sessions in state.db are read for live spend and activity (ms); 0: never. */
	followMs?: number | undefined;
};

/** Runs each attempt as a `hermes` process group on this machine. */
export function localExecutor(settings: TaskRunSettings): TaskExecutor {
	// One timer visits every running attempt's session (session-follower.ts).
	const follow = settings.followMs === 0 ? undefined : new FollowLoop(settings.followMs ?? 1000);
	return {
		newOutput: onTelemetry => newAttemptOutput(settings, onTelemetry),
		run(task, attempt, output, hooks) {
			const run = new TaskRun(task, attempt, output, settings, hooks, follow);
			// From the next microtask: a start that fails at once must not call hooks.finished before run() returned.
			const done = Promise.resolve().then(async () => run.start());
			return {stop: (reason, skipGrace) => run.stop(reason, skipGrace), skipGrace: () => run.skipGrace(), done};
		},
	};
}

/** A fresh buffer for one attempt's output, read as the Hermes of `capabilities` prints it (also for attempts run elsewhere). */
export function newAttemptOutput(settings: Pick<TaskRunSettings, 'capabilities' | 'tailLines' | 'display'>, onTelemetry: (telemetry: TaskTelemetry) => void): AttemptOutput {
	const outputMode = outputModeOf(settings.capabilities.flags);
	const decoder = outputMode === 'stream-json' ? new StreamJsonDecoder({onTelemetry}) : undefined;
	return {output: new TaskOutput({maxLines: settings.tailLines, display: settings.display, decoder, stderrFilter: outputMode === 'text' ? undefined : withoutSessionLine}), decoder};
}

/** The launch, written down: what was run, and where its output goes. */
type Prepared = {launch: Launch; logPath: string};
/** The process as it runs: its family watched, its output piped. */
type Running = {child: GroupProcess; startTicks: number | null; family: FamilyWatch; log: TaskLog; activity: OutputActivity};
/** How the leader ended, and when. */
type Exited = {exit: GroupExit; exitedAt: number};

class TaskRun {
	private readonly startedAt = Date.now();
	private process?: GroupProcess;
	private family?: FamilyWatch;
	private cascade?: Cascade;
	private stopReason?: StopReason;
	/** The limit awaitExit set, said if the task runs into it. */
	private timeoutLimit?: TimeoutLimit;
	/** A stop we asked for has begun; the timeout then has nothing left to do. */
	private stopping = false;

	constructor(
		private readonly task: PlannedTask,
		/** 1, then one more each time the operator re-routes the finished task. */
		private readonly attempt: number,
		private readonly attemptOutput: AttemptOutput,
		private readonly settings: TaskRunSettings,
		private readonly hooks: ExecutionHooks,
		private readonly follow: FollowLoop | undefined,
	) {}

	private follower?: SessionFollower;

	/** Stop this attempt: the kill cascade now, or as soon as the process exists if it is still spawning. */
	stop(reason: StopReason, skipGrace: boolean): void {
		this.stopReason = reason;
		if (!this.process) {
			return; // still spawning: start() begins the cascade as soon as the pid is known
		}

		this.startCascade(this.process.pid, skipGrace);
	}

	/** A stop already under way ends its grace period now. */
	skipGrace(): void {
		this.cascade?.skipGrace();
	}

	/** Launches the task and resolves once its result has been handed to hooks.finished. */
	async start(): Promise<void> {
		const prepared = this.prepare();
		const running = prepared && await this.spawn(prepared);
		if (!prepared || !running) {
			return; // finished already, as a failure to start
		}

		const exited = await this.awaitExit(running);
		const ended = await this.cleanUp(running);
		this.hooks.finished(this.interpret(prepared, exited, ended));
	}

	/** The command line, and the prompt file when the prompt is too long for it. */
	private prepare(): Prepared | undefined {
		const {task, settings} = this;
		const {folder, capabilities} = settings;
		// Each attempt has its own log: the first <id>.log, a re-routed one <id>.<attempt>.log.
		const logPath = this.attempt === 1 ? folder.logPath(task.id) : path.join(path.dirname(folder.logPath(task.id)), `${task.id}.${this.attempt}.log`);
		try {
			const launch = buildLaunch(task, settings.hermesBin, {capabilities, promptFile: task.launch.prompt_file ? writePromptFile(folder.dir, task) : undefined, batchTimeoutMs: settings.timeoutMs});
			return {launch, logPath};
		} catch (error) {
			this.failToStart(`could not prepare the prompt file: ${messageOf(error)}`);
			return undefined;
		}
	}

	/** Spawns the process group, takes charge of it (records, family watch, a stop that came meanwhile) and pipes its output. */
	private async spawn({launch, logPath}: Prepared): Promise<Running | undefined> {
		const {task, settings} = this;
		const log = openTaskLog(logPath, {limitBytes: settings.logLimitBytes});
		let child: GroupProcess;
		try {
			child = await spawnIfDescriptors(launch.file, launch.args, {env: childEnv(settings.env ?? process.env, launch.env)});
		} catch (error) {
			log.end();
			this.failToStart(messageOf(error));
			return undefined;
		}

		this.process = child;
		const pgid = child.pid;
		rememberGroup(pgid);
		lowerAgentPriority(child.pid, settings.agentNice ?? 0);
		const startTicks = processStartTicks(child.pid);
		const family = watchFamily({pid: pgid, startTicks}, {intervalMs: settings.descendantScanMs ?? 1000, onLeftSession: stat => this.hooks.record({event: 'escaped', task: task.id, pid: stat.pid, pgid, start_ticks: stat.startTicks, at: new Date().toISOString()})});
		this.family = family;
		this.hooks.record({event: 'started', task: task.id, pid: child.pid, pgid, start_ticks: startTicks, at: new Date().toISOString()});
		this.hooks.emit({type: 'task.started', id: task.id, pid: child.pid, argv: [launch.file, ...launch.args], at: this.startedAt});
		if (this.stopReason) {
			this.startCascade(pgid, false); // cancelled between spawn request and spawn
		}

		const {output} = this.attemptOutput;
		this.startFollowing();
		const activity = {lastChunkAt: Date.now()};
		pipeWithBackpressure(child.stdout, log, chunk => output.pushStdout(chunk), activity);
		pipeWithBackpressure(child.stderr, log, chunk => output.pushStderr(chunk), activity);
		return {child, startTicks, family, log, activity};
	}

	/** Waits for the leader to exit; past the task's timeout, stops it. */
	private async awaitExit({child, startTicks}: Running): Promise<Exited> {
		const {task, settings} = this;
		const timeoutMs = task.spec.timeout === undefined ? settings.timeoutMs : task.spec.timeout * 1000;
		if (timeoutMs !== undefined) this.timeoutLimit = {ms: timeoutMs, own: task.spec.timeout !== undefined};
		let leaderExited = false;
		void child.exited.then(() => {
			leaderExited = true;
		});
		const timer = timeoutMs === undefined ? undefined : setLongTimeout(() => {
			// After hermes-delegate was stopped (SIGSTOP, Ctrl+Z) past a deadline, its timers fire on
			// SIGCONT before the exits that happened meanwhile are read: the check phase comes after the
			// poll that reads them, and a leader already a zombie finished on its own, before we could act.
			setImmediate(() => {
				if (!this.stopping && !leaderExited && !hasExited(child.pid, startTicks)) {
					this.stopReason = 'timeout';
					this.startCascade(child.pid, false);
				}
			});
		}, timeoutMs);

		const exit = await child.exited;
		const exitedAt = Date.now();
		clearTimeout(timer);
		return {exit, exitedAt};
	}

	/** Ends what the leader left behind, waits for the cascade and the output, and closes the log: returns what the result must note. */
	private async cleanUp({child, family, log, activity}: Running): Promise<{notes: string[]; forced: boolean}> {
		const pgid = child.pid;
		// The leader is gone; anything it left in its group, session or tree (a backgrounded
		// grandchild, a job-control shell's job) is ours to end, or it would outlive the batch.
		if (!this.cascade && await familyOutlivesAgent(family.family) && !this.cascade) {
			this.startCascade(pgid, false, {quiet: true});
		}

		const cascadeOutcome = await this.cascade?.done;
		forgetGroup(pgid); // empty now: its id may be recycled by anything
		family.stop();
		const notes: string[] = [];
		if (await outputEnd(child.closed, activity, log) === 'held') {
			child.detachOutput();
			await child.closed;
			notes.push('its process group ended but its output pipe stayed open: a process that left the group (setsid) still holds it and may still be running; output after that point is not in the log');
		}

		this.attemptOutput.output.end();
		notes.push(...await closeTaskLog(log));
		this.hooks.record({event: 'ended', task: this.task.id, pid: child.pid, pgid, start_ticks: null, at: new Date().toISOString()});
		return {notes, forced: cascadeOutcome?.forced ?? false};
	}

	/** The attempt's result: Hermes's output read for the answer, and how the process ended. */
	private interpret({launch, logPath}: Prepared, {exit, exitedAt}: Exited, ended: {notes: string[]; forced: boolean}): TaskResult {
		const {task, settings: {capabilities}} = this;
		const {output, decoder} = this.attemptOutput;
		const stdout = output.result();
		const stderr = output.errorText();
		const stream = decoder?.summary();
		const hermes = interpretHermesOutput({mode: launch.output, exitCode: exit.exitCode, stdout, stderr, stream});
		// A stop we asked for decides; else Hermes's exit, where an exit 0 that answered nothing fails.
		const reading = this.stopReason ? undefined : readExit({mode: launch.output, exitCode: exit.exitCode, signal: exit.signal, answer: hermes.answer, stdout: stdout.text, stderr, resultEvent: stream ? stream.result !== null : undefined});
		const status = reading ? (reading.succeeded ? 'succeeded' : 'failed') : finalStatus(this.stopReason, exit.exitCode);
		const followed = this.stopFollowing(hermes.sessionId);
		// A stop we asked for is reported as what we did and what happened, not as the traceback
		// Hermes prints when SIGTERM interrupts it (that stays in the log).
		const stopped = this.stopReason && this.cascade
			? describeStop({reason: this.stopReason, termSentAt: this.cascade.termSentAt, killDueAt: this.cascade.killDueAt, graceMs: this.settings.graceMs, endedAt: exitedAt, signal: exit.signal, exitCode: exit.exitCode, forced: ended.forced, ...(this.timeoutLimit ? {timeout: this.timeoutLimit} : {})})
			: undefined;
		const errorText = status === 'succeeded' ? undefined : stopped ?? withReason(reading?.sentence, hermes.error) ?? describeExit(status, exit.exitCode, exit.signal, this.stopReason, this.timeoutLimit);
		return buildResult(task, {
			status,
			exitCode: exit.exitCode,
			signal: exit.signal,
			startedAt: this.startedAt,
			finishedAt: Date.now(),
			// An exit 0 read as a failure (no answer, the TUI's line) keeps no answer either.
			stdout: status === 'succeeded' ? {text: hermes.answer, truncated: hermes.answerTruncated} : {text: '', truncated: false},
			answer: status === 'succeeded' ? hermes.answer : '',
			errorText,
			failureReason: reading?.reason,
			notes: [...hermes.notes, ...(reading?.note ? [reading.note] : []), ...ended.notes, ...followed.notes],
			logPath,
			sessionId: hermes.sessionId,
			hermesVersion: capabilities.version,
			tokens: hermes.tokens,
			configuredModel: hermes.configuredModel,
			// Without stream-json Hermes prints no tool calls: they are its session's messages rows.
			toolCalls: decoder ? hermes.toolCalls : followed.toolCalls ?? hermes.toolCalls,
			costUsd: hermes.costUsd,
		});
	}

	/**
	 * From the spawn on, the attempt's session is read once a second: its row for the live spend
	 * (task.spend), and without stream-json its messages for the pane and the result's tool calls.
	 */
	private startFollowing(): void {
		const {task, settings, follow} = this;
		if (!follow) return;
		const {decoder, output} = this.attemptOutput;
		this.follower = new SessionFollower({
			dbPath: attemptStateDb(task, settings.env ?? process.env),
			prompt: promptOf(task.spec),
			spawnedAt: this.startedAt,
			source: settings.capabilities.flags.source ? 'tool' : undefined,
			namedSession: () => decoder?.namedSession ?? null,
			liveLines: decoder === undefined,
			onSpend: spend => this.hooks.emit({type: 'task.spend', id: task.id, attempt: this.attempt, spend, at: Date.now()}),
			onLines: lines => output.pushDisplayLines(lines),
		});
		follow.add(this.follower);
	}

	/** The final read, with the session the output named: the tool calls it saw, and a note for what only it could not read. */
	private stopFollowing(namedSession: string | null): {toolCalls: ToolCallRecord[] | undefined; notes: string[]} {
		const {follower, follow} = this;
		if (!follower || !follow) return {toolCalls: undefined, notes: []};
		follow.remove(follower);
		const {toolCalls, problem} = follower.finish(namedSession);
		// A file spend cannot read either is said once by spend (runner.ts); a messages table we cannot read only here.
		const note = problem?.table === 'messages' && follow.firstTime(problem.message) ? [`no live activity from the session's messages: ${problem.message}`] : [];
		return {toolCalls: this.attemptOutput.decoder ? undefined : toolCalls, notes: note};
	}

	/** The attempt never ran: it ends as what a stop asked for, if one came while it was spawning, whatever the spawn did. */
	private failToStart(message: string): void {
		const {task, stopReason} = this;
		const errorText = stopReason ? `${stoppedBecause[stopReason]} while it was starting; the start failed too: ${message}` : message;
		this.hooks.finished(buildResult(task, {status: finalStatus(stopReason, null), exitCode: null, signal: null, startedAt: this.startedAt, finishedAt: Date.now(), stdout: {text: '', truncated: false}, errorText, logPath: null, hermesVersion: this.settings.capabilities.version}));
	}

	private startCascade(pgid: number, skipGrace: boolean, options: {quiet?: boolean} = {}): void {
		if (this.cascade) {
			if (skipGrace) {
				this.cascade.skipGrace();
			}

			return;
		}

		const {id} = this.task;
		startKillCascade(this.family?.family ?? pgid, {
			graceMs: skipGrace ? 0 : this.settings.graceMs,
			onKill: () => {
				if (!options.quiet) {
					this.hooks.emit({type: 'task.killed', id, at: Date.now()});
				}
			},
			// task.cancelling goes out before SIGTERM, whose /proc scan would hold up what the
			// operator sees (through the runner host, the event then still has a socket to cross);
			// the cascade is ours first, so a kill asked for on hearing of it reaches it.
			onStart: cascade => {
				this.cascade = cascade;
				if (options.quiet) {
					return;
				}

				this.stopping = true;
				this.hooks.emit({
					type: 'task.cancelling',
					id,
					cancelling: {reason: this.stopReason ?? 'cancel', termSentAt: cascade.termSentAt, killDueAt: cascade.killDueAt, killSent: false},
					at: Date.now(),
				});
			},
		});
	}
}

/**
 * A prompt too long for one argument goes to Hermes as --query-file: written into the run folder,
 * readable by us only (it is the operator's text, and maybe secret).
 */
function writePromptFile(runDir: string, task: PlannedTask): string {
	const prompt = promptOf(task.spec);
	// An empty --query-file makes Hermes exit 2 (the plan refuses such a task; this is the last guard).
	if (prompt.trim() === '') throw new Error(`task ${task.id}: its prompt is empty`);
	const file = path.join(runDir, 'prompts', `${task.id}.txt`);
	mkdirSync(path.dirname(file), {recursive: true, mode: 0o700});
	writeFileSync(file, prompt, {mode: 0o600});
	return file;
}

/** The reason's sentence first, then Hermes's own words: "quota wall (exit 75): …: HTTP 429 …". */
function withReason(sentence: string | undefined, message: string | undefined): string | undefined {
	if (sentence === undefined) return message;
	return message === undefined || message === '' ? sentence : `${sentence}: ${message}`;
}

/** The process exited and awaits its reaping (a zombie: its pid cannot have been reused yet). */
function hasExited(pid: number, startTicks: number | null): boolean {
	const stat = readProcStat(pid);
	return stat?.state === 'Z' && (startTicks === null || stat.startTicks === startTicks);
}
