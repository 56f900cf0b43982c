// Which overlay is on top, decided in one place. The dashboard's overlays are still separate
// fields of the state (help can open over the zoom and return to it), but their order is
// written only here: the key context (ui/commands.ts), what Esc closes (the store) and what the
// body shows (App.tsx) all ask this function.
import type {BatchState} from './store-types.js';

/** Innermost first: a question, the help, the routes editor (its text field), the search, the zoom. */
export type Overlay = 'confirm' | 'help' | 'route-edit' | 'route-pick' | 'routes' | 'search' | 'zoom';

export function topOverlay(state: Pick<BatchState, 'confirm' | 'help' | 'routes' | 'zoom'>): Overlay | null {
	if (state.confirm) {
		return 'confirm';
	}

	if (state.help) {
		return 'help';
	}

	if (state.routes) {
		return state.routes.field ? 'route-edit' : state.routes.pickFor || state.routes.profileChoices ? 'route-pick' : 'routes';
	}

	if (state.zoom) {
		return state.zoom.search.editing ? 'search' : 'zoom';
	}

	return null;
}

/** What fills the dashboard's body: a confirm question is a bar below it, so the body under it stays. */
export function bodyOverlay(state: Pick<BatchState, 'confirm' | 'help' | 'routes' | 'zoom'>): Exclude<Overlay, 'confirm'> | null {
	return topOverlay({...state, confirm: null}) as Exclude<Overlay, 'confirm'> | null;
}

/** What closing the top overlay changes (Esc). */
export function closeTopOverlay(state: BatchState): Partial<BatchState> {
	switch (topOverlay(state)) {
		case 'confirm': {
			return {confirm: null};
		}

		case 'help': {
			return {help: false};
		}

		case 'route-edit': {
			return {routes: {...state.routes!, field: null, adding: null, error: null}};
		}

		case 'route-pick': {
			// The profile picker of `a` goes back to the editor; the `R` picker closes.
			return {routes: state.routes!.profileChoices ? {...state.routes!, profileChoices: null, error: null} : null};
		}

		case 'routes': {
			return {routes: null};
		}

		case 'search': {
			return {zoom: {...state.zoom!, search: {...state.zoom!.search, editing: false}}};
		}

		case 'zoom': {
			// A search's "no match" belongs to the zoom: it must not linger under the grid.
			return {zoom: null, notice: null};
		}

		case null: {
			return {};
		}
	}
}
