// From a matched command to a store action, and which commands are worth offering right now.
// Pure (no React) so the keyboard hook stays a thin adapter and the footer agrees with it.
import {isActive} from '../../core/types.js';
import {bodyLayer, overlayContext, zoomOf} from '../../state/overlay.js';
import {isReroutable} from '../../state/reroute-actions.js';
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
	/** The layout on screen, which the toggle switches away from. */
	effectiveLayout: 'grid' | 'list';
};

export function runCommand(command: Command, state: State, environment: CommandEnvironment): void {
	switch (command) {
		case 'focus.up': case 'focus.down': case 'focus.left': case 'focus.right': case 'focus.next': case 'focus.prev': {
			state.moveFocus(command.slice('focus.'.length) as Parameters<State['moveFocus']>[0], environment.focusColumns);
			break;
		}

		case 'task.zoom': {
			state.openZoom(environment.zoomLines);
			break;
		}

		case 'zoom.close': {
			state.closeOverlay();
			break;
		}

		// The store counts scrolling towards the end as positive.
		case 'scroll.up': {
			state.scroll(-1, environment.zoomLines);
			break;
		}

		case 'scroll.down': {
			state.scroll(1, environment.zoomLines);
			break;
		}

		case 'scroll.pageUp': {
			state.scroll(-environment.zoomLines, environment.zoomLines);
			break;
		}

		case 'scroll.pageDown': {
			state.scroll(environment.zoomLines, environment.zoomLines);
			break;
		}

		case 'scroll.top': {
			state.scroll('top', environment.zoomLines);
			break;
		}

		case 'scroll.bottom': {
			state.scroll('bottom', environment.zoomLines);
			break;
		}

		case 'search.start': {
			state.startSearch();
			break;
		}

		// As after `/` in less and vim: n goes on towards the end, N back towards the start. Only
		// the first jump (Enter) goes up, to the nearest match above: the view starts at the end.
		case 'search.next': {
			state.findNext(1);
			break;
		}

		case 'search.prev': {
			state.findNext(-1);
			break;
		}

		case 'search.submit': {
			state.submitSearch();
			break;
		}

		case 'search.cancel': {
			state.closeOverlay();
			break;
		}

		case 'task.cancel': {
			state.requestCancel(false);
			break;
		}

		case 'task.kill': {
			state.requestCancel(true);
			break;
		}

		case 'confirm.yes': {
			state.confirmYes();
			break;
		}

		case 'confirm.no': {
			state.confirmNo();
			break;
		}

		case 'layout.toggle': {
			state.toggleLayout(environment.effectiveLayout);
			break;
		}

		case 'help.toggle': {
			state.toggleHelp();
			break;
		}

		case 'app.quit': {
			state.requestQuit();
			break;
		}

		case 'routing.mode': {
			state.requestSwitchMode();
			break;
		}

		case 'routes.open': {
			state.openRoutes();
			break;
		}

		case 'routes.up': case 'routes.down': {
			state.moveRoute(command === 'routes.up' ? -1 : 1);
			break;
		}

		case 'routes.edit': {
			state.editDescription();
			break;
		}

		case 'routes.model': case 'routes.provider': case 'routes.effort': {
			state.editRouteField(({'routes.model': 'model', 'routes.provider': 'provider', 'routes.effort': 'reasoning_effort'} as const)[command]);
			break;
		}

		case 'routes.add': {
			state.startAddRoute();
			break;
		}

		case 'routes.remove': {
			state.requestRemoveRoute();
			break;
		}

		case 'routes.reload': {
			state.reloadConfig();
			break;
		}

		case 'routes.default': {
			state.setDefaultRoute();
			break;
		}

		case 'routes.close': case 'field.cancel': {
			state.closeOverlay();
			break;
		}

		case 'task.reroute': {
			state.openReroute();
			break;
		}

		case 'pick.submit': {
			state.pickRoute();
			break;
		}

		case 'field.submit': {
			state.submitField();
			break;
		}
	}
}

/** The task that cancel/kill would act on. */
function targetId(state: BatchState): string | null {
	return zoomOf(state.overlay)?.taskId ?? state.focusedId;
}

/** False for commands that would do nothing now, so the footer does not offer them. */
export function isAvailable(command: Command, state: BatchState): boolean {
	switch (command) {
		case 'focus.up': case 'focus.down': case 'focus.left': case 'focus.right': {
			return state.order.length > 1;
		}

		case 'task.zoom': {
			return state.focusedId !== null;
		}

		case 'task.cancel': {
			const id = targetId(state);
			const status = id ? state.tasks[id]?.status : undefined;
			return !state.quitting && status !== undefined && status !== 'cancelling' && isActive(status);
		}

		case 'task.kill': {
			if (state.quitting) {
				return true;
			}

			const id = targetId(state);
			const status = id ? state.tasks[id]?.status : undefined;
			return status !== undefined && isActive(status);
		}

		// q does nothing while quitting, nor in a prompt (which only y/n answer).
		case 'app.quit': {
			return !state.quitting && state.overlay?.kind !== 'confirm';
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
			const id = targetId(state);
			const status = id ? state.tasks[id]?.status : undefined;
			return state.canReroute && !state.quitting && status !== undefined && isReroutable(status);
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
	// While quitting, K no longer asks about one task: it kills every task still being stopped.
	if (command === 'task.kill' && state.quitting) {
		return 'kill all now';
	}

	// The re-route picker's fields save nothing: Enter asks the provider next, then puts the task back in the queue.
	const body = bodyLayer(state.overlay);
	if (command === 'field.submit' && body?.kind === 'pick') {
		return body.picker.explicit?.step === 'model' ? 'next' : 're-queue';
	}

	return undefined;
}
