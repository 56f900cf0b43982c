// From a matched command to a store action, and which commands are worth offering right now.
// Pure (no React) so the keyboard hook stays a thin adapter and the footer agrees with it.
import {bodyLayer, overlayContext, targetTaskId, zoomOf} from '../../state/overlay.js';
import {cancelRequest} from '../../state/intents.js';
import {rerouteRefusal} from '../../state/steer.js';
import type {BatchActions, BatchState} from '../../state/store-types.js';
import type {Command, KeyContext} from './keys.js';

type State = BatchState & BatchActions;

/** Where the keyboard is: the top overlay (state/overlay.ts), else the grid. */
export function keyContext(state: Pick<BatchState, 'overlay'>): KeyContext {
	return overlayContext(state.overlay) ?? 'grid';
}

export type CommandEnvironment = {
	/** Panes per grid row (1 in the list): how far up/down moves. */
	focusColumns: number;
	/** Scrollback lines on screen in the zoom view: one page, and what keeps the view full. */
	zoomLines: number;
	/** Columns of the zoom's text (the screen's width): how far ←/→ moves a cut view. */
	zoomColumns: number;
	/** The layout on screen, which the toggle switches away from. */
	effectiveLayout: 'grid' | 'list';
	/** The help and the spend table scroll their own window (hooks/use-scroll-window.ts): a scroll command there goes to it. */
	scrollOverlay: (command: Command) => void;
	/** Paints the whole screen again (ui/terminal/diff-writer.ts), whatever is on it now. */
	redraw: () => void;
};

type Action = (state: State, environment: CommandEnvironment) => void;

/** What each command does: one entry per command, so a new one cannot be left without an action. */
const actions: Record<Command, Action> = {
	'focus.up': (state, {focusColumns}) => state.moveFocus('up', focusColumns),
	'focus.down': (state, {focusColumns}) => state.moveFocus('down', focusColumns),
	'focus.left': (state, {focusColumns}) => state.moveFocus('left', focusColumns),
	'focus.right': (state, {focusColumns}) => state.moveFocus('right', focusColumns),
	'focus.next': (state, {focusColumns}) => state.moveFocus('next', focusColumns),
	'focus.prev': (state, {focusColumns}) => state.moveFocus('prev', focusColumns),
	'task.zoom': (state, {zoomLines}) => state.openZoom(zoomLines),
	'zoom.close': state => state.closeOverlay(),
	// The store counts scrolling towards the end as positive.
	'scroll.up': (state, {zoomLines}) => state.scroll(-1, zoomLines),
	'scroll.down': (state, {zoomLines}) => state.scroll(1, zoomLines),
	'scroll.pageUp': (state, {zoomLines}) => state.scroll(-zoomLines, zoomLines),
	'scroll.pageDown': (state, {zoomLines}) => state.scroll(zoomLines, zoomLines),
	// Half a screen sideways: enough to move, little enough to keep the reader's place.
	'scroll.left': (state, {zoomColumns}) => state.scrollSideways(-Math.max(1, Math.floor(zoomColumns / 2)), zoomColumns),
	'scroll.right': (state, {zoomColumns}) => state.scrollSideways(Math.max(1, Math.floor(zoomColumns / 2)), zoomColumns),
	'zoom.wrap': state => state.toggleWrap(),
	'scroll.top': (state, {zoomLines}) => state.scroll('top', zoomLines),
	'scroll.bottom': (state, {zoomLines}) => state.scroll('bottom', zoomLines),
	'search.start': state => state.startSearch(),
	// As after `/` in less and vim: n goes on towards the end, N back towards the start. Only
	// the first jump (Enter) goes up, to the nearest match above: the view starts at the end.
	'search.next': state => state.findNext(1),
	'search.prev': state => state.findNext(-1),
	'search.submit': state => state.submitSearch(),
	'search.cancel': state => state.closeOverlay(),
	'task.cancel': state => state.requestCancel(false),
	'task.kill': state => state.requestCancel(true),
	'confirm.yes': state => state.confirmYes(),
	'confirm.no': state => state.confirmNo(),
	'layout.toggle': (state, {effectiveLayout}) => state.toggleLayout(effectiveLayout),
	'task.copy': state => state.copyAnswer(),
	'task.pager': state => state.openPager(),
	'filter.start': state => state.startFilter(),
	'filter.submit': state => state.submitFilter(),
	'filter.cancel': state => state.clearFilter(),
	'filter.clear': state => state.clearFilter(),
	'view.sort': state => state.cycleSort(),
	'view.filter': state => state.cycleStatusFilter(),
	'help.toggle': state => state.toggleHelp(),
	'spend.toggle': state => state.toggleSpend(),
	'screen.redraw': (_state, {redraw}) => redraw(),
	'app.quit': state => state.requestQuit(),
	'app.detach': state => state.detach(),
	'routing.mode': state => state.requestSwitchMode(),
	'routes.open': state => state.openRoutes(),
	'routes.up': state => state.moveRoute(-1),
	'routes.down': state => state.moveRoute(1),
	'routes.edit': state => state.editDescription(),
	'routes.model': state => state.editRouteField('model'),
	'routes.provider': state => state.editRouteField('provider'),
	'routes.effort': state => state.editRouteField('reasoning_effort'),
	'routes.add': state => state.startAddRoute(),
	'routes.remove': state => state.requestRemoveRoute(),
	'routes.reload': state => state.reloadConfig(),
	'routes.default': state => state.setDefaultRoute(),
	'routes.close': state => state.closeOverlay(),
	'field.cancel': state => state.closeOverlay(),
	'task.reroute': state => state.openReroute(),
	'pick.submit': state => state.pickRoute(),
	'field.submit': state => state.submitField(),
};

/** What would change the batch: on a read-only run (a finished one, opened from its folder) they only say why not. */
const steering = new Set<Command>(['task.cancel', 'task.kill', 'task.reroute', 'routing.mode', 'routes.open']);

/** A key's command, done as a store action. */
export function runKeyCommand(command: Command, state: State, environment: CommandEnvironment): void {
	if (state.readOnly && steering.has(command)) {
		state.refuseReadOnly();
		return;
	}

	actions[command](state, environment);
}

/** What c or K decides now (state/intents.ts): offered when it asks its question (or, K while quitting, kills all). */
function cancelActs(state: BatchState, kill: boolean): boolean {
	const decision = cancelRequest(state, kill);
	return decision === 'kill-all' || (decision !== undefined && decision.overlay !== undefined);
}

/** False for commands that would do nothing now, so the footer does not offer them. */
export function isAvailable(command: Command, state: BatchState): boolean {
	if (state.readOnly && steering.has(command)) return false;
	switch (command) {
		case 'focus.up': case 'focus.down': case 'focus.left': case 'focus.right': {
			return state.order.length > 1;
		}

		case 'task.zoom': {
			return state.focusedId !== null;
		}

		// The store's own deciders: what the footer offers is what the key would do.
		case 'task.cancel': {
			return cancelActs(state, false);
		}

		case 'task.kill': {
			return cancelActs(state, true);
		}

		// q always acts (requestQuit): it asks, and while quitting it kills all now (stateLabel). In a
		// prompt the text keys are the prompt's: only Ctrl+C quits there, and the footer offers y/n.
		case 'app.quit': {
			return state.overlay?.kind !== 'confirm';
		}

		// Only with a runner host; in a prompt only as the third answer to the quit question.
		case 'app.detach': {
			return state.canDetach && !state.quitting && (state.overlay?.kind !== 'confirm' || state.overlay.question.action === 'quit');
		}

		// Offered only where they can act: a batch started without its config cannot be steered,
		// and R moves only a task that holds no process.
		case 'routing.mode': {
			return state.canSteer && !state.quitting;
		}

		case 'routes.open': {
			return state.canSteer;
		}

		case 'task.reroute': {
			return rerouteRefusal(state) === undefined;
		}

		case 'filter.clear': {
			return state.textFilter !== '';
		}

		// Offered once the task has an answer; pressed before, it says where the output is.
		case 'task.copy': {
			const id = targetTaskId(state);
			return (id ? state.tasks[id]?.answer ?? null : null) !== null;
		}

		// Offered once the task has a log: it has started (now or in an earlier attempt).
		case 'task.pager': {
			const id = targetTaskId(state);
			const task = id ? state.tasks[id] : undefined;
			return task !== undefined && (task.startedAt !== null || task.attempt > 1);
		}

		case 'scroll.left': case 'scroll.right': {
			return zoomOf(state.overlay)?.long.wrap === false;
		}

		case 'search.next': case 'search.prev': {
			return (zoomOf(state.overlay)?.search.query ?? '') !== '';
		}

		default: {
			return true;
		}
	}
}

/** What a command does in the current state, where the binding table's label would mislead. */
export function stateLabel(command: Command, state: BatchState): string | undefined {
	// While quitting, K no longer asks about one task, and q no longer asks: each kills every task still being stopped.
	if ((command === 'task.kill' || command === 'app.quit') && state.quitting) {
		return 'kill all now';
	}

	// / says the filter while one is kept.
	if (command === 'filter.start' && state.textFilter !== '') {
		return `filter "${state.textFilter}"`;
	}

	// s and f say the order and the filter while they are not the default: the footer shows them.
	if (command === 'view.sort' && state.sortBy !== 'plan') {
		return `sorted by ${state.sortBy}`;
	}

	if (command === 'view.filter' && state.statusFilter !== 'all') {
		return `only ${state.statusFilter}`;
	}

	// R on a succeeded task runs it again (a new attempt), which "re-route" would not say.
	if (command === 'task.reroute') {
		const id = targetTaskId(state);
		if (id && state.tasks[id]?.status === 'succeeded') return 'run again';
	}

	// w says what it does next: cut the wrapped lines, or wrap the cut ones.
	if (command === 'zoom.wrap' && zoomOf(state.overlay)?.long.wrap === false) {
		return 'wrap lines';
	}

	// The re-route picker's fields save nothing: Enter asks the provider next, then puts the task back in the queue.
	const body = bodyLayer(state.overlay);
	if (command === 'field.submit' && body?.kind === 'pick') {
		return body.picker.explicit?.step === 'model' ? 'next' : 're-queue';
	}

	return undefined;
}
