// How the store takes the host's reply to a message: it applies when it lands. Whether a late
// reply still fits (the zoom moved on, a newer request was sent) is for `apply` to decide: it reads
// the state as it is when the reply lands.
import type {StoreApi} from 'zustand/vanilla';
import {terminalSafe} from '../core/output/visible-text.js';
import type {BatchState} from './store-types.js';

/**
 * `what` names the request in the notice a failed reply leaves ("reading t01's output");
 * `settled` runs after the reply applied or failed (to let the next request go).
 */
export function whenReplied<T>(store: Pick<StoreApi<BatchState>, 'setState'>, reply: Promise<T>, what: string, apply: (value: T) => void, settled?: () => void): void {
	// A rejection (the host went away, a refused request) and a throwing `apply` both end as a
	// notice: never as an unhandled rejection, which would end the process.
	reply.then(apply).catch((error: unknown) => {
		store.setState({notice: `${what} failed: ${terminalSafe(error instanceof Error ? error.message : String(error))}`});
	}).finally(settled);
}

/** Decided here (at once), or the host's reply (when it lands). */
export type Soon<T> = T | Promise<T>;

/** A patch decided here or from the host's reply. */
export type PatchSoon = Soon<Partial<BatchState>>;

/** A decision turned into another as soon as it is there: one made here stays at once. */
export function mapSoon<T, U>(value: Soon<T>, map: (value: T) => U): Soon<U> {
	return value instanceof Promise ? value.then(map) : map(value);
}

/**
 * A steering reply's patch, landing on the state as it is now. What the control did (the
 * notice, the conflict mark, the mode) always applies; the overlay it computed applies only
 * if the overlay is still the one the request was sent from (the operator may have moved on).
 */
export function landedPatch(state: Pick<BatchState, 'overlay'>, askedFrom: BatchState['overlay'], patch: Partial<BatchState>): Partial<BatchState> {
	if (state.overlay === askedFrom || !('overlay' in patch)) {
		return patch;
	}

	const {overlay: _computed, ...rest} = patch;
	return rest;
}

/** Sets a patch: at once when decided here, when it lands when it is the host's reply (landedPatch: against the overlay it was asked from). */
export function setWhenReplied(store: Pick<StoreApi<BatchState>, 'setState' | 'getState'>, patch: PatchSoon, what: string): void {
	if (!(patch instanceof Promise)) {
		store.setState(patch);
		return;
	}

	const askedFrom = store.getState().overlay;
	whenReplied(store, patch, what, landed => {
		store.setState(landedPatch(store.getState(), askedFrom, landed));
	});
}
