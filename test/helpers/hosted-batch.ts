// A batch of fake-agent tasks served by a runner host in this process: the runner, its control,
// the server on <runDir>/host.sock, and the events the runner announced (for comparisons).
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {loadHermesConfig} from '../../src/core/config/config.js';
import {BatchSteering} from '../../src/core/config/steering.js';
import {planBatch} from '../../src/core/plan/routing.js';
import {createRunFolder} from '../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../src/core/run/runner.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import type {BatchEvent, DelegationConfig, TaskSpec} from '../../src/core/types.js';
import {runnerControl} from '../../src/state/control.js';
import {serveBatch, type BatchServer, type ServeOptions} from '../../src/host/server.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from './processes.js';
import type {Scratch} from './scratch.js';
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
export async function hostFakeBatch(scratch: Scratch, goals: readonly string[], options: ServeOptions & {concurrency?: number; steered?: boolean; spend?: boolean} = {}): Promise<HostedFakeBatch> {
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
	const logs: string[] = [];
	const socketPath = path.join(folder.dir, 'host.sock');
	const server = await serveBatch({runner, control, plan, runId: folder.runId, runDir: folder.dir, concurrency, graceMs: 300, canSteer: steering !== undefined, canReroute: steering !== undefined, ...(steering ? {watchConfig: (listener: Parameters<BatchSteering['watch']>[0]) => steering.watch(listener, 50)} : {})}, socketPath, {
		...options,
		log(line) {
			logs.push(line);
			options.log?.(line);
		},
	});
	return {runner, server, socketPath, runDir: folder.dir, events, logs, control, configPath};
}
