// The routes editor (`r`): the active mode's routes as plain rows, which one is selected, and
// the description being edited. Pure: the rows are copied from the routing config when the
// editor opens and after every save, and every text in them is sanitised here, once.
import type {RouteField, RouteList} from '../core/config-edit.js';
import {activeRoutes} from '../core/routing.js';
import type {DelegationConfig, RoutingMode, TaskStatus} from '../core/types.js';
import {isActive} from '../core/types.js';
import {terminalSafe} from '../core/visible-text.js';
import type {TaskView} from './task-view.js';

/** A one-line text field: its text and where the cursor is (0 … length, in characters). */
export type TextField = {value: string; cursor: number};

export type RouteRow = {
	name: string;
	description: string;
	kind: 'model' | 'profile';
	model: string | null;
	provider: string | null;
	reasoningEffort: string | null;
	isDefault: boolean;
};

export type RoutesEditorState = {
	/** The list being edited; null in the built-in mode, which has no routes. */
	list: RouteList | null;
	routes: RouteRow[];
	selected: number;
	/** The text being typed into one of the selected route's fields, while it is. */
	field: TextField | null;
	/** Which of the route's fields the text field edits. */
	fieldName: RouteField;
	/** Why the last save was refused, shown in place; cleared by the next key that edits. */
	error: string | null;
	/** Open as the route picker of `R`: the task to send to the selected route. */
	pickFor: string | null;
	/** A route being added (`a`), field by field; the text field holds the current step. */
	adding: RouteDraft | null;
	/** Adding a profile route: the profiles to choose from (picked first), and the selected one. */
	profileChoices: string[] | null;
	choice: number;
};

/** The fields a new route is asked for, in order. */
export type DraftField = 'name' | 'description' | 'model' | 'provider';
export type RouteDraft = {steps: readonly DraftField[]; step: number; values: Partial<Record<DraftField, string>>};

export function listOf(mode: RoutingMode): RouteList | null {
	return mode === 'model_map' ? 'model_map' : mode === 'profile_routes' ? 'profile_routes' : null;
}

export function routeRows(delegation: DelegationConfig): RouteRow[] {
	const defaultName = delegation.mode === 'model_map' ? delegation.modelMap.default : delegation.mode === 'profile_routes' ? delegation.profileRoutes.default : undefined;
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
export function editorFor(delegation: DelegationConfig, previous?: RoutesEditorState | null): RoutesEditorState {
	const routes = routeRows(delegation);
	const keep = previous ? routes.findIndex(route => route.name === previous.routes[previous.selected]?.name) : -1;
	return {list: listOf(delegation.mode), routes, selected: Math.max(0, keep), field: null, fieldName: 'description', error: null, pickFor: null, adding: null, profileChoices: null, choice: 0};
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
