// The operator's steering intents (switch the routing mode, edit a route, add or remove one,
// re-route a task), decided as pure functions of the state and the routing config: the one place
// each rule is decided, which the store's slices (steer-actions, route-add-remove,
// reroute-actions) and the footer's availability (ui/keys/actions.ts) ask. The change itself
// goes through the control (saved into config.yaml, recorded, re-planned by the runner), whose
// answer becomes the notice.
import type {ClearableField, DelegationConfig, RouteEdit, RouteField, RoutingMode, SteerOutcome} from '../core/types.js';
import {explicitModelRefusal, explicitProviderRefusal, isRetryable, retryableWords} from '../core/plan/replan.js';
import {bodyLayer, targetTaskId, type PickerLayer} from './overlay.js';
import {editorField, editorFor, type DraftField, type RouteDraft, type RoutesEditorState} from './routes-editor.js';
import {emptyField, fieldAtEnd, type TextField} from './text-field.js';
import {mapSoon, type PatchSoon, type Soon} from './reply.js';
import {cannotSteer, type BatchControl} from '../wire/port.js';
import type {BatchState} from './store-types.js';

/** The order `m` goes through the modes. */
export const modeCycle: readonly RoutingMode[] = ['model_map', 'profile_routes', 'default'];

export const modeNames: Readonly<Record<RoutingMode, string>> = {model_map: 'model_map', profile_routes: 'profile_routes', default: 'default (built-in)'};

/** A mode the batch can be switched to: the built-in one always, the others with routes configured. */
export function hasRoutes(delegation: DelegationConfig, mode: RoutingMode): boolean {
	return mode === 'model_map' ? delegation.modelMap.options.length > 0 : mode === 'profile_routes' ? delegation.profileRoutes.profiles.length > 0 : true;
}

/** The next mode after `current` that has routes, and the ones skipped on the way. */
export function nextMode(delegation: DelegationConfig, current: RoutingMode): {mode: RoutingMode; skipped: RoutingMode[]} {
	const skipped: RoutingMode[] = [];
	const start = modeCycle.indexOf(current);
	for (let step = 1; step < modeCycle.length; step++) {
		const mode = modeCycle[(start + step) % modeCycle.length]!;
		if (hasRoutes(delegation, mode)) {
			return {mode, skipped};
		}

		skipped.push(mode);
	}

	return {mode: current, skipped};
}

export type Steerable = Required<Pick<BatchControl, 'routing' | 'steer'>>;

export function steerable(control: BatchControl): Steerable | undefined {
	return control.routing && control.steer ? {routing: control.routing.bind(control), steer: control.steer.bind(control)} : undefined;
}

/**
 * m: the question before the switch. It rewrites Hermes's own config.yaml, which every Hermes
 * run reads, and re-plans the queue: one keypress must not do that unasked.
 */
export function switchModeQuestion(state: BatchState, control: BatchControl): PatchSoon {
	const steering = steerable(control);
	if (!steering || state.quitting) {
		return switchModePatch(state, control);
	}

	const {mode} = nextMode(steering.routing(), state.mode);
	return mode === state.mode
		? switchModePatch(state, control)
		: {overlay: {kind: 'confirm', question: {action: 'switch-mode', mode}, under: bodyLayer(state.overlay)}, notice: null};
}

/** The next mode with routes, saved into config.yaml; on success the queue is re-planned. */
export function switchModePatch(state: BatchState, control: BatchControl): PatchSoon {
	const steering = steerable(control);
	if (!steering) {
		return {notice: cannotSteer};
	}

	if (state.quitting) {
		return {notice: 'quitting: the routing can no longer change'};
	}

	const delegation = steering.routing();
	const {mode, skipped} = nextMode(delegation, state.mode);
	const skippedText = skipped.length > 0 ? ` (skipped ${skipped.map(name => modeNames[name]).join(', ')}: no routes configured)` : '';
	if (mode === state.mode) {
		return {notice: `no other routing mode has routes configured${skippedText}`};
	}

	return mapSoon(steering.steer([{kind: 'set-mode', mode}]), outcome => outcomePatch(outcome, outcome.ok ? `mode ${modeNames[mode]}${skippedText}: ` : '', outcome.ok ? {mode} : {}));
}

/** Any edit: what the control said, as the notice. */
export function editPatch(control: BatchControl, edits: readonly RouteEdit[]): Soon<{ok: boolean; patch: Partial<BatchState>}> {
	const steering = steerable(control);
	if (!steering) {
		return {ok: false, patch: {notice: cannotSteer}};
	}

	return mapSoon(steering.steer(edits), outcome => ({ok: outcome.ok, patch: outcomePatch(outcome, '', {})}));
}

function outcomePatch(outcome: SteerOutcome, prefix: string, extra: Partial<BatchState>): Partial<BatchState> {
	// A save that went through means the file was read as it is: no conflict is left to show.
	return {...extra, notice: `${prefix}${outcome.message}`, configConflict: outcome.ok ? false : outcome.conflict === true};
}

/** The editor as the overlay, with what else changes. */
export function editorPatch(editor: RoutesEditorState, extra: Partial<BatchState> = {}): Partial<BatchState> {
	return {...extra, overlay: {kind: 'routes', editor}};
}

/** A refused edit, shown in place in the editor (and marked in the header when the file changed on disk). */
export function refusedPatch(editor: RoutesEditorState, patch: Partial<BatchState>): Partial<BatchState> {
	return editorPatch({...editor, error: patch.notice ?? 'refused'}, patch.configConflict ? {configConflict: true} : {});
}

/** The header's mark after the mode: a text field open in the editor or the picker, or config.yaml changed on disk under a save. */
export function configMark(state: Pick<BatchState, 'overlay' | 'configConflict'>): string {
	if (state.configConflict) {
		return '⚠ config changed on disk';
	}

	const body = bodyLayer(state.overlay);
	const typing = body?.kind === 'routes' ? editorField(body.editor) !== null : body?.kind === 'pick' && body.picker.explicit !== null;
	return typing ? '✎' : '';
}

/** The route fields the editor can empty: an empty value removes them from the route, and Hermes's own setting applies. */
export function isClearable(field: RouteField): field is RouteField & ClearableField {
	return field === 'provider' || field === 'reasoning_effort';
}

/** Why a field may not be left empty: the one table the editor's fields and a new route's steps both read. */
export const emptyFieldReasons: Readonly<Record<DraftField, string>> = {
	name: 'a route needs a name',
	description: 'a description must not be empty: it is what routes tasks here',
	model: 'a model route needs a model',
	provider: 'a model route needs a provider',
};


/** Whether R can send a task in this status to another route: it must not hold a process. */
export function isReroutable(status: string): boolean {
	return isRetryable(status);
}

/**
 * R on the task a key acts on (targetTaskId): why it cannot be re-routed now, or undefined when
 * the picker opens. The store's openReroute and the footer (ui/keys/actions.ts) both ask this.
 */
export function rerouteRefusal(state: Pick<BatchState, 'canReroute' | 'quitting' | 'overlay' | 'focusedId' | 'tasks'>): string | undefined {
	if (!state.canReroute) return cannotSteer;
	if (state.quitting) return 'quitting: no task can be re-routed any more';
	const id = targetTaskId(state);
	const task = id ? state.tasks[id] : undefined;
	if (!task) return 'no task to re-route';
	return isReroutable(task.status) ? undefined : `${task.title} is ${task.status.replace('_', ' ')}: only ${retryableWords} can be re-routed`;
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
export function submitExplicit(layer: PickerLayer, control: BatchControl): PatchSoon {
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
	return mapSoon(control.reroute(picker.taskId, provider === '' ? {model: explicit.model} : {model: explicit.model, provider}), outcome => rerouted(layer, outcome));
}

/** The picker closed (back to what it was opened over) with the control's answer, or the refusal in place. */
export function rerouted(layer: PickerLayer, outcome: {ok: boolean; message: string}): Partial<BatchState> {
	return outcome.ok ? {overlay: layer.under, notice: outcome.message} : {overlay: {...layer, picker: {...layer.picker, error: outcome.message}}};
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
		return editorPatch({...editor, error: emptyFieldReasons[step]});
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
