// Whether a worker can run a planned task: its Hermes has the flags the task's route needs, its
// home has the profile a profile route names, and configures the provider or base_url the task
// goes to (home-routes.ts). The runner host asks it of every live worker before
// anything is published (a task none can run is refused); a worker asks it of itself before it
// claims an offer (a worker that cannot run one leaves it to the others).
import {routeFlags} from '../core/hermes/flags.js';
import type {HermesCapabilities, PlannedTask} from '../core/types.js';
import type {WorkerAdvertisement} from './messages.js';
import {foreignRoute} from './home-routes.js';

/** How long an attempt no live worker can run waits for one (a worker restarting, say) before it ends. */
export const defaultWorkerWaitMs = 120_000;

/** undefined: it can; else why not, in words for the operator. */
export function unfitReason(task: PlannedTask, worker: Pick<WorkerAdvertisement, 'hermes' | 'profiles' | 'routes'>): string | undefined {
	const route = task.decision.route;
	if (route?.kind === 'profile' && !worker.profiles.includes(route.name)) {
		return `its home has no profile "${route.name}"`;
	}

	const foreign = foreignRoute(task, {providers: new Set(worker.routes.providers), baseUrls: new Set(worker.routes.base_urls)});
	if (foreign) return foreign;

	const flags = routeFlags({spec: task.spec, decision: task.decision, capabilities: capabilitiesOf(worker), maxIterations: task.launch.max_turns ?? undefined});
	return flags.refusal;
}

/** The advertisement's Hermes as the core's capabilities (the binary's path stays the worker's). */
export function capabilitiesOf(worker: Pick<WorkerAdvertisement, 'hermes'>): HermesCapabilities {
	return {bin: 'hermes', version: worker.hermes.version, probed: worker.hermes.probed, flags: worker.hermes.flags};
}
