// `hermes-delegate worker --nats URL`: this host takes tasks of batches started elsewhere with
// `run --nats URL`, runs them with its own Hermes, home and keys, and reports back over NATS.
// Runs until SIGINT/SIGTERM: then it takes nothing new, lets what runs end, and leaves.
import {hostname} from 'node:os';
import {resolveHermesHome} from '../core/hermes/home.js';
import {requestedHermesBin, resolveHermesBin} from '../core/hermes/launcher.js';
import {defaultCachePath, probeHermes} from '../core/hermes/probe.js';
import {InputError} from '../core/errors.js';
import {openNats} from '../distributed/connection.js';
import {shownUrl} from '../distributed/auth.js';
import {fleetFiles, loadIdentity} from '../distributed/fleet-key.js';
import {Signer} from '../distributed/seal.js';
import {isSubjectToken} from '../distributed/subjects.js';
import {Worker} from '../distributed/worker.js';
import {parseNumber, type WorkerOptions} from './flags.js';
import type {CommandIO} from './io.js';

export async function workerCommand(options: WorkerOptions, io: CommandIO): Promise<number> {
	const name = options.name ?? hostname().replaceAll(/[^\w-]/g, '-');
	if (!isSubjectToken(name)) {
		throw new InputError(`--name "${name}" cannot name a worker: letters, digits, _ and - only, at most 100`, {}, 'e.g. --name gpu-host-1');
	}

	// Before anything is probed or connects: a worker outside the fleet's trust file would run nobody's tasks.
	const {identity, trust} = loadIdentity(fleetFiles(io.env, resolveHermesHome(io.env)), 'worker', name);
	const concurrency = options.concurrency === undefined ? 4 : parseNumber(options.concurrency, '--concurrency', {integer: true, min: 1});
	const heartbeatMs = Math.round(1000 * (options.heartbeat === undefined ? 2 : parseNumber(options.heartbeat, '--heartbeat', {min: 0.1})));
	const hermesBin = resolveHermesBin(options.hermesBin, io.env);
	const capabilities = await probeHermes(hermesBin, {env: io.env, cachePath: defaultCachePath(io.env)});
	if (!capabilities.probed) {
		throw new InputError(`cannot use ${requestedHermesBin(options.hermesBin, io.env)}: ${capabilities.problem ?? 'it could not be probed'}`, {}, 'pass --hermes-bin with a working hermes');
	}

	const auth = {credsFile: options.natsCreds, tlsCa: options.natsTlsCa, tlsCert: options.natsTlsCert, tlsKey: options.natsTlsKey, urlFromArgv: true, env: io.env};
	const nats = await openNats(options.nats, `hermes-delegate worker ${name}`, auth, new Signer(identity, trust));
	const log = (line: string) => io.stderr.write(`hermes-delegate worker ${name}: ${line}\n`);
	const worker = new Worker(nats, {name, concurrency, hermesBin, capabilities, hermesHome: resolveHermesHome(io.env), env: io.env, heartbeatMs, log});
	const stop = () => {
		log('stopping: taking nothing new; tasks under way run to their end');
		worker.stop();
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	try {
		// Said once a runner host can find it: a batch started after this line sees this worker.
		await worker.serve(() => log(`serving ${shownUrl(options.nats)} with ${concurrency} slot${concurrency === 1 ? '' : 's'} (Hermes ${capabilities.version ?? 'of unknown version'})`));
	} finally {
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
		await nats.close();
	}

	log('stopped');
	return 0;
}
