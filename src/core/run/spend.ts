// Spend in the results (docs/spend.md): each attempt's session row is read from the state.db of the
// home it ran in when the attempt has ended, and the batch report sums them per route, per model
// and for the batch. A database that cannot be read leaves spend unknown and is said once per
// batch (per file and kind of problem), never thrown into the batch.
import {resolveHermesHome} from '../hermes/home.js';
import {promptOf} from '../hermes/flags.js';
import {findSession, readSession, spendOf, stateDbPath, unknownSpend} from '../hermes/state-db/sessions.js';
import {routeKey} from './results.js';
import {sumSpend} from './spend-sum.js';
import type {PlannedTask, Spend, SpendTotals, TaskResult, TokenCounts} from '../types.js';

/** The state.db an attempt of `task` writes its session to: its profile's home, else the root home. */
export function attemptStateDb(task: PlannedTask, env: NodeJS.ProcessEnv): string {
	const route = task.decision.route;
	return stateDbPath(resolveHermesHome(env), route?.kind === 'profile' ? route.name : 'default');
}

/** Reads the spend of attempts as they end; remembers which problems it has already warned of. */
export class SpendReader {
	private readonly warned = new Set<string>();
	private readonly problems: string[] = [];

	/** sourceTool: the runs were started with --source tool (Hermes tags their rows so). */
	constructor(private readonly env: NodeJS.ProcessEnv, private readonly sourceTool: boolean) {}

	/** The batch-level warnings so far, each problem once. */
	warnings(): string[] {
		return [...this.problems];
	}

	/**
	 * The result with `spend` (and a warning when stream-json's tokens disagree with the row). An
	 * attempt that never started has no session: spend null. The session is the one the output
	 * named; without one (text mode prints it only in its footer) the row is looked for by its
	 * prompt and start time.
	 */
	attach(task: PlannedTask, result: TaskResult): TaskResult {
		if (result.started_at === null) return {...result, spend: null};
		const spend = this.attempt(task, {startedAt: result.started_at, sessionId: result.session_id});
		const mismatch = tokenMismatch(result.tokens, spend);
		return {...result, spend, ...(mismatch ? {warnings: [...(result.warnings ?? []), mismatch]} : {})};
	}

	/** One attempt's spend as its row stands now: the session named, else the row found by prompt and start (ISO time). */
	attempt(task: PlannedTask, {startedAt, sessionId: named}: {startedAt: string; sessionId: string | null}): Spend {
		const dbPath = attemptStateDb(task, this.env);
		let sessionId = named;
		if (sessionId === null) {
			const found = findSession(dbPath, {startedAfter: Date.parse(startedAt), prompt: promptOf(task.spec), source: this.sourceTool ? 'tool' : undefined});
			if (found.kind === 'problem') return this.unknown(found.problem.kind, found.problem.message);
			if (found.kind !== 'found') return unknownSpend;
			sessionId = found.sessionId;
		}

		const read = readSession(dbPath, sessionId);
		if (read.kind === 'problem') return this.unknown(read.problem.kind, read.problem.message);
		return read.kind === 'row' ? spendOf(read.row) : unknownSpend;
	}

	private unknown(kind: string, message: string): Spend {
		// A missing file is told apart by path: one per home; the message itself holds the path.
		if (!this.warned.has(`${kind}:${message}`)) {
			this.warned.add(`${kind}:${message}`);
			this.problems.push(`spend unknown: ${message}`);
		}

		return unknownSpend;
	}
}

/** stream-json's `result.tokens` against the row: both Hermes's, so a difference is worth a word. */
function tokenMismatch(tokens: TokenCounts | null, spend: Spend): string | undefined {
	if (tokens === null || spend.input_tokens === null || spend.output_tokens === null) return undefined;
	if (tokens.input === spend.input_tokens && tokens.output === spend.output_tokens) return undefined;
	return `the tokens Hermes reported on stream-json (${tokens.input} in, ${tokens.output} out) differ from its session row in state.db (${spend.input_tokens} in, ${spend.output_tokens} out); spend uses the row`;
}

/**
 * Every attempt that started counts (a re-routed one on the route it ran on); attempts that never
 * started spent nothing and are left out. Summed by spend-sum.ts, as the dashboard sums.
 */
export function spendTotals(results: readonly TaskResult[]): SpendTotals {
	const attempts = results.flatMap(result => [...(result.earlier_attempts ?? []), result]).filter(result => result.started_at !== null);
	return sumSpend(attempts.map(result => ({route: routeKey(result), model: result.model, spend: result.spend ?? null})));
}
