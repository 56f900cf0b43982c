// A batch on worker hosts (`run`, `tui` and `run --detach` with --nats, or delegate.yaml's
// executor; nats-target.ts says whether it is one): what the runner host needs before its batch is
// planned — NATS reached and the live workers found — and the executor that hands the batch's
// attempts to them. Imported only for such a batch: it loads the NATS client.
import {InputError} from '../core/errors.js';
import type {RunFolder} from '../core/run-folder/folder.js';
import type {TaskExecutor} from '../core/run/executor.js';
import {openNats, type Nats} from '../distributed/connection.js';
import {shownUrl} from '../distributed/auth.js';
import {loadIdentity} from '../distributed/fleet-key.js';
import {Signer} from '../distributed/seal.js';
import {natsExecutor, type NatsExecutor} from '../distributed/executor.js';
import {Fleet, fleetCapabilities, refuseUnfit} from '../distributed/fleet.js';
import type {NatsTarget} from './nats-target.js';
import type {PreparedBatch, RemotePlanning} from './prepare.js';

export type Remote = {
	nats: Nats;
	fleet: Fleet;
	planning: RemotePlanning;
	/** display: the dashboard's runner host keeps the panes' lines; `run` does not. */
	executorFor(batch: PreparedBatch, display?: boolean): (folder: RunFolder) => TaskExecutor;
	close(): Promise<void>;
};

/** NATS reached and at least one live worker, or an InputError (exit 2) that says how to get there. */
export async function openRemote(target: NatsTarget, who: string, log: (line: string) => void): Promise<Remote> {
	const {url} = target;
	const {identity, trust} = loadIdentity(target.fleetFiles, 'host');
	const nats = await openNats(url, who, target.auth, new Signer(identity, trust));
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
