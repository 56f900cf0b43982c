// The batch store reaches components through a context, not a module singleton, so every test
// renders against a fresh store and the app could host two batches without them seeing each other.
import {createContext, useCallback, useContext, useRef, type ReactNode} from 'react';
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
	// The store is read through one function for the component's whole life, which calls the
	// selector of the latest render. React's useSyncExternalStore reads the value again after
	// every commit whose getSnapshot is a new function, and an inline selector (or useShallow's)
	// is a new function each render: every selector of every re-rendered component ran a second
	// time after the frame. A stable one is read again only when its value changed. The render
	// itself still reads through the selector it was given (assigned before the read; Ink renders
	// synchronously, so no render is thrown away after it).
	const latest = useRef(selector);
	latest.current = selector;
	const read = useCallback((state: BatchState & BatchActions) => latest.current(state), []);
	return useStore(useBatchStore(), read);
}
