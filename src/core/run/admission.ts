// "May this task start now?" as one decision (ROADMAP item 2): the batch's concurrency, the
// task's provider's slots (concurrency_per_provider) and the budgets of its scope are weighed in
// one place, so no part of the runner starts a task on its own terms. Pure: what is running and
// which budgets are reached are handed in.
import type {PlannedTask} from '../types.js';

export type Admission =
	| {kind: 'start'}
	/** waitingFor: the sentence for task.waiting; null when it waits for nothing but its turn. */
	| {kind: 'wait'; waitingFor: string | null}
	| {kind: 'refuse'; reason: string};

export type AdmissionState = {
	concurrency: number;
	/** concurrency_per_provider from delegate.yaml: provider → most attempts on it at once. */
	perProvider: Readonly<Record<string, number>>;
	/** A Hermes home's max_concurrent_sessions (hermes/session-cap.ts): profile (`default`: the root) → most sessions at once, if capped. */
	perHome?: ((home: string) => number | undefined) | undefined;
	running: number;
	runningOn: (provider: string) => number;
	runningIn?: ((home: string) => number) | undefined;
	/** Why the task may not start at all (a reached budget of its scope), else undefined. */
	refusal: (task: PlannedTask) => string | undefined;
};

/** The Hermes home the task's session opens in: its profile's, else the root (`-p default`). */
export function homeOf(task: PlannedTask): string {
	return task.effective.profile ?? 'default';
}

/** The provider whose slots the task takes: the route's effective one (null: the parent's, counted by no limit). */
export function providerOf(task: PlannedTask): string | null {
	return task.effective.provider;
}

export function admit(task: PlannedTask, state: AdmissionState): Admission {
	const refusal = state.refusal(task);
	if (refusal !== undefined) return {kind: 'refuse', reason: refusal};
	const provider = providerOf(task);
	const providerLimit = provider === null ? undefined : state.perProvider[provider];
	// The provider is named even when the batch is full too: it is what this task would still wait for.
	if (provider !== null && providerLimit !== undefined && state.runningOn(provider) >= providerLimit) {
		return {kind: 'wait', waitingFor: `waiting for a free ${provider} slot (${state.runningOn(provider)} of ${providerLimit} running; concurrency_per_provider)`};
	}

	// Over it Hermes refuses the start outright: a session slot of its home is waited for instead.
	const home = homeOf(task);
	const homeLimit = state.perHome?.(home);
	const inHome = state.runningIn?.(home) ?? 0;
	if (homeLimit !== undefined && inHome >= homeLimit) {
		const where = home === 'default' ? 'the Hermes home' : `profile ${home}'s home`;
		return {kind: 'wait', waitingFor: `waiting for a free session slot in ${where} (${inHome} of ${homeLimit} running; max_concurrent_sessions in its config.yaml)`};
	}

	if (state.running >= state.concurrency) return {kind: 'wait', waitingFor: null};
	return {kind: 'start'};
}
