// How the store takes a control's reply: a plain value (in-process) applies at once, so the
// dashboard behaves exactly as when the control was synchronous; a promise (across a socket)
// applies when it resolves. Whether a late reply still fits (the zoom moved on, a newer request
// was sent) is for `apply` to decide: it reads the state as it is when the reply lands.
import type {StoreApi} from 'zustand/vanilla';
import {terminalSafe} from '../core/output/visible-text.js';
import type {BatchState} from './store-types.js';
import type {Reply} from '../wire/port.js';

/**
 * `what` names the request in the notice a failed reply leaves ("reading t01's output");
 * `settled` runs after the reply applied or failed (to let the next request go).
 */
export function whenReplied<T>(store: Pick<StoreApi<BatchState>, 'setState'>, reply: Reply<T>, what: string, apply: (value: T) => void, settled?: () => void): void {
	if (!isPromise(reply)) {
		try {
			apply(reply);
		} finally {
			settled?.();
		}

		return;
	}

	// A rejection (the host went away, a refused request) and a throwing `apply` both end as a
	// notice: never as an unhandled rejection, which would end the process.
	reply.then(apply).catch((error: unknown) => {
		store.setState({notice: `${what} failed: ${terminalSafe(error instanceof Error ? error.message : String(error))}`});
	}).finally(settled);
}

function isPromise<T>(reply: Reply<T>): reply is Promise<T> {
	return typeof (reply as {then?: unknown} | null | undefined)?.then === 'function';
}

/** A reply turned into another, as soon as it is there: a plain value stays plain (and at once). */
export function mapReply<T, U>(reply: Reply<T>, map: (value: T) => U): Reply<U> {
	return isPromise(reply) ? reply.then(map) : map(reply);
}

/**
 * A steering reply's patch, landing on the state as it is now. What the control did (the
 * notice, the conflict mark, the mode) always applies; the overlay it computed applies only
 * if the overlay is still the one the request was sent from (the operator may have moved on).
 * In-process nothing can happen in between, so the whole patch applies.
 */
export function landedPatch(state: Pick<BatchState, 'overlay'>, askedFrom: BatchState['overlay'], patch: Partial<BatchState>): Partial<BatchState> {
	if (state.overlay === askedFrom || !('overlay' in patch)) {
		return patch;
	}

	const {overlay: _computed, ...rest} = patch;
	return rest;
}

/** Sets a patch that is the control's reply, when it lands (landedPatch: against the overlay it was asked from). */
export function setWhenReplied(store: Pick<StoreApi<BatchState>, 'setState' | 'getState'>, reply: Reply<Partial<BatchState>>, what: string): void {
	const askedFrom = store.getState().overlay;
	whenReplied(store, reply, what, patch => {
		store.setState(landedPatch(store.getState(), askedFrom, patch));
	});
}
