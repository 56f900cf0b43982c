// Whether a batch's tasks go to worker hosts, and how NATS is reached: read from the flags and
// delegate.yaml without loading the NATS client, so a plain `run` or `tui` never pays for its
// start-up (bench/RESULTS.md, 2026-12-03, 7ee40b5); remote.ts, which holds the client, is imported only
// once this says yes.
import {loadSettings, settingsPath} from '../core/config/settings.js';
import {resolveHermesHome} from '../core/hermes/home.js';
import type {NatsAuth} from '../distributed/auth.js';
import {fleetFiles} from '../distributed/fleet-key.js';
import {defaultWorkerWaitMs} from '../distributed/fit.js';
import type {NatsOptions} from './flags.js';

export type NatsTarget = {url: string; auth: NatsAuth; workerWaitMs: number; fleetFiles: {key: string; trust: string}};

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
		auth: {credsFile: options.natsCreds ?? file?.creds, tlsCa: options.natsTlsCa ?? file?.tls_ca, tlsCert: options.natsTlsCert ?? file?.tls_cert, tlsKey: options.natsTlsKey ?? file?.tls_key, urlFromArgv: options.nats !== undefined, env},
		workerWaitMs: Math.round((file?.worker_wait ?? defaultWorkerWaitMs / 1000) * 1000),
		fleetFiles: fleetFiles(env, resolveHermesHome(env)),
	};
}
