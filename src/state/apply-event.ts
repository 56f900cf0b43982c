// What each runner event and each output publish changes in the batch state, as pure functions
// returning a patch; the store applies it. Events are few and apply at once; the panes' output
// comes as the host pushes it (`outputPatch`, state/feed.ts).
import type {BatchEvent, BudgetStanding} from '../core/types.js';
import {terminalSafe} from '../core/output/visible-text.js';
import type {OutputSnapshot} from '../wire/port.js';
import type {BatchState} from './store-types.js';
import {finishedPatch, replannedPatch, taskViewFromPlan, type TaskView} from './task-view.js';
import {attemptsOf} from './spend-view.js';
import {batchWarnings} from './warnings.js';

function withTask(state: BatchState, id: string, patch: Partial<TaskView>): Partial<BatchState> {
	const current = state.tasks[id];
	return current ? {tasks: {...state.tasks, [id]: {...current, ...patch}}} : {};
}

export function eventPatch(state: BatchState, event: BatchEvent): Partial<BatchState> {
	switch (event.type) {
		case 'task.requeued': {
			const current = state.tasks[event.id];
			// A new attempt: a fresh pane on the new route; its output starts again from nothing.
			// The tokens of the attempts before it were spent all the same: the header keeps counting them.
			// So were their spends: the `$` table and the header's spend keep them, on the route they ran on.
			return current ? withTask(state, event.id, {...taskViewFromPlan(event.plan), attempt: event.attempt, earlierTokens: current.earlierTokens + (current.telemetry?.tokens?.total ?? 0), earlierAttempts: attemptsOf(current)}) : {};
		}

		case 'task.started': {
			return withTask(state, event.id, {status: 'running', pid: event.pid, startedAt: event.at, waitingFor: null, ...(event.host === undefined ? {} : {host: terminalSafe(event.host)})});
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
			const before = state.tasks[event.id]?.telemetry?.tool_calls ?? 0;
			return withTask(state, event.id, {telemetry: event.telemetry, ...(event.telemetry.tool_calls > before ? {lastToolAt: event.at} : {})});
		}

		case 'task.spend': {
			// A late snapshot of an earlier attempt must not land on the new one's pane.
			const current = state.tasks[event.id];
			if (current?.attempt !== event.attempt) return {};
			// tool_calls counts live in the row: its growth is tool activity, as telemetry's is.
			const grew = (event.spend.tool_calls ?? 0) > (current.spend?.tool_calls ?? 0);
			return withTask(state, event.id, {spend: event.spend, spendAt: event.at, ...(grew ? {lastToolAt: event.at} : {})});
		}

		case 'task.waiting': {
			return withTask(state, event.id, {waitingFor: event.waitingFor === null ? null : terminalSafe(event.waitingFor)});
		}

		case 'task.stuck': {
			return state.tasks[event.id]?.attempt === event.attempt ? withTask(state, event.id, {stuckSince: event.stuck ? event.quietSince : null}) : {};
		}

		case 'batch.fleet': {
			return {fleet: event.fleet};
		}

		case 'batch.budget': {
			return {budgets: {...state.budgets, [budgetKey(event.budget)]: event.budget}};
		}

		case 'task.finished': {
			const cancelling = state.tasks[event.id]?.cancelling ?? null;
			return withTask(state, event.id, finishedPatch(event.result, cancelling, state.graceMs));
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

/** The pushed panes, on the tasks they belong to; undefined if none moved on. (The zoom follows in zoom-actions.ts.) */
export function outputPatch(state: BatchState, panes: Readonly<Record<string, OutputSnapshot>>): Partial<BatchState> | undefined {
	let changed: Record<string, TaskView> | undefined;
	for (const [id, pane] of Object.entries(panes)) {
		const view = state.tasks[id];
		if (view && view.outputVersion !== pane.version) {
			changed ??= {...state.tasks};
			changed[id] = {...view, outputVersion: pane.version, tail: pane.tail, totalLines: pane.totalLines, lastOutputAt: pane.lastOutputAt, stderrLine: pane.errorLine};
		}
	}

	return changed && {tasks: changed};
}

/** One entry per budget: a newer standing of the same scope and unit replaces the older. */
export function budgetKey(budget: BudgetStanding): string {
	return `${budget.scope.kind === 'batch' ? 'batch' : `route:${budget.scope.route}`}:${budget.unit}`;
}
