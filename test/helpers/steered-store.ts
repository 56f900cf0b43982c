// A real HERMES_HOME with the steering config and two profiles, its config loaded and steered by
// the real BatchSteering, and a store on a two-task plan: what the dashboard's steering tests drive.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {loadHermesConfig} from '../../src/core/config/config.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import {BatchSteering} from '../../src/core/config/steering.js';
import {planBatch} from '../../src/core/plan/routing.js';
import {createBatchStore} from '../../src/state/store.js';
import type {BatchControl} from '../../src/wire/port.js';
import {FakeControl, t0} from './render.js';
import {steeringConfig} from './steering-config.js';

const homes: string[] = [];

/** `wrap`: what the store sees of the control (the async tests put it behind replies that come later). */
export function steeredStore(prefix: string, wrap: (control: BatchControl) => BatchControl = control => control) {
	const home = mkdtempSync(path.join(tmpdir(), prefix));
	homes.push(home);
	for (const profile of ['coder', 'writer']) mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
	const configPath = path.join(home, 'config.yaml');
	writeFileSync(configPath, steeringConfig);
	const loaded = loadHermesConfig({configPath, hermesHome: home, explicit: true});
	const plan = planBatch({tasks: [{goal: 'summaries of the logs'}, {goal: 'hard debugging of the parser'}], delegation: loaded.delegation, settings: defaultSettings});
	const steering = new BatchSteering(loaded, {runDir: home, applyRouting: () => []});
	const control = new FakeControl().steering({routing: () => steering.delegation, steer: steering.edit.bind(steering), profiles: steering.unroutedProfiles.bind(steering), reload: steering.reload.bind(steering)});
	const store = createBatchStore({control: wrap(control), plan, runId: 'run-test', runDir: home, concurrency: 1, graceMs: 1000, now: t0});
	return {home, configPath, steering, store, control};
}

/** For afterEach: removes every home made since the last call. */
export function removeSteeredHomes(): void {
	for (const home of homes.splice(0)) rmSync(home, {recursive: true, force: true});
}
