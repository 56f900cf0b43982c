// Adding (`a`) and removing (`x`) routes in the routes editor. A model route is asked for field by
// field in the editor's text field (name, description, model, provider); a profile route starts
// with a picker of the profiles that exist and are no route yet, then asks its description. Both
// are saved through the same RouteEdits as `hermes-delegate config add-route|remove-route`.
import type {StoreApi} from 'zustand/vanilla';
import {editorFor, type DraftField, type RoutesEditorState} from './routes-editor.js';
import {editPatch, refusedPatch, steerable} from './steer.js';
import type {BatchActions, BatchControl, BatchState} from './store-types.js';

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
	return {
		startAddRoute() {
			const {routes} = get();
			if (!routes?.list) {
				return;
			}

			if (routes.list === 'model_map') {
				set({routes: {...routes, adding: {steps: modelSteps, step: 0, values: {}}, field: {value: '', cursor: 0}, error: null}});
				return;
			}

			const choices = control.profiles?.() ?? [];
			set({routes: choices.length === 0
				? {...routes, error: 'every profile under $HERMES_HOME/profiles/ is a route already: create one with `hermes profile create`'}
				: {...routes, profileChoices: choices, choice: 0, error: null}});
		},

		requestRemoveRoute() {
			const {routes} = get();
			const route = routes?.routes[routes.selected];
			if (!routes?.list || !route) {
				return;
			}

			if (route.isDefault) {
				set({routes: {...routes, error: `"${route.name}" is the default route and cannot be removed: make another route the default first (d)`}});
				return;
			}

			set({confirm: {action: 'remove-route', taskId: null, routeName: route.name}});
		},

		removeRoute(name) {
			const {routes} = get();
			if (!routes?.list) {
				return;
			}

			const {ok, patch} = editPatch(control, [{kind: 'remove-route', list: routes.list, name}]);
			const steering = steerable(control);
			if (!ok || !steering) {
				set(refusedPatch(routes, patch));
				return;
			}

			// The selection stays where the removed route was: on the one that took its place.
			const after = editorFor(steering.routing());
			set({...patch, routes: {...after, selected: Math.min(routes.selected, Math.max(0, after.routes.length - 1))}});
		},
	};
}

/** Enter on a profile in the picker of `a`: ask for the new route's description. */
export function pickedProfile(routes: RoutesEditorState): RoutesEditorState {
	const name = routes.profileChoices?.[routes.choice];
	return name === undefined ? routes : {...routes, profileChoices: null, adding: {steps: ['description'], step: 0, values: {name}}, field: {value: '', cursor: 0}, error: null};
}

/** Enter in the text field while adding: the next field, or the route saved once all are given. */
export function submitDraft(routes: RoutesEditorState, control: BatchControl): Partial<BatchState> {
	const {adding, field, list} = routes;
	if (!adding || !field || !list) {
		return {};
	}

	const step = adding.steps[adding.step]!;
	const value = field.value.trim();
	if (value === '') {
		return {routes: {...routes, error: emptyReasons[step]}};
	}

	if (step === 'name' && routes.routes.some(route => route.name === value)) {
		return {routes: {...routes, error: `${list} already has a route "${value}": pick another name`}};
	}

	const values = {...adding.values, [step]: value};
	if (adding.step + 1 < adding.steps.length) {
		const next = adding.steps[adding.step + 1]!;
		const draft = values[next] ?? '';
		return {routes: {...routes, adding: {...adding, step: adding.step + 1, values}, field: {value: draft, cursor: [...draft].length}, error: null}};
	}

	const name = values.name ?? '';
	const description = values.description ?? '';
	const {ok, patch} = editPatch(control, [list === 'model_map'
		? {kind: 'add-route', list, route: {name, description, model: values.model ?? '', provider: values.provider ?? ''}}
		: {kind: 'add-route', list, route: {name, description}}]);
	const steering = steerable(control);
	if (!ok || !steering) {
		// Refused in place: the last field stays open with what was typed, and says why.
		return refusedPatch(routes, patch);
	}

	const after = editorFor(steering.routing());
	return {...patch, routes: {...after, selected: Math.max(0, after.routes.findIndex(route => route.name === name))}};
}
