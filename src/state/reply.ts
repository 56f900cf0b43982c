// A control's reply, given at once (in-process) or later (over a socket). Sync stays sync: an
// in-process reply is applied in the same call, exactly as before the socket existed. A later
// reply is applied when it comes; if the operator has moved on meanwhile (the overlay it answers
// is gone), only what it says (notice, mode, conflict mark) is applied, never the old overlay.
// A refusal (the host gone, a timeout) becomes a notice, never an unhandled rejection.
import type {StoreApi} from 'zustand/vanilla';
import {terminalSafe} from '../core/output/visible-text.js';
import type {BatchActions, BatchState, Reply} from './store-types.js';

export function whenAnswered<T>(reply: Reply<T>, apply: (value: T) => void, refused: (message: string) => void): void {
	if (reply instanceof Promise) {
		reply.then(apply, (error: unknown) => refused(error instanceof Error ? error.message : String(error)));
		return;
	}

	apply(reply);
}

/** The reply's value mapped, at once or when it comes. */
export function mapReply<T, U>(reply: Reply<T>, map: (value: T) => U): Reply<U> {
	return reply instanceof Promise ? reply.then(map) : map(reply);
}

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

/** Sets a patch that may come later (see above). */
export function patchWhenAnswered(store: Store): (reply: Reply<Partial<BatchState>>) => void {
	return reply => {
		if (!(reply instanceof Promise)) {
			store.setState(reply);
			return;
		}

		const askedOver = store.getState().overlay;
		reply.then(patch => {
			if (store.getState().overlay === askedOver) {
				store.setState(patch);
				return;
			}

			const {overlay: _stale, ...said} = patch;
			store.setState(said);
		}, (error: unknown) => store.setState({notice: terminalSafe(error instanceof Error ? error.message : String(error))}));
	};
}
