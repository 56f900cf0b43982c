// The batch store reaches components through a context, not a module singleton, so every test
// renders against a fresh store and the app could host two batches without them seeing each other.
import {createContext, useContext, type ReactNode} from 'react';
import {useStore} from 'zustand';
import type {BatchActions, BatchState, BatchStore} from '../state/store-types.js';

const StoreContext = createContext<BatchStore | undefined>(undefined);

export function StoreProvider({store, children}: {readonly store: BatchStore; readonly children: ReactNode}) {
	return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** The store itself: for actions and one-off reads in event handlers, which must not subscribe. */
export function useBatchStore(): BatchStore {
	const store = useContext(StoreContext);
	if (!store) {
		throw new Error('useBatch() was called outside <StoreProvider>; wrap the tree in <StoreProvider store={...}>');
	}

	return store;
}

/**
 * A slice of the batch state; the component re-renders only when the slice changes (Object.is).
 * Return primitives or a stable reference, or wrap the selector in `useShallow`.
 */
export function useBatch<T>(selector: (state: BatchState & BatchActions) => T): T {
	return useStore(useBatchStore(), selector);
}
