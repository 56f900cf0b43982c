// The routes editor (`r`) and the route picker (`R`): the active mode's routes as plain rows,
// which one is selected, and what is being typed or picked inside. Pure: the rows are copied
// from the routing config when the editor opens and after every save, and every text in them is
// sanitised here, once.
import {type DelegationConfig, isActive, type RouteField, type RouteList, type RoutingMode, type TaskStatus} from '../core/types.js';
import {activeDefault, activeRoutes} from '../core/plan/routing.js';
import {terminalSafe} from '../core/output/visible-text.js';
import type {TextField} from './text-field.js';
import type {TaskView} from './task-view.js';

export type RouteRow = {
	name: string;
	description: string;
	kind: 'model' | 'profile';
	model: string | null;
	provider: string | null;
	reasoningEffort: string | null;
	isDefault: boolean;
};

/** The rows of the routes editor and of the route picker: the active mode's routes, one selected. */
export type RouteListState = {
	/** The list shown; null in the built-in mode, which has no routes. */
	list: RouteList | null;
	routes: RouteRow[];
	selected: number;
	/** Why the last save or pick was refused, shown in place; cleared by the next key that edits. */
	error: string | null;
};

/** What the routes editor has open inside it, if anything: one thing at a time. */
export type EditorInput =
	/** One of the selected route's fields being typed. */
	/** `base`: the value the field was opened with, so that a change made on disk meanwhile is not overwritten unasked. */
	| {kind: 'field'; name: RouteField; field: TextField; base: string}
	/** A new route (`a`), field by field; the text field holds the current step. */
	| {kind: 'draft'; draft: RouteDraft; field: TextField}
	/** A new profile route: the profiles to choose from (picked first), and the selected one. */
	| {kind: 'profiles'; choices: string[]; choice: number};

/** The routes editor (`r`). */
export type RoutesEditorState = RouteListState & {input: EditorInput | null};

/** The picker's "explicit model…": the model typed first, then (optionally) its provider. */
export type ExplicitModelInput = {step: 'model'; field: TextField} | {step: 'provider'; model: string; field: TextField};

/**
 * The route picker (`R`): the task to send, the route of the active mode it is on now (null
 * when on none of them), and the explicit model being typed, if it is.
 */
export type RoutePickerState = RouteListState & {taskId: string; currentRoute: string | null; explicit: ExplicitModelInput | null};

/** The fields a new route is asked for, in order. */
export type DraftField = 'name' | 'description' | 'model' | 'provider';
export type RouteDraft = {steps: readonly DraftField[]; step: number; values: Partial<Record<DraftField, string>>};

export function listOf(mode: RoutingMode): RouteList | null {
	return mode === 'model_map' ? 'model_map' : mode === 'profile_routes' ? 'profile_routes' : null;
}

export function routeRows(delegation: DelegationConfig): RouteRow[] {
	const defaultName = activeDefault(delegation);
	return activeRoutes(delegation).map(route => ({
		name: terminalSafe(route.name),
		description: terminalSafe(route.description),
		kind: route.kind,
		model: route.kind === 'model' ? terminalSafe(route.model) : null,
		provider: route.kind === 'model' && route.provider !== undefined ? terminalSafe(route.provider) : null,
		reasoningEffort: route.kind === 'model' ? route.reasoning_effort ?? null : null,
		isDefault: route.name === defaultName,
	}));
}

/** The editor as it opens, or re-read after a save (the selection kept on the same route). */
export function editorFor(delegation: DelegationConfig, previous?: RouteListState | null): RoutesEditorState {
	const routes = routeRows(delegation);
	const keep = previous ? routes.findIndex(route => route.name === previous.routes[previous.selected]?.name) : -1;
	return {list: listOf(delegation.mode), routes, selected: Math.max(0, keep), error: null, input: null};
}

/**
 * The editor after config.yaml changed on disk: the rows as the file now says, the selection on
 * the same route, and what was open inside kept while its route is still listed (the text typed
 * so far is the operator's; the save compares it with the file then).
 */
export function refreshedEditor(delegation: DelegationConfig, open: RoutesEditorState): RoutesEditorState {
	const fresh = editorFor(delegation, open);
	const selectedKept = fresh.list === open.list && fresh.routes[fresh.selected]?.name === open.routes[open.selected]?.name;
	const keepInput = open.input !== null && (open.input.kind !== 'field' || selectedKept) && fresh.list === open.list;
	return keepInput ? {...fresh, input: open.input, error: open.error} : fresh;
}

/**
 * The picker of R for one task: the routes, then one row more, "explicit model…". It opens on
 * the task's own route, so the operator sees where it is before choosing where it goes.
 */
export function pickerFor(delegation: DelegationConfig, taskId: string, on?: {routeName: string | null; routeKind: string}): RoutePickerState {
	const {input: _none, ...rows} = editorFor(delegation);
	const current = on ? rows.routes.findIndex(route => route.name === on.routeName && route.kind === on.routeKind) : -1;
	return {...rows, selected: Math.max(0, current), taskId, currentRoute: rows.routes[current]?.name ?? null, explicit: null};
}

/** The text field the operator is typing into in the editor, if any. */
export function editorField(editor: RoutesEditorState): TextField | null {
	return editor.input?.kind === 'field' || editor.input?.kind === 'draft' ? editor.input.field : null;
}

export type RouteLoad = {queued: number; running: number; done: number};

/** How many of this batch's tasks are on a route: waiting, holding a process, finished. */
export function routeLoad(tasks: Readonly<Record<string, TaskView>>, routeName: string): RouteLoad {
	const load: RouteLoad = {queued: 0, running: 0, done: 0};
	for (const task of Object.values(tasks)) {
		if (task.routeName === routeName && task.status !== 'refused') {
			load[bucket(task.status)]++;
		}
	}

	return load;
}

function bucket(status: TaskStatus): keyof RouteLoad {
	return status === 'queued' ? 'queued' : isActive(status) ? 'running' : 'done';
}
