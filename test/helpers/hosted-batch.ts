// A batch of fake-agent tasks served by a runner host in this process: the runner, its control,
// the server on <runDir>/host.sock, and the events the runner announced (for comparisons).
import path from 'node:path';
import {planBatch} from '../../src/core/plan/routing.js';
import {createRunFolder} from '../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../src/core/run/runner.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import type {BatchEvent, DelegationConfig, TaskSpec} from '../../src/core/types.js';
import {runnerControl} from '../../src/state/control.js';
import {serveBatch, type BatchServer, type ServeOptions} from '../../src/host/server.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from './processes.js';
import type {Scratch} from './scratch.js';

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
};

export async function hostFakeBatch(scratch: Scratch, goals: readonly string[], options: ServeOptions & {concurrency?: number} = {}): Promise<HostedFakeBatch> {
	const home = scratch.folder('host-test-');
	const tasks: TaskSpec[] = goals.map(goal => ({goal}));
	const plan = planBatch({tasks, delegation, settings: defaultSettings});
	const folder = createRunFolder(home);
	const concurrency = options.concurrency ?? 4;
	const runner = new BatchRunner(plan, {hermesBin: fakeAgentPath, capabilities: fakeCapabilities(), folder, concurrency, graceMs: 300, env: fakeVersionEnv()});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
	});
	const control = runnerControl(runner);
	const logs: string[] = [];
	const socketPath = path.join(folder.dir, 'host.sock');
	const server = await serveBatch({runner, control, plan, runId: folder.runId, runDir: folder.dir, concurrency, graceMs: 300, canSteer: false, canReroute: false}, socketPath, {
		...options,
		log(line) {
			logs.push(line);
			options.log?.(line);
		},
	});
	return {runner, server, socketPath, runDir: folder.dir, events, logs, control};
}
