// The store's steering actions (mode switch, routes editor), kept apart from store.ts so each
// file stays readable. They decide with pure functions (steer.ts, routes-editor.ts) and change
// the routing only through the control.
import type {StoreApi} from 'zustand/vanilla';
import type {RouteField} from '../core/config-edit.js';
import {explicitModelRefusal} from '../core/replan.js';
import {pickedProfile, submitDraft} from './route-add-remove.js';
import {editorFor, type RouteRow, type RoutesEditorState, type TextField} from './routes-editor.js';
import {editPatch, refusedPatch, steerable, switchModePatch} from './steer.js';
import type {BatchActions, BatchControl, BatchState} from './store.js';

export type SteerActions = Pick<BatchActions, 'switchMode' | 'openRoutes' | 'moveRoute' | 'editDescription' | 'editRouteField' | 'setField' | 'submitField' | 'cancelField' | 'setDefaultRoute' | 'openReroute' | 'pickRoute' | 'reloadConfig'>;

const reroutable: ReadonlySet<string> = new Set(['queued', 'failed', 'cancelled', 'timed_out']);

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

export function steerActions(store: Store, control: BatchControl): SteerActions {
	const set = (patch: Partial<BatchState>) => store.setState(patch);
	const get = () => store.getState();
	const reread = (extra: Partial<BatchState> = {}) => {
		const steering = steerable(control);
		const {routes} = get();
		if (steering && routes) {
			set({...extra, routes: editorFor(steering.routing(), routes)});
		}
	};

	return {
		switchMode() {
			set(switchModePatch(get(), control));
			reread();
		},

		openRoutes() {
			const steering = steerable(control);
			if (!steering) {
				set({notice: 'this batch cannot be steered: it was started without its config'});
				return;
			}

			set({routes: editorFor(steering.routing()), notice: null});
			// Opening the editor after a conflict is the operator looking again: show the file as it is.
			if (get().configConflict) {
				get().reloadConfig();
			}
		},

		reloadConfig() {
			const outcome = control.reload?.();
			if (!outcome) {
				return;
			}

			const steering = steerable(control);
			const {routes} = get();
			set({
				notice: outcome.message,
				configConflict: !outcome.ok,
				...(outcome.ok ? {mode: outcome.delegation.mode} : {}),
				...(outcome.ok && routes && steering ? {routes: editorFor(steering.routing(), routes)} : {}),
			});
		},

		moveRoute(delta) {
			const {routes} = get();
			if (routes?.profileChoices && !routes.field) {
				set({routes: {...routes, choice: Math.min(routes.profileChoices.length - 1, Math.max(0, routes.choice + delta))}});
			} else if (routes && !routes.field && rowCount(routes) > 0) {
				set({routes: {...routes, selected: Math.min(rowCount(routes) - 1, Math.max(0, routes.selected + delta)), error: null}});
			}
		},

		editDescription() {
			get().editRouteField('description');
		},

		editRouteField(fieldName: RouteField) {
			const {routes} = get();
			const route = routes?.routes[routes.selected];
			if (!routes || !route) {
				return;
			}

			if (route.kind === 'profile' && fieldName !== 'description') {
				set({routes: {...routes, error: `a profile route has no ${fieldName}: its profile's own config.yaml names the model`}});
				return;
			}

			const value = currentValue(route, fieldName);
			set({routes: {...routes, field: {value, cursor: [...value].length}, fieldName, error: null}});
		},

		setField(field: TextField) {
			const {routes} = get();
			if (routes?.field) {
				set({routes: {...routes, field, error: null}});
			}
		},

		submitField() {
			const {routes} = get();
			if (routes?.adding) {
				set(submitDraft(routes, control));
				return;
			}

			if (routes?.pickFor && routes.field) {
				set(explicitModelPatch(routes, control));
				return;
			}

			const route = routes?.routes[routes.selected];
			if (!routes?.field || !route || !routes.list) {
				return;
			}

			const value = routes.field.value.trim();
			const {fieldName} = routes;
			if (value === '') {
				set({routes: {...routes, error: emptyFieldReasons[fieldName]}});
				return;
			}

			if (value === currentValue(route, fieldName)) {
				set({routes: {...routes, field: null, error: null}});
				return;
			}

			// The config core validates the saved file as loading does (an unknown reasoning_effort
			// included): its message is the one shown.
			const {ok, patch} = editPatch(control, [{kind: 'set-field', list: routes.list, name: route.name, field: fieldName, value}]);
			if (ok) {
				reread(patch);
			} else {
				// Refused in place: the field stays open with what was typed, and says why.
				set(refusedPatch(routes, patch));
			}
		},

		cancelField() {
			const {routes} = get();
			if (routes) {
				set({routes: {...routes, field: null, adding: null, error: null}});
			}
		},

		openReroute() {
			const state = get();
			const steering = steerable(control);
			const id = state.zoom?.taskId ?? state.focusedId;
			const task = id ? state.tasks[id] : undefined;
			if (!steering || !control.reroute || !id || !task) {
				set({notice: 'this batch cannot be steered: it was started without its config'});
			} else if (!reroutable.has(task.status)) {
				set({notice: `${task.title} is ${task.status.replace('_', ' ')}: only a queued, failed, cancelled or timed-out task can be re-routed`});
			} else {
				// The built-in mode has no routes, but an explicit model still applies: the picker offers only that.
				set({routes: {...editorFor(steering.routing()), pickFor: id}, notice: null});
			}
		},

		pickRoute() {
			const {routes} = get();
			if (routes?.profileChoices) {
				set({routes: pickedProfile(routes)});
				return;
			}

			if (routes?.pickFor && routes.selected === routes.routes.length) {
				// The row after the routes: "explicit model…" opens a field for the model's name.
				set({routes: {...routes, field: {value: '', cursor: 0}, fieldName: 'model', error: null}});
				return;
			}

			const route = routes?.routes[routes.selected];
			if (!routes?.pickFor || !route || !control.reroute) {
				return;
			}

			const outcome = control.reroute(routes.pickFor, route.name);
			set(outcome.ok ? {routes: null, notice: outcome.message} : {routes: {...routes, error: outcome.message}});
		},

		setDefaultRoute() {
			const {routes} = get();
			const route = routes?.routes[routes.selected];
			if (!routes?.list || !route || route.isDefault) {
				return;
			}

			const {ok, patch} = editPatch(control, [{kind: 'set-default', list: routes.list, name: route.name}]);
			if (ok) {
				reread(patch);
			} else {
				set(refusedPatch(routes, patch));
			}
		},
	};
}

/** The picker of R has one row more than the routes: "explicit model…". */
function rowCount(routes: RoutesEditorState): number {
	return routes.routes.length + (routes.pickFor ? 1 : 0);
}

/** Enter in the picker's model field: the task re-queued on that model, or the reason in place. */
function explicitModelPatch(routes: RoutesEditorState, control: BatchControl): Partial<BatchState> {
	const model = routes.field?.value ?? '';
	const refusal = explicitModelRefusal(model);
	if (refusal !== undefined || !routes.pickFor || !control.reroute) {
		return {routes: {...routes, error: refusal ?? 'this batch cannot be steered'}};
	}

	const outcome = control.reroute(routes.pickFor, {model});
	return outcome.ok ? {routes: null, notice: outcome.message} : {routes: {...routes, error: outcome.message}};
}

const emptyFieldReasons: Readonly<Record<RouteField, string>> = {
	description: 'a description must not be empty: it is what routes tasks here',
	model: 'a model route needs a model',
	provider: 'a model route needs a provider (a base_url route is edited in the file)',
	reasoning_effort: 'reasoning_effort cannot be emptied here: leave it out of the file by hand to use what Hermes configures',
};

function currentValue(route: RouteRow, fieldName: RouteField): string {
	const values: Record<RouteField, string | null> = {description: route.description, model: route.model, provider: route.provider, reasoning_effort: route.reasoningEffort};
	return values[fieldName] ?? '';
}
