// The store's steering actions (mode switch, routes editor), kept apart from store.ts so each
// file stays readable. They decide with pure functions (steer.ts, routes-editor.ts) and change
// the routing only through the control. The route picker's are in reroute-actions.ts.
import type {StoreApi} from 'zustand/vanilla';
import type {RouteField, SteerOutcome} from '../core/types.js';
import {editorFor, refreshedEditor, type RouteRow, type RoutesEditorState} from './routes-editor.js';
import {editorPatch, editPatch, emptyFieldReasons, isClearable, movedInPicker, refusedPatch, steerable, submitDraft, submitExplicit, switchModePatch, switchModeQuestion} from './steer.js';
import {landedPatch, setWhenReplied, whenReplied, type Soon} from './reply.js';
import type {BatchActions, BatchState} from './store-types.js';
import {cannotSteer, type BatchControl} from '../wire/port.js';
import {fieldAtEnd} from './text-field.js';

export type SteerActions = Pick<BatchActions, 'configChanged' | 'requestSwitchMode' | 'switchMode' | 'openRoutes' | 'moveRoute' | 'editDescription' | 'editRouteField' | 'submitField' | 'cancelField' | 'setDefaultRoute' | 'reloadConfig'>;

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

export function steerActions(store: Store, control: BatchControl): SteerActions {
	const set = (patch: Partial<BatchState>) => store.setState(patch);
	const get = () => store.getState();
	/** The editor, when it has the keyboard. */
	const editor = (): RoutesEditorState | undefined => {
		const {overlay} = get();
		return overlay?.kind === 'routes' ? overlay.editor : undefined;
	};

	const reread = (extra: Partial<BatchState> = {}) => {
		const steering = steerable(control);
		const open = editor();
		set(steering && open ? editorPatch(editorFor(steering.routing(), open), extra) : extra);
	};

	/** A saved edit re-reads the editor from the routing; a refused one stays in place (the field open with what was typed) and says why. */
	const savedOrRefused = (open: RoutesEditorState, reply: Soon<{ok: boolean; patch: Partial<BatchState>}>, what: string) => {
		const askedFrom = get().overlay;
		const landed = ({ok, patch}: {ok: boolean; patch: Partial<BatchState>}) => {
			if (ok) {
				// Saved: the editor (whatever it shows now) follows the file.
				reread(patch);
			} else {
				set(landedPatch(get(), askedFrom, refusedPatch(open, patch)));
			}
		};

		if (reply instanceof Promise) whenReplied(store, reply, what, landed);
		else landed(reply);
	};

	return {
		configChanged(outcome: SteerOutcome) {
			if (!outcome.ok) {
				set({notice: outcome.message, configConflict: true});
				return;
			}

			// The queue was re-planned on the file's routing; the header and an open editor follow it.
			const open = editor();
			const patch: Partial<BatchState> = {notice: outcome.message, configConflict: false, mode: outcome.delegation.mode};
			set(open ? editorPatch(refreshedEditor(outcome.delegation, open), patch) : patch);
		},

		requestSwitchMode() {
			setWhenReplied(store, switchModeQuestion(get(), control), 'switching the routing mode');
		},

		switchMode() {
			setWhenReplied(store, switchModePatch(get(), control), 'switching the routing mode');
		},

		openRoutes() {
			const steering = steerable(control);
			if (!steering) {
				set({notice: cannotSteer});
				return;
			}

			set(editorPatch(editorFor(steering.routing()), {notice: null}));
			// Opening the editor after a conflict is the operator looking again: show the file as it is.
			if (get().configConflict) {
				get().reloadConfig();
			}
		},

		reloadConfig() {
			const reply = control.reload?.();
			if (!reply) {
				return;
			}

			whenReplied(store, reply, 'reading config.yaml again', outcome => {
				const patch = {notice: outcome.message, configConflict: !outcome.ok, ...(outcome.ok ? {mode: outcome.delegation.mode} : {})};
				if (outcome.ok) {
					reread(patch);
				} else {
					set(patch);
				}
			});
		},

		moveRoute(delta) {
			const {overlay} = get();
			if (overlay?.kind === 'pick') {
				set({overlay: movedInPicker(overlay, delta)});
				return;
			}

			const open = editor();
			const input = open?.input;
			if (open && input?.kind === 'profiles') {
				set(editorPatch({...open, input: {...input, choice: Math.min(input.choices.length - 1, Math.max(0, input.choice + delta))}}));
			} else if (open && !input && open.routes.length > 0) {
				set(editorPatch({...open, selected: Math.min(open.routes.length - 1, Math.max(0, open.selected + delta)), error: null}));
			}
		},

		editDescription() {
			get().editRouteField('description');
		},

		editRouteField(name: RouteField) {
			const open = editor();
			const route = open?.routes[open.selected];
			if (!open || !route || open.input) {
				return;
			}

			if (route.kind === 'profile' && name !== 'description') {
				set(editorPatch({...open, error: `a profile route has no ${name}: its profile's own config.yaml names the model`}));
				return;
			}

			const value = currentValue(route, name);
			set(editorPatch({...open, input: {kind: 'field', name, field: fieldAtEnd(value), base: value}, error: null}));
		},

		submitField() {
			const {overlay} = get();
			if (overlay?.kind === 'pick') {
				setWhenReplied(store, submitExplicit(overlay, control), `re-routing ${overlay.picker.taskId}`);
				return;
			}

			const open = editor();
			const input = open?.input;
			if (open && input?.kind === 'draft') {
				setWhenReplied(store, submitDraft(open, input.draft, input.field, control), 'adding the route');
				return;
			}

			const route = open?.routes[open.selected];
			if (!open?.list || input?.kind !== 'field' || !route) {
				return;
			}

			const value = input.field.value.trim();
			const {name: field} = input;
			// Changed on disk since the field opened (an outside edit the watcher picked up): saving
			// would replace it unseen. Say so once; Enter again saves the operator's value over it.
			const onDisk = currentValue(route, field);
			if (onDisk !== input.base) {
				set(editorPatch({...open, input: {...input, base: onDisk}, error: `config.yaml changed on disk while you typed: ${field} of "${route.name}" is now ${JSON.stringify(onDisk)}; Enter again saves yours over it, Esc keeps the file's`}));
				return;
			}

			if (value === '' && !isClearable(field)) {
				set(editorPatch({...open, error: emptyFieldReasons[field]}));
				return;
			}

			if (value === currentValue(route, field)) {
				set(editorPatch({...open, input: null, error: null}));
				return;
			}

			// The config core validates the saved file as loading does (an unknown reasoning_effort,
			// a route left with neither provider nor base_url): its message is the one shown.
			savedOrRefused(open, editPatch(control, [value === '' && isClearable(field)
				? {kind: 'clear-field', list: open.list, name: route.name, field}
				: {kind: 'set-field', list: open.list, name: route.name, field, value}]), `saving ${field} of "${route.name}"`);
		},

		cancelField() {
			const open = editor();
			if (open?.input) {
				set(editorPatch({...open, input: null, error: null}));
			}
		},

		setDefaultRoute() {
			const open = editor();
			const route = open?.routes[open.selected];
			if (!open?.list || !route || route.isDefault || open.input) {
				return;
			}

			savedOrRefused(open, editPatch(control, [{kind: 'set-default', list: open.list, name: route.name}]), `making "${route.name}" the default`);
		},
	};
}

function currentValue(route: RouteRow, field: RouteField): string {
	const values: Record<RouteField, string | null> = {description: route.description, model: route.model, provider: route.provider, reasoning_effort: route.reasoningEffort};
	return values[field] ?? '';
}
