// `hermes-delegate run`: headless. Plans the whole batch, runs it, prints JSON.
import {hermesSummary} from '../core/hermes/probe.js';
import {buildLaunch} from '../core/hermes/launcher.js';
import {exitCodeOf, resultRoute} from '../core/run/results.js';
import type {BatchEvent, BatchReport} from '../core/types.js';
import type {BatchRunner} from '../core/run/runner.js';
import {createRunner, prepareBatch, withCleanup, type PreparedBatch} from './prepare.js';
import type {RunOptions} from './flags.js';
import {guardOutput, type CommandIO, type Output} from './io.js';
import {natsTargetOf} from './nats-target.js';
import type {Remote} from './remote.js';
import {dryRunTable} from './dry-run-table.js';
import {startProgressLine} from './progress.js';
import {onShutdownSignals} from './signals.js';
import {allWarnings} from '../core/plan/routing.js';
import {BatchSteering} from '../core/config/steering.js';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';

export async function runCommand(taskArg: string | undefined, options: RunOptions, io: CommandIO): Promise<number> {
	const target = natsTargetOf(options, io.env);
	if (target === undefined) return runBatch(taskArg, options, io, undefined);
	// The NATS client is loaded only for a batch that goes to worker hosts (nats-target.ts).
	const {openRemote} = await import('./remote.js');
	const stderr = guardOutput(io.stderr, undefined, terminalSafe);
	const remote = await openRemote(target, 'hermes-delegate run', line => stderr.write(`hermes-delegate: nats: ${line}\n`));
	try {
		return await runBatch(taskArg, options, io, remote);
	} finally {
		await remote.close();
	}
}

async function runBatch(taskArg: string | undefined, options: RunOptions, io: CommandIO, remote: Remote | undefined): Promise<number> {
	let onStdoutClosed: ((why: string) => void) | undefined;
	const stdout = guardOutput(io.stdout, why => onStdoutClosed?.(why));
	// Every message may quote a task file, a config or a subagent: made safe where it is written.
	const stderr = guardOutput(io.stderr, undefined, terminalSafe);
	const batch = await prepareBatch(taskArg, options, {...io, demoRunawaySeconds: 8}, remote?.planning);
	// A binary that is not there comes first: the route warnings would speak of a Hermes nobody
	// could probe (its flags assumed). Without --dry-run it is the error (resolveBin throws it).
	if (!batch.bin.ok) {
		if (!options.dryRun) batch.resolveBin();
		stderr.write(`hermes-delegate: warning: ${batch.bin.problem}\n`);
	}

	for (const warning of allWarnings(batch.plan)) {
		stderr.write(`hermes-delegate: warning: ${warning}\n`);
	}

	if (options.dryRun) {
		// A person at a terminal reads a table; a pipe or --json gets the JSON scripts parse.
		if (io.stdout.isTTY && !options.json) {
			stdout.write(`${batch.plan.mode} · concurrency ${batch.concurrency} · ${batch.plan.tasks.length} task${batch.plan.tasks.length === 1 ? '' : 's'} (--json for the launch argv)\n${dryRunTable(batch.plan.tasks, io.stdout.columns ?? 120)}`);
		} else {
			printDryRun(batch, stdout);
		}

		return 0;
	}

	// Signals are ours before the run folder exists: one arriving after it was made but before a
	// handler was in place would kill us and leave the folder empty. Handlers run on the event
	// loop, so `runner` is set by the time one does; the runner turns it into a clean stop.
	let runner: BatchRunner | undefined;
	// After stdout closed a shutdown is already under way, so any signal means "now".
	const stopSignals = onShutdownSignals(({skipGrace}) => runner?.shutdown({skipGrace: skipGrace || stdout.closed}));
	// Headless: nobody watches, so output is only logged and kept for the result.
	const created = withCleanup(() => createRunner(batch, {display: false, executor: remote?.executorFor(batch)}), stopSignals);
	runner = created.runner;
	const {folder} = created;
	// The reader went away (`run --jsonl | head -n 1`): nobody reads what the batch prints any
	// more, so it is stopped as on Ctrl-C, and its results are still written to results.json.
	onStdoutClosed = why => {
		stderr.write(`hermes-delegate: stdout was closed (${why}): stopping every task; results in ${folder.resultsPath}\n`);
		runner?.shutdown();
	};

	// Someone changing the routes in config.yaml while the batch runs re-plans the queue
	// (batch.replanned in --jsonl), as a change made from the dashboard does.
	const stopWatching = new BatchSteering(batch.config, {runDir: folder.dir, applyRouting: delegation => runner!.applyRouting(delegation)})
		.watch(outcome => stderr.write(`hermes-delegate: ${outcome.message}\n`));
	const progress = io.stderr.isTTY && !options.jsonl ? startProgressLine(io.stderr, batch.plan.tasks.length, {color: io.color}) : undefined;
	runner.subscribe(event => {
		progress?.onEvent(event);
		if (options.jsonl) {
			stdout.write(`${jsonText(jsonlEvent(event))}\n`);
		}
	});
	try {
		const report = await runner.start();
		onStdoutClosed = undefined;
		progress?.stop();
		return printReport(report, {jsonl: options.jsonl ?? false}, {stdout, stderr});
	} finally {
		stopWatching();
		progress?.stop();
		stopSignals();
	}
}

/**
 * The end of `run` (and of `wait`, which must print exactly the same): the results JSON on stdout
 * (with --jsonl the events said it all), the summary on stderr, and the exit code scripts check.
 */
export function printReport(report: BatchReport, options: {jsonl: boolean}, out: {stdout: Output; stderr: Output}): number {
	if (!options.jsonl) {
		out.stdout.write(`${jsonText(report, 2)}\n`);
	}

	out.stderr.write(`hermes-delegate: ${report.summary}; ${report.results_error ?? `results in ${report.results_file}`}\n`);
	return exitCodeOf(report);
}

function printDryRun(batch: PreparedBatch, stdout: Output): void {
	const {bin, capabilities} = batch;
	stdout.write(`${jsonText({
		mode: batch.plan.mode,
		concurrency: batch.concurrency,
		hermes_bin: bin,
		hermes: hermesSummary(capabilities),
		warnings: batch.plan.warnings,
		tasks: batch.plan.tasks.map(task => ({
			id: task.id,
			name: task.spec.name ?? null,
			goal: task.spec.goal,
			characteristic: task.characteristic ?? null,
			route: resultRoute(task),
			warnings: task.warnings,
			argv: task.decision.refused ? null : (({file, args}) => [file, ...args])(buildLaunch(task, bin.path, {
				capabilities,
				promptFile: task.launch.prompt_file ? `<run folder>/prompts/${task.id}.txt` : undefined,
				batchTimeoutMs: batch.timeoutMs,
			})),
		})),
	}, 2)}\n`);
}

/** The plan events are large and internal; scripts get a compact form of them. */
export function jsonlEvent(event: BatchEvent): unknown {
	if (event.type === 'batch.planned') {
		return {type: event.type, run_id: event.runId, run_dir: event.runDir, mode: event.plan.mode, tasks: event.plan.tasks.map(task => ({id: task.id, goal: task.spec.goal, route: resultRoute(task)})), at: event.at};
	}

	if (event.type === 'task.requeued') {
		return {type: event.type, id: event.id, attempt: event.attempt, route: resultRoute(event.plan), at: event.at};
	}

	if (event.type === 'batch.replanned') {
		return {type: event.type, mode: event.mode, tasks: event.tasks.map(({id, plan}) => ({id, goal: plan.spec.goal, route: resultRoute(plan)})), warnings: event.warnings, at: event.at};
	}

	return event;
}
