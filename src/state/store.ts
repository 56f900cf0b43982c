// The one store of the dashboard: batch state fed by the runner's events, plus the UI's own
// state (focus, overlays). A vanilla zustand store so it is created and tested without React;
// components read it through selectors (ui/store-context.tsx). Output comes as the runner host
// pushes it (at a capped rate: host/server.ts): `takeOutput` applies each push (state/feed.ts).
// Past 300 lines on purpose: the actions are colocated with the state they change (the zustand
// way); the decisions themselves live in the slices and deciders it composes.
import {createStore} from 'zustand/vanilla';
import type {PlannedTask, RoutingMode, TaskStatus} from '../core/types.js';
import {isActive} from '../core/types.js';
import {safeExcerpt} from '../core/output/visible-text.js';
import {eventPatch, outputPatch} from './apply-event.js';
import {closedTop, withField, withZoom} from './overlay.js';
import {cancelRequest, quitRequest} from './intents.js';
import {pastePatch} from './paste.js';
import {taskViewFromPlan} from './task-view.js';
import {batchWarnings} from './warnings.js';
import {addRemoveActions} from './route-add-remove.js';
import {rerouteActions} from './reroute-actions.js';
import {steerActions} from './steer-actions.js';
import {nextMode, steerable} from './steer.js';
import type {BatchActions, BatchState, BatchStore} from './store-types.js';
import type {BatchControl} from '../wire/port.js';
import {whenReplied} from './reply.js';
import {keptFocus, nextOf, shownOrder, sortKeys, statusFilters} from './task-order.js';
import {copyRequest} from './copy.js';
import {pagerRequest} from './pager.js';
import {fieldAtEnd} from './text-field.js';
import {zoomSlice} from './zoom-actions.js';

export type BatchStoreOptions = {
	control: BatchControl;
	plan: {mode: RoutingMode; tasks: readonly PlannedTask[]; warnings: readonly string[]};
	runId: string;
	runDir: string;
	concurrency: number;
	graceMs: number;
	/** Who started the batch when not the operator (an MCP client's name). */
	origin?: string | undefined;
	now?: number;
	/** A finished run read from its folder: nothing to steer (BatchState.readOnly). */
	readOnly?: boolean;
};

export const readOnlyNotice = 'this run has finished: read-only';

export function createBatchStore(options: BatchStoreOptions): BatchStore {
	const {control} = options;
	const startedAt = options.now ?? Date.now();
	const order = options.plan.tasks.map(task => task.id);
	const tasks = Object.fromEntries(options.plan.tasks.map(task => [task.id, taskViewFromPlan(task)]));

	return createStore<BatchState & BatchActions>()((set, get, api) => {
		const zoom = zoomSlice(api, control);
		return {
			...zoom.actions,
			...steerActions(api, control),
			...addRemoveActions(api, control),
			...rerouteActions(api, control),
			runId: options.runId,
			runDir: options.runDir,
			mode: options.plan.mode,
			concurrency: options.concurrency,
			graceMs: options.graceMs,
			// An MCP client's name: as untrusted as a task file's text, and shown on one line.
			origin: options.origin ? safeExcerpt(options.origin, 60).replaceAll('\n', ' ') : null,
			startedAt,
			finishedAt: null,
			now: startedAt,
			order,
			tasks,
			warnings: batchWarnings(options.plan),
			budgets: {},
			fleet: null,
			report: null,
			focusedId: order[0] ?? null,
			layout: 'auto',
			sortBy: 'plan',
			statusFilter: 'all',
			textFilter: '',
			overlay: null,
			configConflict: false,
			canSteer: steerable(control) !== undefined,
			canReroute: steerable(control) !== undefined && control.reroute !== undefined,
			quitting: false,
			exitRequested: false,
			readOnly: options.readOnly ?? false,
			canDetach: false,
			detachRequested: false,
			notice: null,
			clipboard: null,
			pager: null,

			applyEvent(event) {
				set(eventPatch(get(), event));
			},

			takeOutput(panes) {
				const patch = outputPatch(get(), panes);
				if (patch) {
					set(patch);
					// The zoomed task's lines are read again when its output moved on (the reply lands later).
					zoom.follow(id => get().tasks[id]?.outputVersion, refreshed => {
						set({overlay: withZoom(get().overlay, refreshed)});
					});
				}
			},

			tick(now) {
				set({now});
			},

			focus(id) {
				if (get().tasks[id]) {
					set({focusedId: id});
				}
			},

			moveFocus(direction, columns) {
				const {focusedId} = get();
				// As the grid and the list show them: sorted, filtered.
				const ids = shownOrder(get());
				if (ids.length === 0) {
					return;
				}

				const index = Math.max(0, ids.indexOf(focusedId ?? ''));
				const step = {up: -columns, down: columns, left: -1, right: 1, next: 1, prev: -1}[direction];
				const wraps = direction === 'next' || direction === 'prev';
				const target = wraps ? (index + step + ids.length) % ids.length : index + step;
				if (target >= 0 && target < ids.length) {
					set({focusedId: ids[target]!});
				}
			},

			copyAnswer() {
				const state = get();
				const outcome = copyRequest(state);
				set('text' in outcome
					? {clipboard: {text: outcome.text, serial: (state.clipboard?.serial ?? 0) + 1}, notice: outcome.notice}
					: {notice: outcome.notice});
			},

			openPager() {
				const outcome = pagerRequest(get());
				set('request' in outcome ? {pager: outcome.request} : {notice: outcome.notice});
			},

			startFilter() {
				if (get().overlay === null) {
					set({overlay: {kind: 'filter', field: fieldAtEnd(get().textFilter)}});
				}
			},

			submitFilter() {
				const {overlay} = get();
				if (overlay?.kind === 'filter') {
					set({overlay: null, textFilter: overlay.field.value.trim(), ...keptFocus({...get(), overlay: null, textFilter: overlay.field.value.trim()})});
				}
			},

			clearFilter() {
				const {overlay} = get();
				set({overlay: overlay?.kind === 'filter' ? null : overlay, textFilter: ''});
			},

			cycleSort() {
				set({sortBy: nextOf(sortKeys, get().sortBy)});
			},

			cycleStatusFilter() {
				const statusFilter = nextOf(statusFilters, get().statusFilter);
				set({statusFilter, ...keptFocus({...get(), statusFilter})});
			},

			toggleLayout(effective) {
				set({layout: effective === 'grid' ? 'list' : 'grid'});
			},

			toggleHelp() {
				// Over the grid or the zoom (the only places `?` opens it), and back to what was under it.
				const {overlay} = get();
				if (overlay?.kind === 'help') {
					set({overlay: overlay.under});
				} else if (overlay === null || overlay.kind === 'zoom') {
					set({overlay: {kind: 'help', under: overlay}});
				}
			},

			toggleSpend() {
				// As the help: over the grid or the zoom, and back to what was under it.
				const {overlay} = get();
				if (overlay?.kind === 'spend') {
					set({overlay: overlay.under});
				} else if (overlay === null || overlay.kind === 'zoom') {
					set({overlay: {kind: 'spend', under: overlay}});
				}
			},

			closeOverlay() {
				const {overlay} = get();
				const after = closedTop(overlay);
				// A search's "no match" belongs to the zoom: it must not linger under the grid.
				const leftZoom = overlay?.kind === 'zoom' && after === null;
				set(leftZoom ? {overlay: after, notice: null} : {overlay: after});
			},

			setField(field) {
				const {overlay} = get();
				const after = withField(overlay, field);
				if (after !== overlay) {
					set({overlay: after});
				}
			},

			paste(text) {
				set(pastePatch(get(), text));
			},

			requestCancel(kill) {
				const decision = cancelRequest(get(), kill);
				if (decision === 'kill-all') {
					whenReplied(api, control.shutdown({skipGrace: true}), 'stopping the batch', () => undefined);
				} else if (decision) {
					set(decision);
				}
			},

			refuseReadOnly() {
				set({notice: readOnlyNotice});
			},

			requestQuit() {
				// Asked again, as a second Ctrl+C or a second signal to `run` would be: at the question
				// it is the answer (only Ctrl+C reaches it there: the prompt owns the text keys), and
				// while quitting it skips what is left of the grace period.
				const {overlay} = get();
				if (overlay?.kind === 'confirm' && overlay.question.action === 'quit') {
					get().confirmYes();
					return;
				}

				if (get().quitting) {
					get().requestCancel(true);
					return;
				}

				const decision = quitRequest(get());
				if (decision) {
					set(decision);
				}
			},

			detach() {
				// At a question d answers only the quit question (a cancel's prompt keeps its y/n).
				const {overlay} = get();
				const asked = overlay?.kind === 'confirm' ? overlay.question.action : undefined;
				if (get().canDetach && !get().quitting && (asked === undefined || asked === 'quit')) {
					set({detachRequested: true, overlay: null});
				}
			},

			confirmYes() {
				const {overlay} = get();
				if (overlay?.kind !== 'confirm') {
					return;
				}

				const {question} = overlay;
				set({overlay: overlay.under});
				if (question.action === 'remove-route') {
					get().removeRoute(question.routeName);
					return;
				}

				if (question.action === 'switch-mode') {
					// The file may have changed meanwhile (an outside edit): switch only to the mode asked about.
					if (nextModeOf(get(), control) === question.mode) {
						get().switchMode();
					} else {
						set({notice: 'the routing changed while the question was open; nothing switched (press m again)'});
					}

					return;
				}

				if (question.action === 'quit') {
					// A finished batch (R after the finish clears the report) has nothing left to stop.
					if (get().report && !get().order.some(id => isActiveStatus(get().tasks[id]?.status))) {
						set({exitRequested: true});
						return;
					}

					set({quitting: true, notice: null});
					whenReplied(api, control.shutdown({skipGrace: false}), 'stopping the batch', () => undefined);
					if (get().report) {
						set({exitRequested: true});
					}

					return;
				}

				whenReplied(api, control.cancel(question.taskId, {skipGrace: question.action === 'kill'}), `cancelling ${question.taskId}`, sent => {
					if (!sent) {
						set({notice: 'nothing to cancel: the task has already finished'});
					}
				});
			},

			confirmNo() {
				const {overlay} = get();
				if (overlay?.kind === 'confirm') {
					set({overlay: overlay.under});
				}
			},
		};
	});
}

function nextModeOf(state: BatchState, control: BatchControl): RoutingMode | undefined {
	const delegation = control.routing?.();
	return delegation ? nextMode(delegation, state.mode).mode : undefined;
}

function isActiveStatus(status: TaskStatus | undefined): boolean {
	return status !== undefined && isActive(status);
}
