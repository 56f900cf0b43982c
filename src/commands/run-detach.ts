// `run --detach`: the headless batch under a runner host of its own; prints the run id (stdout)
// as soon as the host has it, and leaves. `wait RUN` prints its results later, exactly as `run`
// would have, and `attach RUN` shows it in the dashboard.
import {InputError} from '../core/errors.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {attachCommandFor} from '../client/live-runs.js';
import type {RunOptions} from './flags.js';
import type {CommandIO} from './io.js';
import {startUnderHost} from './start-host.js';

export async function runDetached(taskArg: string | undefined, options: RunOptions, io: CommandIO): Promise<number> {
	for (const flag of ['dryRun', 'jsonl', 'json'] as const) {
		if (options[flag]) {
			const name = {dryRun: '--dry-run', jsonl: '--jsonl', json: '--json'}[flag];
			throw new InputError(`--detach and ${name} do not go together`, {}, flag === 'jsonl' ? 'start with `run --detach`, then follow it with `hermes-delegate wait RUN --jsonl`' : 'leave out --detach to see the plan');
		}
	}

	const {detach: _detach, ...hostOptions} = options;
	const started = await startUnderHost('run', taskArg, hostOptions, io);
	if (!('ready' in started)) return started.exitCode;
	const {ready} = started;
	for (const warning of ready.warnings) {
		io.stderr.write(`hermes-delegate: warning: ${terminalSafe(warning)}\n`);
	}

	io.stdout.write(`${ready.runId}\n`);
	io.stderr.write(terminalSafe(`hermes-delegate: run ${ready.runId} runs under a runner host (${ready.runDir}): \`hermes-delegate wait ${ready.runId}\` prints its results, \`${attachCommandFor(ready.runId)}\` shows it\n`));
	return 0;
}
