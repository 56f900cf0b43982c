// Renders the dashboard the way the app does (store + theme + bindings), against a fresh store
// whose control is a fake that records what the UI asked for and serves canned output.
import {render as inkRender} from 'ink-testing-library';
import {loadTheme, type Theme} from '../../src/core/theme/themes.js';
import type {BatchReport, DelegationConfig, PlannedTask, RetryTarget, RouteDecision, RouteEdit, Spend, SteerOutcome, TaskResult, TaskSpec, TaskStatus} from '../../src/core/types.js';
import {createBatchStore} from '../../src/state/store.js';
import {nextMatch} from '../../src/host/control.js';
import type {BatchControl, OutputRange, OutputSearch, OutputSnapshot} from '../../src/wire/port.js';
import type {BatchStore} from '../../src/state/store-types.js';
import {App} from '../../src/ui/App.js';
import {defaultBindings, type Bindings} from '../../src/ui/keys/keys.js';

export const t0 = Date.parse('2025-01-01T12:00:00Z');

type TaskOverrides = {
	spec?: Partial<TaskSpec>;
	decision?: Partial<RouteDecision>;
	effective?: Partial<PlannedTask['effective']>;
};

/** A planned task on the `fast` model route, numbered like the planner numbers them. */
export function plannedTask(index: number, overrides: TaskOverrides = {}): PlannedTask {
	const route = {kind: 'model' as const, name: 'fast', description: 'Cheap and quick', model: 'google/gemini-3-flash-preview', provider: 'openrouter'};
	return {
		index,
		id: `t${String(index + 1).padStart(2, '0')}`,
		spec: {goal: `Goal number ${index + 1}`, ...overrides.spec},
		decision: {route, refused: false, reason: 'characteristic quick → fast', ...overrides.decision},
		effective: {model: route.model, provider: route.provider, reasoning_effort: null, service_tier: null, profile: null, ...overrides.effective},
		launch: {max_turns: null, prompt_file: false, base_url: null},
		warnings: [],
	};
}

export function plannedTasks(count: number): PlannedTask[] {
	return Array.from({length: count}, (_, index) => plannedTask(index));
}

export type ControlCall =
	| {method: 'cancel'; id: string; options: {skipGrace: boolean}}
	| {method: 'shutdown'; options: {skipGrace: boolean}};

/** What a steering control answers, in the test's own (synchronous) terms: FakeControl.steering makes them replies. */
export type SteeringParts = {
	routing: () => DelegationConfig;
	steer: (edits: readonly RouteEdit[]) => SteerOutcome;
	profiles?: () => string[];
	reload?: () => SteerOutcome;
	reroute?: (id: string, target: RetryTarget) => {ok: boolean; message: string};
};

/**
 * Records every intent the UI sends and answers later, as the runner host does across its socket;
 * output is whatever the test wrote, bounded like the core's, pushed to the store on publish() as
 * the host pushes it (whole panes of the store's 40 lines).
 */
export class FakeControl implements BatchControl {
	readonly calls: ControlCall[] = [];
	private readonly outputs = new Map<string, {version: number; lines: string[]; total: number; errorLine?: string | undefined; at?: number | undefined}>();
	private readonly published = new Map<string, number>();
	private store: BatchStore | undefined;
	private readonly replies: Array<Promise<unknown>> = [];

	constructor(private readonly maxLines = 2000) {}

	/** The store publish() pushes to. */
	feeds(store: BatchStore): void {
		this.store = store;
	}

	async cancel(id: string, options: {skipGrace: boolean}): Promise<boolean> {
		this.calls.push({method: 'cancel', id, options});
		return this.later(true);
	}

	async shutdown(options: {skipGrace: boolean}): Promise<void> {
		this.calls.push({method: 'shutdown', options});
		return this.later(undefined);
	}

	/**
	 * This control able to steer: `routing` and `profiles` read at once, the rest answered at the
	 * request and landing later, as the rest of its replies do.
	 */
	steering(parts: SteeringParts): this & Required<Pick<BatchControl, 'routing' | 'steer'>> & Pick<BatchControl, 'profiles' | 'reload' | 'reroute'> {
		const {routing, steer, profiles, reload, reroute} = parts;
		return Object.assign(this, {
			routing,
			steer: async (edits: readonly RouteEdit[]) => this.later(steer(edits)),
			...(profiles ? {profiles} : {}),
			...(reload ? {reload: async () => this.later(reload())} : {}),
			...(reroute ? {reroute: async (id: string, target: RetryTarget) => this.later(reroute(id, target))} : {}),
		});
	}

	/** The panes written since the last publish, pushed to the store (the host's paced push). */
	publish(): void {
		const panes: Record<string, OutputSnapshot> = {};
		for (const [id, output] of this.outputs) {
			if (output.version !== this.published.get(id)) {
				panes[id] = {version: output.version, totalLines: output.total, tail: output.lines.slice(-40), errorLine: output.errorLine ?? null, lastOutputAt: output.at ?? null};
				this.published.set(id, output.version);
			}
		}

		this.store?.getState().takeOutput(panes);
	}

	async readOutput({id, last}: {id: string; last?: number}): Promise<OutputRange | undefined> {
		return this.later(this.rangeOf(id, last));
	}

	async searchOutput(request: OutputSearch): Promise<{line: number | null}> {
		const range = this.rangeOf(request.id, undefined);
		return this.later({line: range ? nextMatch(range, request) : null});
	}

	/** Every reply sent so far has landed, and so have the replies their landing asked for. */
	async landed(): Promise<void> {
		for (;;) {
			const batch = this.replies.splice(0);
			await Promise.all(batch);
			// One turn of the event loop: every callback chained on the replies has run.
			await new Promise(resolve => setImmediate(resolve));
			if (batch.length === 0 && this.replies.length === 0) {
				return;
			}
		}
	}

	/** A reply that lands once the caller has gone on, as one across a socket does. */
	protected async later<T>(value: T): Promise<T> {
		const reply = new Promise<T>(resolve => setImmediate(() => resolve(value)));
		this.replies.push(reply);
		return reply;
	}

	private rangeOf(id: string, last: number | undefined): OutputRange | undefined {
		const output = this.outputs.get(id);
		if (!output) {
			return undefined;
		}

		const lines = last === undefined ? [...output.lines] : last > 0 ? output.lines.slice(-last) : [];
		return {id, version: output.version, totalLines: output.total, first: output.total - lines.length, lines};
	}

	/** Appends lines to a task's output, as the runner would; `at`: when (the runner's clock) it printed them. */
	write(id: string, lines: readonly string[], errorLine?: string, at?: number): void {
		const current = this.outputs.get(id) ?? {version: 0, lines: [], total: 0};
		this.outputs.set(id, {version: current.version + 1, lines: [...current.lines, ...lines].slice(-this.maxLines), total: current.total + lines.length, errorLine: errorLine ?? current.errorLine, at: at ?? current.at});
	}
}

/** The output half of a control that has none: for stores whose tests never print. */
export const noOutput: Pick<BatchControl, 'readOutput' | 'searchOutput'> = {
	readOutput: async () => undefined,
	searchOutput: async () => ({line: null}),
};

export type RenderOptions = {
	tasks?: readonly PlannedTask[];
	warnings?: readonly string[];
	/** The frame's size; `null` follows the (fake) terminal instead. */
	columns?: number | null;
	rows?: number | null;
	theme?: Theme;
	bindings?: Bindings;
	graceMs?: number;
	/** Output lines the fake core keeps per task (the real one keeps 2000). */
	maxOutputLines?: number;
	/** The run id (default 'run-test'): real ones are 22 characters. */
	runId?: string;
	/** The terminal reports the mouse, as the dashboard asks it to unless --no-mouse. */
	mouse?: boolean;
};

export function render(options: RenderOptions = {}) {
	const control = new FakeControl(options.maxOutputLines);
	const store = createBatchStore({
		control,
		plan: {mode: 'model_map', tasks: options.tasks ?? plannedTasks(3), warnings: options.warnings ?? []},
		runId: options.runId ?? 'run-test',
		runDir: '/tmp/run-test',
		concurrency: 4,
		graceMs: options.graceMs ?? 5000,
		now: t0,
	});
	control.feeds(store);
	const theme = options.theme ?? loadTheme('dark', {noColor: false});
	const instance = inkRender(<App store={store} theme={theme} bindings={options.bindings ?? defaultBindings} columns={orDefault(options.columns, 100)} rows={orDefault(options.rows, 30)} mouse={options.mouse ?? false}/>);
	return {
		...instance,
		store,
		control,
		/** The last frame without styling, for assertions about text. */
		frame: () => stripAnsi(instance.lastFrame() ?? ''),
	};
}

function orDefault(value: number | null | undefined, fallback: number): number | undefined {
	return value === null ? undefined : value ?? fallback;
}

export function stripAnsi(text: string): string {
	return text.replaceAll(/\u001B\[[\d;:]*m/g, '');
}

// --- Driving the store as the runner's events would --------------------------------------------

export function startTask(store: BatchStore, id: string, at: number): void {
	store.getState().applyEvent({type: 'task.started', id, pid: 1000, argv: ['hermes', 'chat'], at});
}

export function finishTask(store: BatchStore, id: string, status: TaskStatus, options: {startedAt: number; finishedAt: number; exitCode?: number | null; signal?: string | null; error?: string; sessionId?: string; spend?: Spend | null; answer?: string}): TaskResult {
	const task = store.getState().tasks[id]!;
	const result: TaskResult = {
		id,
		name: null,
		goal: task.goal,
		model: task.model,
		route: {name: task.routeName, kind: task.routeKind, provider: task.provider, model: task.model, reasoning_effort: task.reasoningEffort, service_tier: null, profile: task.profile, refused: false, reason: task.reason},
		status,
		success: status === 'succeeded',
		exit_code: options.exitCode ?? null,
		signal: options.signal ?? null,
		started_at: new Date(options.startedAt).toISOString(),
		finished_at: new Date(options.finishedAt).toISOString(),
		duration_ms: options.finishedAt - options.startedAt,
		result: options.answer ?? '',
		answer: options.answer ?? '',
		session_id: options.sessionId ?? null,
		hermes_version: null,
		tokens: null,
		model_used: null,
		tool_calls: [],
		...(options.error === undefined ? {} : {error: options.error}),
		...(options.spend === undefined ? {} : {spend: options.spend}),
		log: null,
	};
	store.getState().applyEvent({type: 'task.finished', id, result, at: options.finishedAt});
	return result;
}

export function finishBatch(store: BatchStore, at: number): void {
	const report: BatchReport = {summary: 'done', run_id: 'run-test', run_dir: '/tmp/run-test', results_file: '/tmp/run-test/results.json', mode: 'model_map', interrupted: false, hermes: testHermes, warnings: [], results: []};
	store.getState().applyEvent({type: 'batch.finished', report, at});
}

/** Counts lines the way a terminal shows a frame. */
export function lineCount(frame: string): number {
	return frame.split('\n').length;
}

/** The `hermes` part of a report, for tests that build reports by hand. */
export const testHermes: BatchReport['hermes'] = {
	bin: '/usr/bin/hermes',
	version: '0.20.0',
	probed: true,
	output: 'quiet',
	flags: {quiet: true, reasoning: true, streamJson: false, queryFile: false, runBudget: false, maxTurns: true, toolsets: true, skills: true, worktree: true, source: true, provider: true},
};
