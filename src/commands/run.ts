// `hermes-delegate run`: headless. Plans the whole batch, runs it, prints JSON.
import {exitCodeOf} from '../core/results.js';
import {buildLaunch} from '../core/launcher.js';
import {resultRoute} from '../core/results.js';
import type {BatchEvent} from '../core/types.js';
import {createRunner, prepareBatch, type BatchOptions, type PrepareContext} from './prepare.js';
import {startProgressLine} from './progress.js';
import {onShutdownSignals} from './signals.js';

export type RunOptions = BatchOptions & {dryRun?: boolean; jsonl?: boolean};

export type CommandIO = PrepareContext & {
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	color: boolean;
};

export async function runCommand(taskArg: string | undefined, options: RunOptions, io: CommandIO): Promise<number> {
	const batch = await prepareBatch(taskArg, options, {...io, demoRunawaySeconds: 8});
	for (const warning of batch.plan.warnings) {
		io.stderr.write(`hermes-delegate: warning: ${warning}\n`);
	}

	if (options.dryRun) {
		const bin = safeBin(batch.resolveBin);
		io.stdout.write(`${JSON.stringify({
			mode: batch.plan.mode,
			concurrency: batch.concurrency,
			warnings: batch.plan.warnings,
			tasks: batch.plan.tasks.map(task => ({
				id: task.id,
				name: task.spec.name ?? null,
				goal: task.spec.goal,
				characteristic: task.characteristic ?? null,
				route: resultRoute(task),
				warnings: task.warnings,
				argv: task.decision.refused ? null : (({file, args}) => [file, ...args])(buildLaunch(task, bin)),
			})),
		}, null, 2)}\n`);
		return 0;
	}

	// Headless: nobody watches, so output is only logged and kept for the result.
	const {runner} = createRunner(batch, {display: false});

	const progress = io.stderr.isTTY && !options.jsonl ? startProgressLine(io.stderr, batch.plan.tasks.length, {color: io.color}) : undefined;
	runner.subscribe(event => {
		progress?.onEvent(event);
		if (options.jsonl) {
			io.stdout.write(`${JSON.stringify(jsonlEvent(event))}\n`);
		}
	});
	const stopSignals = onShutdownSignals(shutdown => runner.shutdown(shutdown));
	try {
		const report = await runner.start();
		progress?.stop();
		if (!options.jsonl) {
			io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
		}

		io.stderr.write(`hermes-delegate: ${report.summary}; results in ${report.results_file}\n`);
		return exitCodeOf(report);
	} finally {
		progress?.stop();
		stopSignals();
	}
}

/** The plan event is large and internal; scripts get a compact form of it. */
function jsonlEvent(event: BatchEvent): unknown {
	if (event.type === 'batch.planned') {
		return {type: event.type, run_id: event.runId, run_dir: event.runDir, mode: event.plan.mode, tasks: event.plan.tasks.map(task => ({id: task.id, goal: task.spec.goal, route: resultRoute(task)})), at: event.at};
	}

	return event;
}

function safeBin(resolve: () => string): string {
	try {
		return resolve();
	} catch {
		return 'hermes';
	}
}
