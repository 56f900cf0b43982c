// What a mouse event does, where the keyboard is: in the grid or the list a click focuses the task
// under it, a double click zooms it, and the wheel moves the focus as ↑/↓ do (a row of panes, a
// line of the list: the view follows the focus, so it scrolls); in the zoom the wheel scrolls. The help and the spend
// table scroll their own window, as for their keys (environment.scrollOverlay). Anywhere else it does nothing:
// a click never answers a question or types into a field.
import type {BatchActions, BatchState} from '../../state/store-types.js';
import {shownOrder} from '../../state/task-order.js';
import {keyContext, type CommandEnvironment} from '../keys/actions.js';
import type {FramePlan} from '../layout.js';
import {isDoubleClick, type LastClick} from './double-click.js';
import {taskIndexAt} from './hit.js';
import {wheelLines, type MouseEvent} from './sgr.js';

export type MouseEnvironment = CommandEnvironment & {frame: FramePlan};

/** The last click on a task, kept between events by the hook: what makes the next one a double click. */
export type ClickMemory = {last: LastClick | undefined};

export function runMouse(event: MouseEvent, state: BatchState & BatchActions, environment: MouseEnvironment, memory: ClickMemory, now: number): void {
	const context = keyContext(state);
	if (context === 'zoom' && event.kind === 'wheel') {
		state.scroll(event.direction === 'up' ? -wheelLines : wheelLines, environment.zoomLines);
		return;
	}

	if ((context === 'help' || context === 'spend') && event.kind === 'wheel') {
		for (let line = 0; line < wheelLines; line++) environment.scrollOverlay(event.direction === 'up' ? 'scroll.up' : 'scroll.down');
		return;
	}

	if (context === 'grid' && event.kind === 'wheel') {
		// One notch, one step: a step is a whole row of panes, where the zoom's three lines are little.
		state.moveFocus(event.direction, environment.focusColumns);
		return;
	}

	if (context !== 'grid' || event.kind !== 'press' || event.button !== 'left') return;
	const order = shownOrder(state);
	const index = taskIndexAt(environment.frame, event, order.length, order.indexOf(state.focusedId ?? ''));
	const id = index === undefined ? undefined : order[index];
	if (id === undefined) {
		memory.last = undefined;
		return;
	}

	const double = isDoubleClick(memory.last, id, now);
	// A third press starts over: two double clicks need four.
	memory.last = double ? undefined : {taskId: id, at: now};
	state.focus(id);
	if (double) state.openZoom(environment.zoomLines);
}
