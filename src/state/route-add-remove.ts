// Adding (`a`) and removing (`x`) routes in the routes editor. A model route is asked for field by
// field in the editor's text field (name, description, model, provider); a profile route starts
// with a picker of the profiles that exist and are no route yet, then asks its description. Both
// are saved through the same RouteEdits as `hermes-delegate config add-route|remove-route`.
import type {StoreApi} from 'zustand/vanilla';
import {editorFor, type DraftField, type RouteDraft, type RoutesEditorState} from './routes-editor.js';
import {editorPatch, editPatch, refusedPatch, steerable} from './steer.js';
import {mapSoon, setWhenReplied, type PatchSoon} from './reply.js';
import type {BatchActions, BatchState} from './store-types.js';
import type {BatchControl} from '../wire/port.js';
import {emptyField, fieldAtEnd, type TextField} from './text-field.js';

export type AddRemoveActions = Pick<BatchActions, 'startAddRoute' | 'requestRemoveRoute' | 'removeRoute'>;

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

const modelSteps: readonly DraftField[] = ['name', 'description', 'model', 'provider'];

const emptyReasons: Readonly<Record<DraftField, string>> = {
	name: 'a route needs a name',
	description: 'a description must not be empty: it is what routes tasks here',
	model: 'a model route needs a model',
	provider: 'a model route needs a provider',
};

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

/** Enter on a profile in the picker of `a`: ask for the new route's description. */
export function pickedProfile(editor: RoutesEditorState): RoutesEditorState {
	const name = editor.input?.kind === 'profiles' ? editor.input.choices[editor.input.choice] : undefined;
	return name === undefined ? editor : {...editor, input: {kind: 'draft', draft: {steps: ['description'], step: 0, values: {name}}, field: emptyField}, error: null};
}

/** Enter in the text field while adding: the next field, or the route saved once all are given. */
export function submitDraft(editor: RoutesEditorState, adding: RouteDraft, field: TextField, control: BatchControl): PatchSoon {
	const {list} = editor;
	if (!list) {
		return {};
	}

	const step = adding.steps[adding.step]!;
	const value = field.value.trim();
	if (value === '') {
		return editorPatch({...editor, error: emptyReasons[step]});
	}

	if (step === 'name' && editor.routes.some(route => route.name === value)) {
		return editorPatch({...editor, error: `${list} already has a route "${value}": pick another name`});
	}

	const values = {...adding.values, [step]: value};
	if (adding.step + 1 < adding.steps.length) {
		const next = adding.steps[adding.step + 1]!;
		return editorPatch({...editor, input: {kind: 'draft', draft: {...adding, step: adding.step + 1, values}, field: fieldAtEnd(values[next] ?? '')}, error: null});
	}

	const name = values.name ?? '';
	const description = values.description ?? '';
	return mapSoon(editPatch(control, [list === 'model_map'
		? {kind: 'add-route', list, route: {name, description, model: values.model ?? '', provider: values.provider ?? ''}}
		: {kind: 'add-route', list, route: {name, description}}]), ({ok, patch}) => {
		const steering = steerable(control);
		if (!ok || !steering) {
			// Refused in place: the last field stays open with what was typed, and says why.
			return refusedPatch(editor, patch);
		}

		const after = editorFor(steering.routing());
		return editorPatch({...after, selected: Math.max(0, after.routes.findIndex(route => route.name === name))}, patch);
	});
}
