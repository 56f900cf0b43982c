// The runner host: the process that owns a batch (its run folder, every subagent, the kill
// cascade, results.json) while dashboards and scripts come and go over <runDir>/host.sock.
// commands/host.ts prepares the batch and makes the runner exactly as `run` and `tui` did in-process;
// this file serves it and decides when the host may end:
// - never while a task is queued or running: nobody watching is no reason to stop (a detached batch);
// - once the batch has settled (no round running) and no client is attached: a dashboard's client
//   that quits, or the last `wait`, lets it go; a batch nobody watches ends with its last task;
//   a client that leaves with `detach` is let go only after the host's last write (releaseLeaving),
//   so a dashboard that quits, or a `wait`, returns once the run folder no longer changes;
// - a dashboard's batch that settles before its first client came (every task refused, say) waits
//   up to firstClientGraceMs for it, so the dashboard that launched it still shows the outcome;
// - on SIGTERM (stop()): the cascade, results written, and then it ends whoever is attached.
import {appendFileSync} from 'node:fs';
import path from 'node:path';
import type {BatchRunner} from '../core/run/runner.js';
import type {BatchReport} from '../core/types.js';
import {serveBatch, type BatchServer, type HostedBatch} from './server.js';
import {HostStatusFile} from './status.js';
import {ResultsKeeper} from './results-keeper.js';
import {terminalSafe} from '../core/output/visible-text.js';

export type HostMode = 'dashboard' | 'headless';

/** How long a dashboard's batch that has settled waits for its first client. */
export const firstClientGraceMs = 30_000;
/** Tests shorten the grace through this (milliseconds) rather than wait 30 s; nobody else needs it. */
export const firstClientGraceEnv = 'HERMES_DELEGATE_FIRST_CLIENT_GRACE_MS';

/** The grace from the env when it is a whole number of ms, else the default. */
export function firstClientGraceFrom(env: NodeJS.ProcessEnv): number {
	const text = env[firstClientGraceEnv];
	const value = text === undefined || !/^\d+$/.test(text.trim()) ? Number.NaN : Number(text.trim());
	return Number.isSafeInteger(value) ? value : firstClientGraceMs;
}

export const socketName = 'host.sock';
export const hostLogName = 'host.log';

export type HostLog = (line: string) => void;

/** host.log in the run folder: the host has no terminal; what it would say goes here. */
export function openHostLog(runDir: string): HostLog {
	const file = path.join(runDir, hostLogName);
	return line => {
		try {
			appendFileSync(file, `${new Date().toISOString()} ${terminalSafe(line).replaceAll('\n', ' ')}\n`, {mode: 0o600});
		} catch {
			// A full disk must not stop the batch; results.json is written on its own path.
		}
	};
}

export type RunningHost = {
	socket: string;
	/** A signal asked the host to end: the runner is being shut down; the host ends once it has settled. */
	stop(): void;
	/** The batch's last report, once the host has closed its socket. */
	done: Promise<BatchReport>;
};

/**
 * `planned`: called as soon as the plan is on disk and the socket serves, before the batch's first
 * agents are spawned (they start a turn later), so the foreground that waits for `ready` does not
 * wait for them too.
 */
export async function startHost(batch: HostedBatch, runner: BatchRunner, options: {mode: HostMode; log: HostLog; firstClientGraceMs?: number; origin?: string | undefined; planned?: () => void}): Promise<RunningHost> {
	const {log} = options;
	const socket = path.join(batch.runDir, socketName);
	const status = new HostStatusFile(batch.runDir, socket, batch.plan.tasks.map(task => ({id: task.id, refused: task.decision.refused})), options.origin);
	let settled = false;
	let stopping = false;
	/** A client other than a script has attached: the dashboard a dashboard's host waits for in its grace. */
	let watched = false;
	let graceOver = options.mode === 'headless';
	let check = () => undefined as void;
	const keeper = new ResultsKeeper(log, () => check());
	const unsubscribe = runner.subscribe(event => {
		status.onEvent(event);
		if (event.type === 'batch.finished') {
			settled = true;
			log(`batch finished: ${event.report.summary}`);
			keeper.finished(event.report);
			check();
		} else if (event.type === 'batch.reopened') {
			settled = false;
			log('batch re-opened by a retry');
		}
	});

	// Set once the host has decided to end: a client leaving (detach) then waits for its last word.
	let ending = false;
	const server: BatchServer = await serveBatch(batch, socket, {log, holdLeaving: () => ending, reportTaken: () => keeper.taken()});
	let lastCount = 0;
	const stopCounting = server.onClients(count => {
		watched ||= server.watcherCame();
		log(count > lastCount ? `a client attached (${count} now)` : `a client left (${count} now)`);
		lastCount = count;
		status.setClients(count);
		check();
	});
	log(`serving ${socket} (pid ${process.pid})`);

	const graceTimer = setTimeout(() => {
		graceOver = true;
		check();
	}, options.firstClientGraceMs ?? firstClientGraceMs);
	graceTimer.unref();

	// Ready only once the plan is on disk: a run folder that cannot take it is the operator's to
	// hear about in their terminal (bad input, exit 2), as before the host.
	let planned = () => undefined as void;
	const stopWaitingForPlan = runner.subscribe(event => {
		if (event.type !== 'batch.planned') return;
		options.planned?.();
		planned();
	});
	const started = runner.start();
	try {
		await Promise.race([new Promise<void>(resolve => {
			planned = resolve;
		}), started]);
	} catch (error) {
		clearTimeout(graceTimer);
		stopCounting();
		unsubscribe();
		await server.close();
		throw error;
	} finally {
		stopWaitingForPlan();
	}

	const done = (async () => {
		let report = await started;
		await new Promise<void>(resolve => {
			check = () => {
				const waitingForFirst = !watched && !graceOver;
				// A report results.json could not take keeps the host until a `wait` has it or a retry wrote it.
				if (settled && (stopping || (server.clients() === 0 && !waitingForFirst && keeper.safe))) {
					ending = true;
					resolve();
				}
			};

			check();
		});
		// A retry after the first finish ran more rounds: the newest report is the one that counts.
		report = await runner.whenSettled();
		clearTimeout(graceTimer);
		keeper.stop();
		stopCounting();
		unsubscribe();
		await server.close();
		status.setClients(0);
		await status.flushed();
		if (!watched && options.mode === 'dashboard') log('no dashboard came within the first-client grace: nobody is left to show the outcome');
		log(`${report.summary}; ${report.results_error !== undefined && !keeper.wroteLater ? report.results_error : `results in ${report.results_file}`}`);
		log('host ends');
		// The last thing: a client that left with `detach` learns the host has ended only once
		// nothing more will be written to the run folder (a script may remove it next).
		server.releaseLeaving();
		return report;
	})();

	return {
		socket,
		stop() {
			stopping = true;
			log('stop asked by a signal: every task gets the cascade');
			check();
		},
		done,
	};
}
