// The store's shape: the batch state, the actions, and what the store may ask of the core.
// Everyone takes these types from here, never from store.ts, which imports every slice: so the
// slices and the store form no import circle.
import type {BatchEvent, BatchReport, BudgetStanding, FleetStanding, RouteField, RoutingMode, SteerOutcome} from '../core/types.js';
import type {StoreApi} from 'zustand/vanilla';
import type {OutputSnapshot} from '../wire/port.js';
import type {Overlay} from './overlay.js';
import type {TextField} from './text-field.js';
import type {SortKey, StatusFilter} from './task-order.js';
import type {TaskView} from './task-view.js';

export type LayoutPreference = 'auto' | 'grid' | 'list';
export type BatchState = {
	runId: string;
	runDir: string;
	mode: RoutingMode;
	concurrency: number;
	graceMs: number;
	/** Who started the batch when not the operator at a terminal: an MCP client's name; null otherwise. */
	origin: string | null;
	startedAt: number;
	/** When the runner finished the batch (batch.finished); the header's clock stops there. */
	finishedAt: number | null;
	now: number;
	order: string[];
	tasks: Record<string, TaskView>;
	warnings: string[];
	/** Each budget's newest standing (batch.budget), by budgetKey; empty while none has reached 80 %. */
	budgets: Record<string, BudgetStanding>;
	/** Tasks on worker hosts: the fleet as last announced (batch.fleet); null for a batch that runs here. */
	fleet: FleetStanding | null;
	report: BatchReport | null;
	focusedId: string | null;
	layout: LayoutPreference;
	/** s: the order of the grid and the list (state/task-order.ts). */
	sortBy: SortKey;
	/** f: which tasks the grid and the list show; the header still counts them all. */
	statusFilter: StatusFilter;
	/** /: the text the grid and the list are filtered by, once kept ('' = none; while typed, the prompt's field). */
	textFilter: string;
	/** What covers the grid: the zoom, the help, the spend table, the routes editor or picker, a question (state/overlay.ts). */
	overlay: Overlay | null;
	/** A save was stopped by a change made to config.yaml on disk: marked until the operator re-reads it. */
	configConflict: boolean;
	/** The batch was started with its config: m and r can change its routing (fixed for the batch). */
	canSteer: boolean;
	/** R can send a task to another route or model (fixed for the batch). */
	canReroute: boolean;
	quitting: boolean;
	exitRequested: boolean;
	/** The batch runs in a runner host (commands/dashboard.tsx sets it): leaving the dashboard can leave the batch running. */
	canDetach: boolean;
	/** A finished run opened from its run folder (client/finished-run.ts): nothing can be steered, and the header says so. */
	readOnly: boolean;
	/** d: leave the dashboard, the batch runs on (the dashboard command acts on it). */
	detachRequested: boolean;
	notice: string | null;
	/** y: text for the terminal's clipboard (OSC 52, written by commands/dashboard.tsx); the serial tells one copy from the next. */
	clipboard: {text: string; serial: number} | null;
	/** o: the task whose log the dashboard opens in $PAGER (commands/dashboard.tsx); the serial tells one request from the next. */
	pager: {taskId: string; serial: number} | null;
};

export type BatchActions = {
	applyEvent(event: BatchEvent): void;
	/** An output push: the panes that changed, whole (state/feed.ts). */
	takeOutput(panes: Readonly<Record<string, OutputSnapshot>>): void;
	tick(now: number): void;
	focus(id: string): void;
	moveFocus(direction: 'up' | 'down' | 'left' | 'right' | 'next' | 'prev', columns: number): void;
	toggleLayout(effective: 'grid' | 'list'): void;
	/** y: the focused (or zoomed) task's answer to the clipboard, with a notice that says where else it is. */
	copyAnswer(): void;
	/** o: asks for the focused (or zoomed) task's whole log in $PAGER, or says why there is none. */
	openPager(): void;
	/** /: opens the filter's prompt, holding the kept filter. */
	startFilter(): void;
	/** Enter at the prompt: keeps what was typed. */
	submitFilter(): void;
	/** Esc: no text filter any more. */
	clearFilter(): void;
	/** s: the next sort (plan order → status → elapsed → spend). */
	cycleSort(): void;
	/** f: the next status filter (all → active → failed → finished). */
	cycleStatusFilter(): void;
	toggleHelp(): void;
	/** `$`: the spend table per route and per model (state/spend-view.ts), over the grid or the zoom. */
	toggleSpend(): void;
	/** `visibleLines`: scrollback lines the zoom view shows, so that it is never scrolled past full. */
	openZoom(visibleLines: number): void;
	closeOverlay(): void;
	scroll(delta: number | 'top' | 'bottom', visibleLines: number): void;
	/** w in the zoom: wrap long lines, or cut them (state/zoom.ts `long`). */
	toggleWrap(): void;
	/** ←/→ in a cut zoom: `delta` columns sideways from what a `columns`-wide screen shows. */
	scrollSideways(delta: number, columns: number): void;
	startSearch(): void;
	submitSearch(): void;
	/** The text field that has the keyboard (search, editor, picker) after a key press. */
	setField(field: TextField): void;
	/** Pasted text: into the text field that has the keyboard, as one line; elsewhere ignored with a notice (state/paste.ts). */
	paste(text: string): void;
	findNext(direction: 1 | -1): void;
	requestCancel(kill: boolean): void;
	/** A steering key on a read-only run: one sentence says why nothing happens. */
	refuseReadOnly(): void;
	requestQuit(): void;
	/** d, in the grid, the zoom or at the quit question: leave, the batch runs on (only with a runner host). */
	detach(): void;
	confirmYes(): void;
	confirmNo(): void;
	/** config.yaml changed on disk (the watcher): the mode, the notice and an open routes editor follow the file. */
	configChanged(outcome: SteerOutcome): void;
	/** m: asks before switching to the next routing mode with routes (it rewrites Hermes's config.yaml). */
	requestSwitchMode(): void;
	/** The next routing mode with routes, saved into config.yaml, then the queue re-planned (after the question). */
	switchMode(): void;
	/** r: the routes editor for the active mode. */
	openRoutes(): void;
	moveRoute(delta: number): void;
	/** Starts editing the selected route's description. */
	editDescription(): void;
	/** Starts editing one of the selected route's fields (a profile route has only its description). */
	editRouteField(field: RouteField): void;
	/** Enter in the editor's field (saved, or refused in place with the reason; an empty optional field is removed) or the picker's. */
	submitField(): void;
	cancelField(): void;
	/** Makes the selected route its mode's default. */
	setDefaultRoute(): void;
	/** a: starts adding a route to the active mode (model route: its fields; profile route: a profile picker). */
	startAddRoute(): void;
	/** Re-reads config.yaml into the editor and clears the conflict mark. */
	reloadConfig(): void;
	/** x: asks before removing the selected route (never the default). */
	requestRemoveRoute(): void;
	/** Removes the named route (after the question). */
	removeRoute(name: string): void;
	/** R: the route picker for the focused (or zoomed) task. */
	openReroute(): void;
	/** Sends the picked task to the selected route. */
	pickRoute(): void;
};

export type BatchStore = StoreApi<BatchState & BatchActions>;
