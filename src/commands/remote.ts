// A batch on worker hosts (`run`, `tui` and `run --detach` with --nats, or delegate.yaml's
// executor): where NATS is and how to reach it, and what the runner host needs before its batch is
// planned — NATS reached and the live workers found — and the executor that hands the batch's
// attempts to them.
import {InputError} from '../core/errors.js';
import {loadSettings, settingsPath} from '../core/config/settings.js';
import {resolveHermesHome} from '../core/hermes/home.js';
import type {RunFolder} from '../core/run-folder/folder.js';
import type {TaskExecutor} from '../core/run/executor.js';
import {openNats, type Nats} from '../distributed/connection.js';
import {shownUrl, type NatsAuth} from '../distributed/auth.js';
import {natsExecutor, type NatsExecutor} from '../distributed/executor.js';
import {Fleet, fleetCapabilities, refuseUnfit} from '../distributed/fleet.js';
import {defaultWorkerWaitMs} from '../distributed/fit.js';
import type {NatsOptions} from './flags.js';
import type {PreparedBatch, RemotePlanning} from './prepare.js';


export type NatsTarget = {url: string; auth: NatsAuth; workerWaitMs: number};

export type Remote = {
	nats: Nats;
	fleet: Fleet;
	planning: RemotePlanning;
	/** display: the dashboard's runner host keeps the panes' lines; `run` does not. */
	executorFor(batch: PreparedBatch, display?: boolean): (folder: RunFolder) => TaskExecutor;
	close(): Promise<void>;
};

/**
 * Where the batch's tasks run: worker hosts through NATS (--nats wins; else delegate.yaml's
 * `executor: {nats: URL}`), with the flags' or the file's credentials; undefined: here. The demo
 * always runs here.
 */
export function natsTargetOf(options: NatsOptions & {demo?: boolean | undefined}, env: NodeJS.ProcessEnv): NatsTarget | undefined {
	if (options.demo) return undefined;
	const fromFile = loadSettings(settingsPath(resolveHermesHome(env))).executor;
	const url = options.nats ?? fromFile?.nats;
	if (url === undefined) return undefined;
	// The file's credentials go with the file's server only: --nats elsewhere takes none of them.
	const file = options.nats === undefined || options.nats === fromFile?.nats ? fromFile : undefined;
	return {
		url,
		auth: {credsFile: options.natsCreds ?? file?.creds, tlsCa: options.natsTlsCa ?? file?.tls_ca, tlsCert: options.natsTlsCert ?? file?.tls_cert, tlsKey: options.natsTlsKey ?? file?.tls_key},
		workerWaitMs: Math.round((file?.worker_wait ?? defaultWorkerWaitMs / 1000) * 1000),
	};
}

/** The remote for a batch whose tasks run on worker hosts; undefined for one that runs here. */
export async function remoteFor(options: NatsOptions & {demo?: boolean | undefined}, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<Remote | undefined> {
	const target = natsTargetOf(options, env);
	return target === undefined ? undefined : openRemote(target, 'hermes-delegate runner host', log);
}

/** NATS reached and at least one live worker, or an InputError (exit 2) that says how to get there. */
export async function openRemote(target: NatsTarget, who: string, log: (line: string) => void): Promise<Remote> {
	const {url} = target;
	const nats = await openNats(url, who, target.auth);
	const fleet = await Fleet.discover(nats, log);
	const workers = fleet.live();
	if (workers.length === 0) {
		fleet.close();
		await nats.close();
		throw new InputError(`no live worker on NATS at ${shownUrl(url)}, so nothing was started`, {}, `start \`hermes-delegate worker --nats ${shownUrl(url)}\` on each host that should run tasks, then run again`);
	}

	log(`${workers.length} live worker${workers.length === 1 ? '' : 's'}: ${workers.map(worker => `${worker.name} (${worker.slots} slot${worker.slots === 1 ? '' : 's'}, Hermes ${worker.hermes.version ?? '?'})`).join(', ')}`);
	const executors: NatsExecutor[] = [];
	return {
		nats,
		fleet,
		planning: {capabilities: fleetCapabilities(workers), slots: workers.reduce((sum, worker) => sum + worker.slots, 0), refuseUnfit: plan => refuseUnfit(plan, fleet.live())},
		executorFor: (batch, display = false) => folder => {
			const executor = natsExecutor({nats, fleet, batch: folder.runId, capabilities: batch.capabilities, graceMs: batch.graceMs, timeoutMs: batch.timeoutMs, logLimitBytes: batch.logLimitBytes, display, workerWaitMs: target.workerWaitMs, log});
			executors.push(executor);
			return executor;
		},
		async close() {
			await Promise.all(executors.map(async executor => executor.close()));
			fleet.close();
			await nats.close();
		},
	};
}
