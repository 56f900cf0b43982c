// The operator's steering intents (switch the routing mode, edit a route), decided as pure
// functions of the state and the routing config; the change itself goes through the control
// (saved into config.yaml, recorded, re-planned by the runner), whose answer becomes the notice.
import type {DelegationConfig, RouteEdit, RoutingMode, SteerOutcome} from '../core/types.js';
import {bodyLayer} from './overlay.js';
import {editorField, type RoutesEditorState} from './routes-editor.js';
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
