// The binding table reaches the components through a context, as the store and the theme do: a
// component that shows or matches keys asks for it, and nothing in between passes it on.
import {createContext, useContext, type ReactNode} from 'react';
import type {Bindings} from './keys.js';

const BindingsContext = createContext<Bindings | undefined>(undefined);

export function BindingsProvider({bindings, children}: {readonly bindings: Bindings; readonly children: ReactNode}) {
	return <BindingsContext.Provider value={bindings}>{children}</BindingsContext.Provider>;
}

/** The keys as the operator bound them (delegate.yaml `keys:` over the defaults). */
export function useBindings(): Bindings {
	const bindings = useContext(BindingsContext);
	if (!bindings) {
		throw new Error('useBindings() was called outside <BindingsProvider>; wrap the tree in <BindingsProvider bindings={...}>');
	}

	return bindings;
}
