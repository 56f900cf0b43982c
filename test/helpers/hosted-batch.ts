// A batch of fake-agent tasks served by a runner host in this process: the runner, its control,
// the server on <runDir>/host.sock, and the events the runner announced (for comparisons); and
// hostTestsAfterEach, the setup every test file of the host shares (batches and clients ended
// after each test).
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {loadHermesConfig} from '../../src/core/config/config.js';
import {BatchSteering} from '../../src/core/config/steering.js';
import {planBatch} from '../../src/core/plan/routing.js';
import {createRunFolder} from '../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../src/core/run/runner.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import type {BatchEvent, DelegationConfig, TaskSpec} from '../../src/core/types.js';
import {runnerControl} from '../../src/host/control.js';
import {serveBatch, type BatchServer, type HostedBatch, type ServeOptions} from '../../src/host/server.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from './processes.js';
import {afterEach} from 'vitest';
import {storeFromSnapshot} from '../../src/client/attach-store.js';
import {connectToBatch, type BatchConnection} from '../../src/client/connection.js';
import {feedStore} from '../../src/state/feed.js';
import type {BatchStore} from '../../src/state/store-types.js';
import {scratchAfterEach, type Scratch} from './scratch.js';
import {steeringConfig} from './steering-config.js';

const delegation: DelegationConfig = {
	mode: 'model_map',
	modelMap: {options: [{kind: 'model', name: 'fast', description: 'Cheap and quick lookups.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'}], default: 'fast'},
	profileRoutes: {profiles: []},
	builtin: {},
	source: {path: '/nonexistent/config.yaml', exists: false},
};

export type HostedFakeBatch = {
	runner: BatchRunner;
	server: BatchServer;
	socketPath: string;
	runDir: string;
	events: BatchEvent[];
	logs: string[];
	control: ReturnType<typeof runnerControl>;
	/** With `steered`: the batch's config.yaml, steered through the socket. */
	configPath: string | null;
};

/**
 * `steered`: the batch runs on a real config.yaml (steeringConfig, with two profiles) that clients may steer.
 * `spend`: the fakes run under HERMES_HOME = the batch's home, so they record their sessions in its state.db and the batch reads real spend.
 */
type FakeBatchOptions = {concurrency?: number; steered?: boolean; spend?: boolean};

/** The batch a host would serve, not served yet: for startHost (host-main), which serves it itself. */
export function fakeBatchToHost(scratch: Scratch, goals: readonly string[], options: FakeBatchOptions = {}): Omit<HostedFakeBatch, 'server' | 'logs'> & {hosted: HostedBatch} {
	const home = scratch.folder('host-test-');
	const tasks: TaskSpec[] = goals.map(goal => ({goal}));
	const configPath = options.steered ? path.join(home, 'config.yaml') : null;
	if (configPath) {
		for (const profile of ['coder', 'writer']) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
		writeFileSync(configPath, steeringConfig);
	}

	const loaded = configPath ? loadHermesConfig({configPath, hermesHome: home, explicit: true}) : undefined;
	const plan = planBatch({tasks, delegation: loaded?.delegation ?? delegation, settings: defaultSettings});
	const folder = createRunFolder(home);
	const concurrency = options.concurrency ?? 4;
	const runner = new BatchRunner(plan, {hermesBin: fakeAgentPath, capabilities: fakeCapabilities(), folder, concurrency, graceMs: 300, env: {...fakeVersionEnv(), ...(options.spend ? {HERMES_HOME: home} : {})}, ...(loaded ? {routing: {settings: defaultSettings, outsideWarnings: []}} : {})});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
	});
	const steering = loaded && new BatchSteering(loaded, {runDir: folder.dir, applyRouting: routing => runner.applyRouting(routing)});
	const control = runnerControl(runner, steering);
	const socketPath = path.join(folder.dir, 'host.sock');
	const hosted: HostedBatch = {runner, control, plan, runId: folder.runId, runDir: folder.dir, concurrency, graceMs: 300, canSteer: steering !== undefined, canReroute: steering !== undefined, ...(steering ? {watchConfig: (listener: Parameters<BatchSteering['watch']>[0]) => steering.watch(listener, 50)} : {})};
	return {runner, socketPath, runDir: folder.dir, events, control, configPath, hosted};
}

/** fakeBatchToHost, served on its socket. */
export async function hostFakeBatch(scratch: Scratch, goals: readonly string[], options: ServeOptions & FakeBatchOptions = {}): Promise<HostedFakeBatch> {
	const {hosted, ...batch} = fakeBatchToHost(scratch, goals, options);
	const logs: string[] = [];
	const server = await serveBatch(hosted, batch.socketPath, {
		...options,
		log(line) {
			logs.push(line);
			options.log?.(line);
		},
	});
	return {...batch, server, logs};
}

export type HostTests = {
	scratch: Scratch;
	/** Runs after the test (last registered first), after the batches and clients below are ended. */
	onCleanup(cleanup: () => void | Promise<void>): void;
	/** hostFakeBatch, with its server closed and its runner shut down (SIGKILL) after the test. */
	host(goals: readonly string[], options?: ServeOptions & FakeBatchOptions): Promise<HostedFakeBatch>;
	/** A client of `batch`, closed after the test, with every event it got (the snapshot's first). */
	connect(batch: {socketPath: string}, client?: string): Promise<{connection: BatchConnection; events: BatchEvent[]}>;
	/** A dashboard's store over a connection (storeFromSnapshot, fed live), ended after the test. */
	attachStore(batch: {socketPath: string}, client?: string): Promise<{connection: BatchConnection; store: BatchStore}>;
};

/** Call at the top level of a test file of the host: what every such file set up for itself. */
export function hostTestsAfterEach(): HostTests {
	const scratch = scratchAfterEach();
	const cleanups: Array<() => void | Promise<void>> = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});
	return {
		scratch,
		onCleanup: cleanup => cleanups.push(cleanup),
		async host(goals, options) {
			const batch = await hostFakeBatch(scratch, goals, options);
			cleanups.push(async () => batch.server.close());
			cleanups.push(() => batch.runner.shutdown({skipGrace: true}));
			return batch;
		},
		async connect(batch, client = 'test') {
			const connection = await connectToBatch(batch.socketPath, {client});
			cleanups.push(() => connection.close());
			const events: BatchEvent[] = connection.snapshot.events.map(entry => entry.event);
			connection.source.subscribe(event => events.push(event));
			return {connection, events};
		},
		async attachStore(batch, client = 'test') {
			const connection = await connectToBatch(batch.socketPath, {client});
			const store = storeFromSnapshot(connection);
			const stop = feedStore(store, connection.source);
			cleanups.push(() => {
				stop();
				connection.close();
			});
			return {connection, store};
		},
	};
}
