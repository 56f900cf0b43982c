// The route picker of R: a queued task, or one that ended (succeeded too), sent (back) into the queue
// on another route of the active mode, or on an explicit model (and provider) the operator types.
// Pure decisions here; the task is re-queued through the control (the runner re-plans it).
import type {StoreApi} from 'zustand/vanilla';
import {explicitModelRefusal, explicitProviderRefusal, isRetryable, retryableWords} from '../core/plan/replan.js';
import type {PickerLayer} from './overlay.js';
import {pickedProfile} from './route-add-remove.js';
import {pickerFor} from './routes-editor.js';
import {editorPatch, steerable} from './steer.js';
import {mapReply, setWhenReplied} from './reply.js';
import type {BatchActions, BatchState} from './store-types.js';
import type {BatchControl, Reply} from '../wire/port.js';
import {emptyField} from './text-field.js';

export type RerouteActions = Pick<BatchActions, 'openReroute' | 'pickRoute'>;

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

/** Whether R can send a task in this status to another route: the planner's rule (core/plan/replan.ts). */
export function isReroutable(status: string): boolean {
	return isRetryable(status);
}

export function rerouteActions(store: Store, control: BatchControl): RerouteActions {
	const set = (patch: Partial<BatchState>) => store.setState(patch);
	const get = () => store.getState();
	return {
		openReroute() {
			const state = get();
			const steering = steerable(control);
			// The zoomed task when R is pressed in the zoom (the picker opens over it and goes back to it).
			const under = state.overlay?.kind === 'zoom' ? state.overlay : null;
			const id = under?.zoom.taskId ?? state.focusedId;
			const task = id ? state.tasks[id] : undefined;
			if (!steering || !control.reroute || !id || !task) {
				set({notice: 'this batch cannot be steered: it was started without its config'});
			} else if (!isReroutable(task.status)) {
				set({notice: `${task.title} is ${task.status.replace('_', ' ')}: only ${retryableWords} can be re-routed`});
			} else {
				// The built-in mode has no routes, but an explicit model still applies: the picker offers only that.
				set({overlay: {kind: 'pick', picker: pickerFor(steering.routing(), id, task), under}, notice: null});
			}
		},

		pickRoute() {
			const {overlay} = get();
			if (overlay?.kind === 'routes' && overlay.editor.input?.kind === 'profiles') {
				set(editorPatch(pickedProfile(overlay.editor)));
				return;
			}

			if (overlay?.kind !== 'pick' || overlay.picker.explicit) {
				return;
			}

			const {picker} = overlay;
			if (picker.selected === picker.routes.length) {
				// The row after the routes: "explicit model…" opens a field for the model's name.
				set({overlay: {...overlay, picker: {...picker, explicit: {step: 'model', field: emptyField}, error: null}}});
				return;
			}

			const route = picker.routes[picker.selected];
			if (route && control.reroute) {
				setWhenReplied(store, mapReply(control.reroute(picker.taskId, route.name), outcome => rerouted(overlay, outcome)), `re-routing ${picker.taskId}`);
			}
		},
	};
}

/** Up and down in the picker: the routes, then "explicit model…". */
export function movedInPicker(layer: PickerLayer, delta: number): PickerLayer {
	const {picker} = layer;
	if (picker.explicit) {
		return layer;
	}

	const last = picker.routes.length;
	return {...layer, picker: {...picker, selected: Math.min(last, Math.max(0, picker.selected + delta)), error: null}};
}

/**
 * Enter in the picker's field: the model asks for its provider next (empty: the one Hermes
 * configures for it); the provider re-queues the task on both. A name that cannot be passed is
 * refused in place, with the reason.
 */
export function submitExplicit(layer: PickerLayer, control: BatchControl): Reply<Partial<BatchState>> {
	const {picker} = layer;
	const {explicit} = picker;
	if (!explicit) {
		return {};
	}

	const refuse = (error: string): Partial<BatchState> => ({overlay: {...layer, picker: {...picker, error}}});
	if (explicit.step === 'model') {
		const refusal = explicitModelRefusal(explicit.field.value);
		return refusal === undefined
			? {overlay: {...layer, picker: {...picker, explicit: {step: 'provider', model: explicit.field.value.trim(), field: emptyField}, error: null}}}
			: refuse(refusal);
	}

	const refusal = explicitProviderRefusal(explicit.field.value);
	if (refusal !== undefined || !control.reroute) {
		return refuse(refusal ?? 'this batch cannot be steered');
	}

	const provider = explicit.field.value.trim();
	return mapReply(control.reroute(picker.taskId, provider === '' ? {model: explicit.model} : {model: explicit.model, provider}), outcome => rerouted(layer, outcome));
}

/** The picker closed (back to what it was opened over) with the control's answer, or the refusal in place. */
function rerouted(layer: PickerLayer, outcome: {ok: boolean; message: string}): Partial<BatchState> {
	return outcome.ok ? {overlay: layer.under, notice: outcome.message} : {overlay: {...layer, picker: {...layer.picker, error: outcome.message}}};
}
