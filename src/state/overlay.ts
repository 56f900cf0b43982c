// What covers the dashboard's grid, as one value: the zoomed task, the help, the spend table, the routes editor,
// the route picker, and a question over any of them. Each layer says what may lie under it, so
// only what the keys can reach can be represented (the help or the spend table over a zoomed task returns to it; a
// confirm bar sits below whatever body it asks about, which stays on screen). The key context
// (ui/keys/actions.ts), what Esc closes (the store), what the body shows (App.tsx) and which text
// field has the keyboard are all read from it here.
import type {RoutingMode} from '../core/types.js';
import type {RoutePickerState, RoutesEditorState} from './routes-editor.js';
import {editorField} from './routes-editor.js';
import {fieldAtEnd, type TextField} from './text-field.js';
import type {ZoomState} from './zoom.js';

/** What a confirm bar asks: stopping one task, quitting, or removing a route. */
export type ConfirmQuestion =
	| {action: 'cancel' | 'kill'; taskId: string}
	| {action: 'quit'}
	| {action: 'remove-route'; routeName: string}
	/** m: the mode it switches to, saved into Hermes's shared config.yaml. */
	| {action: 'switch-mode'; mode: RoutingMode};
export type ConfirmAction = ConfirmQuestion['action'];

/** One task full-screen; `searching`: the search prompt, while a query is typed. */
export type ZoomLayer = {kind: 'zoom'; zoom: ZoomState; searching: TextField | null};
/** The key help, over the grid or over the zoomed task it returns to. */
export type HelpLayer = {kind: 'help'; under: ZoomLayer | null};
/** The spend table (`$`), over the grid or over the zoomed task it returns to. */
export type SpendLayer = {kind: 'spend'; under: ZoomLayer | null};
/** The routes editor (`r`, from the grid). */
export type RoutesLayer = {kind: 'routes'; editor: RoutesEditorState};
/** The route picker (`R`), over the grid or over the zoomed task it was opened on. */
export type PickerLayer = {kind: 'pick'; picker: RoutePickerState; under: ZoomLayer | null};
/** `/` in the grid: the filter's prompt while it is typed; the grid below follows it (state/task-order.ts). */
export type FilterLayer = {kind: 'filter'; field: TextField};
/** What fills the body (the grid, under the filter's prompt). */
export type BodyLayer = ZoomLayer | HelpLayer | SpendLayer | RoutesLayer | PickerLayer | FilterLayer;
/** A question, in a bar below the body it was asked over. */
export type ConfirmLayer = {kind: 'confirm'; question: ConfirmQuestion; under: BodyLayer | null};
export type Overlay = BodyLayer | ConfirmLayer;

/** Where the keyboard is when an overlay is open (the grid's is the rest). */
export type OverlayContext = 'confirm' | 'help' | 'spend' | 'route-edit' | 'route-pick' | 'routes' | 'search' | 'zoom' | 'filter';

export function overlayContext(overlay: Overlay | null): OverlayContext | null {
	switch (overlay?.kind) {
		case undefined: {
			return null;
		}

		case 'confirm': case 'help': case 'spend': case 'filter': {
			return overlay.kind;
		}

		case 'routes': {
			const input = overlay.editor.input?.kind;
			return input === undefined ? 'routes' : input === 'profiles' ? 'route-pick' : 'route-edit';
		}

		case 'pick': {
			return overlay.picker.explicit ? 'route-edit' : 'route-pick';
		}

		case 'zoom': {
			return overlay.searching ? 'search' : 'zoom';
		}
	}
}

/** What fills the body: under a question, what it was asked over. */
export function bodyLayer(overlay: Overlay | null): BodyLayer | null {
	return overlay?.kind === 'confirm' ? overlay.under : overlay;
}

/** The zoomed task's layer, wherever it is: on top, or under the help, the picker or a question. */
export function zoomLayer(overlay: Overlay | null): ZoomLayer | null {
	const body = bodyLayer(overlay);
	return body?.kind === 'zoom' ? body : body?.kind === 'help' || body?.kind === 'spend' || body?.kind === 'pick' ? body.under : null;
}

export function zoomOf(overlay: Overlay | null): ZoomState | null {
	return zoomLayer(overlay)?.zoom ?? null;
}

/** The task a key acts on (c, K, R, y): the zoomed one, else the focused one. */
export function targetTaskId(state: {overlay: Overlay | null; focusedId: string | null}): string | null {
	return zoomOf(state.overlay)?.taskId ?? state.focusedId;
}

/** The overlay with the zoom replaced, where it is; the same overlay when there is none. */
export function withZoom(overlay: Overlay | null, zoom: ZoomState): Overlay | null {
	const layer = zoomLayer(overlay);
	if (!overlay || !layer) {
		return overlay;
	}

	const replaced: ZoomLayer = {...layer, zoom};
	const inBody = (body: BodyLayer | null): BodyLayer | null => (body?.kind === 'zoom' ? replaced : body?.kind === 'help' || body?.kind === 'spend' || body?.kind === 'pick' ? {...body, under: replaced} : body);
	return overlay.kind === 'confirm' ? {...overlay, under: inBody(overlay.under)} : inBody(overlay);
}

/** The text field that has the keyboard: the search prompt's, the editor's or the picker's. */
export function activeField(overlay: Overlay | null): TextField | null {
	switch (overlay?.kind) {
		case 'zoom': {
			return overlay.searching;
		}

		case 'routes': {
			return editorField(overlay.editor);
		}

		case 'pick': {
			return overlay.picker.explicit?.field ?? null;
		}

		case 'filter': {
			return overlay.field;
		}

		default: {
			return null;
		}
	}
}

/** The overlay with the field that has the keyboard replaced; a refusal shown beside it is cleared by the edit. */
export function withField(overlay: Overlay | null, field: TextField): Overlay | null {
	if (overlay?.kind === 'zoom' && overlay.searching) {
		return {...overlay, searching: field};
	}

	if (overlay?.kind === 'routes' && (overlay.editor.input?.kind === 'field' || overlay.editor.input?.kind === 'draft')) {
		return {...overlay, editor: {...overlay.editor, input: {...overlay.editor.input, field}, error: null}};
	}

	if (overlay?.kind === 'pick' && overlay.picker.explicit) {
		return {...overlay, picker: {...overlay.picker, explicit: {...overlay.picker.explicit, field}, error: null}};
	}

	if (overlay?.kind === 'filter') {
		return {...overlay, field};
	}

	return overlay;
}

/** What closing the top layer (Esc) leaves: the layer under it, or the same layer with what was open inside it closed. */
export function closedTop(overlay: Overlay | null): Overlay | null {
	switch (overlay?.kind) {
		case undefined: {
			return null;
		}

		case 'confirm': case 'help': case 'spend': {
			return overlay.under;
		}

		case 'routes': {
			// An edit, a new route or the profile picker of `a` goes back to the editor; the editor closes.
			return overlay.editor.input ? {...overlay, editor: {...overlay.editor, input: null, error: null}} : null;
		}

		case 'pick': {
			const {explicit} = overlay.picker;
			if (explicit?.step === 'provider') {
				// Back to the model, as it was typed.
				return {...overlay, picker: {...overlay.picker, explicit: {step: 'model', field: fieldAtEnd(explicit.model)}, error: null}};
			}

			return explicit ? {...overlay, picker: {...overlay.picker, explicit: null, error: null}} : overlay.under;
		}

		case 'zoom': {
			return overlay.searching ? {...overlay, searching: null} : null;
		}

		case 'filter': {
			return null;
		}
	}
}
