// What each runner event and each output publish changes in the batch state, as pure functions
// returning a patch; the store applies it. Events are few and apply at once; output is copied in
// at a capped rate by `outputPatch` (see state/feed.ts).
import type {BatchEvent} from '../core/types.js';
import type {BatchControl, BatchState} from './store-types.js';
import {withZoom, zoomOf} from './overlay.js';
import {finishedPatch, replannedPatch, taskViewFromPlan, type TaskView} from './task-view.js';
import {batchWarnings} from './warnings.js';
import {withNewOutput} from './zoom.js';

function withTask(state: BatchState, id: string, patch: Partial<TaskView>): Partial<BatchState> {
	const current = state.tasks[id];
	return current ? {tasks: {...state.tasks, [id]: {...current, ...patch}}} : {};
}

export function eventPatch(state: BatchState, event: BatchEvent, control: BatchControl): Partial<BatchState> {
	switch (event.type) {
		case 'task.requeued': {
			const current = state.tasks[event.id];
			// A new attempt: a fresh pane on the new route; its output starts again from nothing.
			// The tokens of the attempts before it were spent all the same: the header keeps counting them.
			return current ? withTask(state, event.id, {...taskViewFromPlan(event.plan), attempt: event.attempt, earlierTokens: current.earlierTokens + (current.telemetry?.tokens?.total ?? 0)}) : {};
		}

		case 'task.started': {
			return withTask(state, event.id, {status: 'running', pid: event.pid, startedAt: event.at});
		}

		case 'task.cancelling': {
			return withTask(state, event.id, {status: 'cancelling', cancelling: event.cancelling});
		}

		case 'task.killed': {
			const cancelling = state.tasks[event.id]?.cancelling;
			// A kill before the deadline means the grace period was cut short (K, or quitting with K).
			return cancelling ? withTask(state, event.id, {cancelling: {...cancelling, killSent: true, killDueAt: Math.min(cancelling.killDueAt, event.at)}}) : {};
		}

		case 'task.telemetry': {
			return withTask(state, event.id, {telemetry: event.telemetry});
		}

		case 'task.finished': {
			const cancelling = state.tasks[event.id]?.cancelling ?? null;
			return withTask(state, event.id, finishedPatch(event.result, control.outputChanges({}, 0)[event.id]?.errorLine ?? undefined, cancelling, state.graceMs));
		}

		case 'batch.finished': {
			// Again after a retry re-opened the batch: the newest report is the batch's.
			return {report: event.report, finishedAt: event.at, exitRequested: state.quitting || state.exitRequested};
		}

		case 'batch.reopened': {
			// R after the finish: the batch runs again (the header says so, its clock moves) until the next batch.finished.
			return {report: null, finishedAt: null};
		}

		case 'batch.planned': {
			return {runId: event.runId, runDir: event.runDir};
		}

		case 'batch.replanned': {
			const tasks = {...state.tasks};
			for (const {id, plan} of event.tasks) {
				const current = tasks[id];
				if (current) {
					tasks[id] = {...current, ...replannedPatch(plan, current)};
				}
			}

			return {tasks, mode: event.mode, warnings: batchWarnings({tasks: event.tasks.map(task => task.plan), warnings: event.warnings})};
		}
	}
}

/** The panes' tails and the zoom's scrollback, where the core's output moved on; undefined if nothing did. */
export function outputPatch(state: BatchState, control: BatchControl, tailLines: number): Partial<BatchState> | undefined {
	const versions = Object.fromEntries(state.order.map(id => [id, state.tasks[id]!.outputVersion]));
	const changes = control.outputChanges(versions, tailLines);
	let changed: Record<string, TaskView> | undefined;
	for (const [id, output] of Object.entries(changes)) {
		const view = state.tasks[id];
		if (view) {
			changed ??= {...state.tasks};
			changed[id] = {...view, outputVersion: output.version, tail: output.tail, totalLines: output.totalLines};
		}
	}

	const zoom = zoomOf(state.overlay);
	// The zoom's scrollback is read only when its task's output moved; a reply that comes later is seam 1's.
	const moved = zoom === null ? undefined : (changes[zoom.taskId]?.version ?? state.tasks[zoom.taskId]?.outputVersion);
	const reply = zoom !== null && moved !== undefined && moved !== zoom.version ? control.readOutput({id: zoom.taskId}) : undefined;
	const zoomOutput = reply instanceof Promise ? undefined : reply;
	const zoomChanged = zoom !== null && zoomOutput !== undefined && zoomOutput.version !== zoom.version;
	if (!changed && !zoomChanged) {
		return undefined;
	}

	return {...(changed ? {tasks: changed} : {}), ...(zoomChanged ? {overlay: withZoom(state.overlay, withNewOutput(zoom, {...zoomOutput, lines: () => zoomOutput.lines}))} : {})};
}
