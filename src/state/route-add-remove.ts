// Adding (`a`) and removing (`x`) routes in the routes editor. A model route is asked for field by
// field in the editor's text field (name, description, model, provider); a profile route starts
// with a picker of the profiles that exist and are no route yet, then asks its description. Both
// are saved through the same RouteEdits as `hermes-delegate config add-route|remove-route`.
import type {StoreApi} from 'zustand/vanilla';
import {editorFor, type DraftField, type RoutesEditorState} from './routes-editor.js';
import {editorPatch, editPatch, refusedPatch, steerable} from './steer.js';
import {mapSoon, setWhenReplied} from './reply.js';
import type {BatchActions, BatchState} from './store-types.js';
import type {BatchControl} from '../wire/port.js';
import {emptyField} from './text-field.js';

export type AddRemoveActions = Pick<BatchActions, 'startAddRoute' | 'requestRemoveRoute' | 'removeRoute'>;

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

const modelSteps: readonly DraftField[] = ['name', 'description', 'model', 'provider'];

export function addRemoveActions(store: Store, control: BatchControl): AddRemoveActions {
	const set = (patch: Partial<BatchState>) => store.setState(patch);
	const get = () => store.getState();
	/** The editor, when it has the keyboard with nothing open inside it. */
	const editor = (): RoutesEditorState | undefined => {
		const {overlay} = get();
		return overlay?.kind === 'routes' && !overlay.editor.input ? overlay.editor : undefined;
	};

	return {
		startAddRoute() {
			const open = editor();
			if (!open?.list) {
				return;
			}

			if (open.list === 'model_map') {
				set(editorPatch({...open, input: {kind: 'draft', draft: {steps: modelSteps, step: 0, values: {}}, field: emptyField}, error: null}));
				return;
			}

			const choices = control.profiles?.() ?? [];
			set(editorPatch(choices.length === 0
				? {...open, error: 'every profile under $HERMES_HOME/profiles/ is a route already: create one with `hermes profile create`'}
				: {...open, input: {kind: 'profiles', choices, choice: 0}, error: null}));
		},

		requestRemoveRoute() {
			const open = editor();
			const route = open?.routes[open.selected];
			if (!open?.list || !route) {
				return;
			}

			if (route.isDefault) {
				set(editorPatch({...open, error: `"${route.name}" is the default route and cannot be removed: make another route the default first (d)`}));
				return;
			}

			// Asked below the editor, which stays on screen and is where `n` returns.
			const {overlay} = get();
			set({overlay: {kind: 'confirm', question: {action: 'remove-route', routeName: route.name}, under: overlay?.kind === 'routes' ? overlay : null}});
		},

		removeRoute(name) {
			const open = editor();
			if (!open?.list) {
				return;
			}

			setWhenReplied(store, mapSoon(editPatch(control, [{kind: 'remove-route', list: open.list, name}]), ({ok, patch}) => {
				const steering = steerable(control);
				if (!ok || !steering) {
					return refusedPatch(open, patch);
				}

				// The selection stays where the removed route was: on the one that took its place.
				const after = editorFor(steering.routing());
				return editorPatch({...after, selected: Math.min(open.selected, Math.max(0, after.routes.length - 1))}, patch);
			}), `removing route "${name}"`);
		},
	};
}

