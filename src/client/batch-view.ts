// One batch's tasks as plain data, for a caller that is not a dashboard (the MCP server's
// batch_status and batch_wait): from a live host's snapshot replayed into the dashboard's own store
// (so status, attempt and spend read exactly as the panes and the `$` table show them), or from a
// finished run's results.json. Texts are as the store holds them (sanitised when they came in);
// the caller bounds them.
import type {BatchEvent, BatchReport, ResultRoute, Spend, TaskResult, TaskStatus} from '../core/types.js';
import type {TaskView} from '../state/task-view.js';
import {storeFromSnapshot} from './attach-store.js';
import type {BatchConnection} from './connection.js';

export type RouteSummary = {name: string | null; kind: string; provider: string | null; model: string | null; reasoning_effort: string | null; profile: string | null};

/** What a task spent so far; a figure Hermes did not give is "unknown", never 0. */
export type SpendSummary = {cost_usd: number | 'unknown'; input_tokens: number | 'unknown'; output_tokens: number | 'unknown'; tool_calls: number | 'unknown'};

export type TaskSummary = {
	id: string;
	name: string | null;
	status: TaskStatus;
	route: RouteSummary;
	/** Why the route was chosen, or why the task was refused. */
	reason: string;
	attempt: number;
	/** Seconds it has run (to its end, once ended); null: never started. */
	elapsed_s: number | null;
	/** Seconds since it last printed or used a tool, while it runs; null otherwise. */
	quiet_s: number | null;
	spend: SpendSummary;
	last_lines: string[];
};

export type BatchView = {finished: boolean; tasks: TaskSummary[]; report: BatchReport | null};

const seconds = (ms: number) => Math.round(ms / 100) / 10;

function spendOf(spend: Spend | null | undefined): SpendSummary {
	const known = (value: number | null | undefined) => (value === null || value === undefined ? 'unknown' as const : value);
	return {cost_usd: known(spend?.cost_usd), input_tokens: known(spend?.input_tokens), output_tokens: known(spend?.output_tokens), tool_calls: known(spend?.tool_calls)};
}

function viewRoute(task: TaskView): RouteSummary {
	return {name: task.routeName, kind: task.routeKind, provider: task.provider, model: task.model, reasoning_effort: task.reasoningEffort, profile: task.profile};
}

export type FollowedBatch = {
	/** The batch as the host has it now: the snapshot and every event since. */
	view(options: {lines: number; now?: number}): BatchView;
	/** Each event from now on (the one subscription to the connection's events is this one's). */
	onEvent(listener: (event: BatchEvent) => void): () => void;
};

/**
 * The dashboard's store made from the connection's snapshot and kept up to date with its events.
 * It subscribes to the connection's events and output pushes itself: only the first subscriber
 * gets what came with the snapshot, so a caller listens through onEvent.
 */
export function followBatch(connection: BatchConnection): FollowedBatch {
	const store = storeFromSnapshot(connection);
	const listeners = new Set<(event: BatchEvent) => void>();
	connection.source.subscribe(event => {
		store.getState().applyEvent(event);
		for (const listener of listeners) listener(event);
	});
	connection.source.subscribeOutput?.(panes => store.getState().takeOutput(panes));
	return {
		view({lines, now = Date.now()}) {
			store.getState().tick(now);
			const state = store.getState();
			const tasks = state.order.map(id => state.tasks[id]!).map(task => taskSummary(task, lines, now));
			return {finished: state.report !== null, tasks, report: state.report};
		},
		onEvent(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
	};
}

function taskSummary(task: TaskView, lines: number, now: number): TaskSummary {
	const running = task.status === 'running' || task.status === 'cancelling';
	const lastSign = Math.max(task.lastOutputAt ?? 0, task.lastToolAt ?? 0, task.startedAt ?? 0);
	return {
		id: task.id,
		name: task.title === task.goal ? null : task.title,
		status: task.status,
		route: viewRoute(task),
		reason: task.reason,
		attempt: task.attempt,
		elapsed_s: task.startedAt === null ? null : seconds((task.finishedAt ?? now) - task.startedAt),
		quiet_s: running && lastSign > 0 ? seconds(Math.max(0, now - lastSign)) : null,
		spend: spendOf(task.spend),
		last_lines: lines > 0 ? task.tail.slice(-lines) : [],
	};
}

export function resultRouteSummary(route: ResultRoute): RouteSummary {
	// base_url is left out on purpose: an endpoint URL may carry a credential.
	return {name: route.name, kind: route.kind, provider: route.provider, model: route.model, reasoning_effort: route.reasoning_effort, profile: route.profile};
}

function resultSummary(result: TaskResult): TaskSummary {
	return {
		id: result.id,
		name: result.name,
		status: result.status,
		route: resultRouteSummary(result.route),
		reason: result.route.reason,
		attempt: result.attempt ?? 1,
		elapsed_s: result.duration_ms === null ? null : seconds(result.duration_ms),
		quiet_s: null,
		spend: spendOf(result.spend),
		last_lines: [],
	};
}

/** A finished run, from its results.json. */
export function reportBatchView(report: BatchReport): BatchView {
	return {finished: true, tasks: report.results.map(resultSummary), report};
}
