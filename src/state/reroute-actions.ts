// The route picker of R: a queued task, or one that ended (succeeded too), sent (back) into the queue
// on another route of the active mode, or on an explicit model (and provider) the operator types.
// The decisions are steer.ts's; the task is re-queued through the control (the runner re-plans it).
import type {StoreApi} from 'zustand/vanilla';
import {pickerFor} from './routes-editor.js';
import {editorPatch, pickedProfile, rerouted, rerouteRefusal, steerable} from './steer.js';
import {targetTaskId} from './overlay.js';
import {emptyField} from './text-field.js';
import {mapSoon, setWhenReplied} from './reply.js';
import type {BatchActions, BatchState} from './store-types.js';
import {cannotSteer, type BatchControl} from '../wire/port.js';

export type RerouteActions = Pick<BatchActions, 'openReroute' | 'pickRoute'>;

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

export function rerouteActions(store: Store, control: BatchControl): RerouteActions {
	const set = (patch: Partial<BatchState>) => store.setState(patch);
	const get = () => store.getState();
	return {
		openReroute() {
			const state = get();
			const steering = steerable(control);
			const refusal = rerouteRefusal(state);
			const id = targetTaskId(state);
			const task = id ? state.tasks[id] : undefined;
			if (refusal !== undefined || !steering || !id || !task) {
				set({notice: refusal ?? cannotSteer});
			} else {
				// The picker opens over the zoom when R is pressed in it, and goes back to it.
				const under = state.overlay?.kind === 'zoom' ? state.overlay : null;
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
				setWhenReplied(store, mapSoon(control.reroute(picker.taskId, route.name), outcome => rerouted(overlay, outcome)), `re-routing ${picker.taskId}`);
			}
		},
	};
}

