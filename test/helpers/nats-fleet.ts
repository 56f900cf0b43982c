// A real nats-server with JetStream on a free 127.0.0.1 port and a store of its own, and real
// worker processes (the built CLI's `worker`), each with its own HERMES_HOME, running the fake agent.
// Every test file is one fleet: a runner host's key, named in this process's environment (so every
// `run` a test starts inherits it), a key per worker name, and the trust file listing them all.
import {spawn, type ChildProcessByStdio} from 'node:child_process';
import {appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {connect as connectTcp, createServer, type Socket} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {Readable} from 'node:stream';
import {collect, fakeAgentPath, type Collected} from './processes.js';
import {cliPath} from './run-cli.js';
import {waitForLine} from './wait-for.js';
import {keyVariable, loadIdentity, newFleetKey, trustVariable, type FleetRole} from '../../src/distributed/fleet-key.js';
import {Signer} from '../../src/distributed/seal.js';

const fleetDir = mkdtempSync(path.join(tmpdir(), 'hd-fleet-'));
process.on('exit', () => rmSync(fleetDir, {recursive: true, force: true}));
const members = new Map<string, string>();
/** The test fleet's trust file. */
export const fleetTrust = path.join(fleetDir, 'trust');
writeFileSync(fleetTrust, '# the test fleet\n');

/** The key file of a member of the test fleet (made and listed in the trust file the first time). */
export function fleetMember(role: FleetRole, name: string): string {
	const known = members.get(`${role} ${name}`);
	if (known) return known;
	const {pem, id} = newFleetKey();
	const file = path.join(fleetDir, `${role}-${name}.pem`);
	writeFileSync(file, pem, {mode: 0o600});
	appendFileSync(fleetTrust, `${role} ${name} ${id}\n`);
	members.set(`${role} ${name}`, file);
	return file;
}

/** A key of its own outside the fleet (no trust line): what a stranger on the server holds. */
export function strangerKey(): string {
	const file = path.join(fleetDir, `stranger-${members.size}-${Date.now()}.pem`);
	writeFileSync(file, newFleetKey().pem, {mode: 0o600});
	return file;
}

process.env[keyVariable] = fleetMember('host', 'test-runner');
process.env[trustVariable] = fleetTrust;

/** The environment of the test fleet's runner host (for a process that does not inherit this one's, as under tmux). */
export function hostFleetEnv(): Record<string, string> {
	return {[keyVariable]: fleetMember('host', 'test-runner'), [trustVariable]: fleetTrust};
}

/** The environment of worker `name` of the test fleet: its own key. */
export function workerFleetEnv(name: string): Record<string, string> {
	return {[keyVariable]: fleetMember('worker', name), [trustVariable]: fleetTrust};
}

/** A runner host's (or a worker's) signer, for a test that speaks NATS itself. */
export function testSigner(role: FleetRole = 'host', name = 'test-runner'): Signer {
	const {identity, trust} = loadIdentity({key: fleetMember(role, name), trust: fleetTrust}, role, role === 'worker' ? name : undefined);
	return new Signer(identity, trust);
}

export const natsServerPath = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(file => existsSync(file));
/** The one line a suite prints when it cannot run here. */
export const natsSkipReason = 'nats-server is not installed (apt-get install nats-server; .ci/run does it): the distributed tests are skipped';

type Child = ChildProcessByStdio<null, Readable, Readable>;
/** What stopFleet kills: servers, workers, and whatever else a test hands it. */
type Killable = {kill(signal: NodeJS.Signals): unknown; exitCode: number | null; signalCode: NodeJS.Signals | null};
const started: Killable[] = [];
const folders: string[] = [];

export function scratchDir(prefix: string): string {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	folders.push(dir);
	return dir;
}

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

export type NatsServer = {url: string; port: number; store: string; extraArgs: string[]; env?: Record<string, string> | undefined; process: Child};

/** A server on a free port with a store of its own; `extraArgs` e.g. `-c FILE` for a config the test wrote; `env` what the config reads ($VAR). */
export async function startNatsServer(options: {extraArgs?: string[]; env?: Record<string, string>} = {}): Promise<NatsServer> {
	const port = await freePort();
	const store = scratchDir('hd-nats-store-');
	const server = {url: `nats://127.0.0.1:${port}`, port, store, extraArgs: options.extraArgs ?? [], env: options.env};
	return {...server, process: await spawnServer(server)};
}

async function spawnServer(server: Omit<NatsServer, 'url' | 'process'>): Promise<Child> {
	const child = spawn(natsServerPath!, ['-js', '-a', '127.0.0.1', '-p', String(server.port), '-sd', server.store, ...server.extraArgs], {stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, ...server.env}});
	started.push(child);
	await waitForLine(child.stderr, /Server is ready/);
	return child;
}

/** Stops the server (SIGTERM, as an operator's restart does) and waits until it has exited. */
export async function stopNatsServer(server: NatsServer): Promise<void> {
	if (server.process.exitCode !== null || server.process.signalCode !== null) return;
	const exited = new Promise(resolve => server.process.once('exit', resolve));
	server.process.kill('SIGTERM');
	await exited;
}

/** The same server again: same port, same store (its streams, consumers and messages survive). */
export async function restartNatsServer(server: NatsServer): Promise<NatsServer> {
	await stopNatsServer(server);
	return {...server, process: await spawnServer(server)};
}

/**
 * A TCP relay to the server: a worker connected through it loses NATS when cut() is called (as on
 * a network cut), while the server and everyone connected directly go on. Nothing passes after.
 */
export async function startRelay(server: NatsServer): Promise<{url: string; cut(): void}> {
	const sockets = new Set<Socket>();
	const relay = createServer(socket => {
		const upstream = connectTcp(server.port, '127.0.0.1');
		for (const end of [socket, upstream]) {
			sockets.add(end);
			end.on('error', () => undefined);
			end.on('close', () => {
				socket.destroy();
				upstream.destroy();
			});
		}

		socket.pipe(upstream).pipe(socket);
	});
	const port = await freePort();
	await new Promise<void>(resolve => relay.listen(port, '127.0.0.1', resolve));
	return {
		url: `nats://127.0.0.1:${port}`,
		cut() {
			relay.close();
			for (const socket of sockets) socket.destroy();
		},
	};
}

export type WorkerProcess = {name: string; home: string; process: Child; log: Collected};

export type WorkerSettings = {
	profiles?: string[];
	concurrency?: number;
	/** Its environment on top of this process's (FAKE_HERMES_VERSION=0.19.0 for an older Hermes). */
	env?: Record<string, string>;
	/** An earlier worker's home: the same worker started again (same run folders). */
	home?: string;
	/** More flags (--nats-creds FILE …). */
	args?: string[];
	/** Its home's config.yaml: the providers and base URLs it runs routes with (none without one). */
	config?: string;
};

export async function startWorker(url: string, name: string, options: WorkerSettings = {}): Promise<WorkerProcess> {
	const home = options.home ?? scratchDir(`hd-worker-${name}-`);
	for (const profile of options.profiles ?? []) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
	if (options.config !== undefined) writeFileSync(path.join(home, 'config.yaml'), options.config);
	const child = spawn(process.execPath, [cliPath, 'worker', '--nats', url, '--name', name, '--hermes-bin', fakeAgentPath, '-j', String(options.concurrency ?? 4), '--heartbeat', '1', ...(options.args ?? [])], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {...process.env, HERMES_HOME: home, XDG_CACHE_HOME: path.join(home, '.cache'), ...workerFleetEnv(name), ...options.env},
	});
	started.push(child);
	const log = collect(child.stderr);
	await waitForLine(child.stderr, /serving nats:/);
	return {name, home, process: child, log};
}

/** The task groups a worker's host recorded as started (processes.jsonl of its run folders): one per attempt it ran. */
export function startedRecords(home: string): Array<{task: string; pid: number; pgid: number}> {
	const runs = path.join(home, 'delegate', 'runs');
	if (!existsSync(runs)) return [];
	return readdirSync(runs).filter(run => !run.startsWith('.')).flatMap(run => {
		const file = path.join(runs, run, 'processes.jsonl');
		return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as {event: string; task: string; pid: number; pgid: number}) : [];
	}).filter(record => record.event === 'started');
}

/** A process the test started itself (a runner host, say): killed by stopFleet if it is still there. */
export function killAfterTest(child: Killable): void {
	started.push(child);
}

/** For afterEach: every server and worker this file started, and their folders. */
export function stopFleet(): void {
	for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	for (const dir of folders.splice(0)) rmSync(dir, {recursive: true, force: true});
}
