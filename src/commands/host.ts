// The hidden `__host` command: the runner host process (client/launch.ts says how it is started and
// why it prepares the batch itself). Prepares the batch exactly as `run` and `tui` do, tells the
// foreground `ready` or `refused`, then serves the batch until it has ended (host/main.ts).
import {BatchSteering} from '../core/config/steering.js';
import {InputError, exitCodes} from '../core/errors.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {allWarnings} from '../core/plan/routing.js';
import {exitCodeOf} from '../core/run/results.js';
import type {BatchRunner} from '../core/run/runner.js';
import path from 'node:path';
import {firstClientGraceFrom, openHostLog, socketName, startHost, type RunningHost} from '../host/main.js';
import {hostSpecSchema, type HostSpec} from '../wire/launch.js';
import {tellLauncher} from '../host/launcher-pipe.js';
import {specCame, StartClock} from '../host/start-clock.js';
import {loadTheme} from '../core/theme/themes.js';
import {runnerControl} from '../host/control.js';
import {resolveBindings} from '../ui/keys/keys.js';
import {agentNiceOption} from './flags.js';
import {readAll} from './io.js';
import {createRunner, prepareBatch, withCleanup} from './prepare.js';
import {natsTargetOf} from './nats-target.js';
import type {Remote} from './remote.js';
import {onShutdownSignals} from './signals.js';

export async function hostCommand(io: {env: NodeJS.ProcessEnv; stdin: NodeJS.ReadableStream; loadedAt?: number}): Promise<number> {
	const clock = new StartClock();
	clock.mark('node and modules', io.loadedAt);
	let runner: BatchRunner | undefined;
	let host: RunningHost | undefined;
	// Ours before the run folder exists, as in `run`: the handler finds the runner once there is one.
	// Before that (the foreground passed on a Ctrl-C while the batch was prepared) nothing starts.
	// A second signal skips the grace period (signals.ts).
	let interruptedEarly = false;
	const stopSignals = onShutdownSignals(options => {
		interruptedEarly ||= runner === undefined;
		runner?.shutdown(options);
		host?.stop();
	});
	// Whatever crashes the host is written down where the operator will look: its stderr is /dev/null.
	let log = (_line: string) => undefined as void;
	process.on('uncaughtExceptionMonitor', error => {
		log(`internal error: ${error.stack ?? error.message}`);
	});
	let spec: HostSpec;
	let prepared;
	// Tasks on worker hosts (--nats or delegate.yaml's executor): NATS and the fleet, before planning.
	let remote: Remote | undefined;
	try {
		const specText = await readAll(io.stdin);
		// A host started ahead of its batch (client/launch.ts) whose launcher ended, or discarded it,
		// before it had a batch to give: nothing was asked, so nothing is done and nothing is said.
		if (specText === '') {
			stopSignals();
			return exitCodes.ok;
		}

		const parsed = hostSpecSchema.safeParse(JSON.parse(specText));
		if (!parsed.success) throw new Error(`the runner host was started with a spec it cannot read: ${parsed.error.message}`);
		spec = {...parsed.data, taskArg: parsed.data.taskArg, origin: parsed.data.origin};
		clock.mark(specCame);
		const dashboard = spec.command !== 'run';
		const agentNice = dashboard ? agentNiceOption(stringOption(spec.options['agentNice'])) : undefined;
		const options = {...spec.options, demo: spec.command === 'demo' || spec.options['demo'] === true};
		const target = natsTargetOf(options, io.env);
		// The NATS client is loaded only for a batch that goes to worker hosts (nats-target.ts).
		remote = target && await (await import('./remote.js')).openRemote(target, 'hermes-delegate runner host', line => log(`nats: ${line}`));
		const batch = await prepareBatch(spec.taskArg, options, {
			env: io.env,
			stdinIsTTY: spec.stdinIsTTY,
			readStdin: async () => spec.stdin ?? '',
			// As `run --demo` does: a headless demo's runaway stops by itself.
			demoRunawaySeconds: dashboard ? undefined : 8,
		}, remote?.planning);
		clock.mark('batch prepared');
		if (dashboard) {
			// The dashboard's theme and keys are checked here, where delegate.yaml is read: a bad one
			// is bad input, refused before anything starts, as before the host.
			loadTheme(stringOption(spec.options['theme']) ?? batch.settings.theme, {noColor: !spec.color});
			resolveBindings(batch.settings.keys);
		}

		if (interruptedEarly) {
			stopSignals();
			await remote?.close();
			tellLauncher({type: 'refused', message: '', exitCode: exitCodes.interrupted});
			return exitCodes.interrupted;
		}

		const warnings = [...(batch.bin.ok ? [] : [batch.bin.problem]), ...allWarnings(batch.plan)];
		// The dashboard's batch stays steerable after its last task: R there re-opens it.
		// Display on even for `run --detach`: any client may attach later and must see the panes'
		// tails in its snapshot (decoding is lazy, so nobody attached costs little).
		const created = withCleanup(() => createRunner(batch, {display: true, retryAfterFinish: dashboard, agentNice, executor: remote?.executorFor(batch, true)}), stopSignals);
		clock.mark('run folder');
		prepared = {batch, created, warnings, dashboard};
	} catch (error) {
		stopSignals();
		await remote?.close();
		tellLauncher(refusal(error));
		return error instanceof InputError ? exitCodes.usage : exitCodes.internalError;
	}

	const {batch, created, warnings, dashboard} = prepared;
	runner = created.runner;
	const {folder} = created;
	log = openHostLog(folder.dir);
	log(`runner host for ${spec.command}${spec.origin === undefined ? '' : ` (started by ${spec.origin} through MCP)`}: ${batch.plan.tasks.length} task(s), concurrency ${batch.concurrency}${remote ? `, on ${remote.fleet.live().length} worker host(s) through NATS` : ''}`);
	const steering = new BatchSteering(batch.config, {runDir: folder.dir, applyRouting: delegation => created.runner.applyRouting(delegation)});
	try {
		host = await startHost({
			runner: created.runner,
			control: runnerControl(created.runner, steering),
			plan: batch.plan,
			runId: folder.runId,
			runDir: folder.dir,
			concurrency: batch.concurrency,
			graceMs: batch.graceMs,
			canSteer: true,
			canReroute: true,
			origin: spec.origin,
			watchConfig: listener => steering.watch(outcome => {
				log(`config.yaml changed: ${outcome.message}`);
				listener(outcome);
			}),
		}, created.runner, {mode: dashboard ? 'dashboard' : 'headless', log, firstClientGraceMs: firstClientGraceFrom(io.env), origin: spec.origin, planned: () => {
			clock.mark('socket and plan.json');
			log(clock.describe());
			tellLauncher({type: 'ready', runId: folder.runId, runDir: folder.dir, socket: path.join(folder.dir, socketName), hermesHome: batch.hermesHome, warnings, theme: batch.settings.theme ?? null, keys: batch.settings.keys});
		}});
	} catch (error) {
		// No socket, or no plan on disk: nobody could ever see or stop the batch. Nothing has started.
		stopSignals();
		await remote?.close();
		tellLauncher(refusal(error));
		return error instanceof InputError ? exitCodes.usage : exitCodes.internalError;
	}

	try {
		// host.done has written the host's last line: nothing more goes into the run folder.
		return exitCodeOf(await host.done);
	} catch (error) {
		log(`internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
		return exitCodes.internalError;
	} finally {
		stopSignals();
		await remote?.close();
	}
}

function stringOption(value: string | boolean | undefined): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/** Today's message for what stopped the batch before it started (cli.ts's report), for the foreground to print. */
function refusal(error: unknown): {type: 'refused'; message: string; exitCode: number} {
	if (error instanceof InputError) {
		return {type: 'refused', message: `hermes-delegate: ${terminalSafe(error.describe())}\n`, exitCode: exitCodes.usage};
	}

	return {type: 'refused', message: `hermes-delegate: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`, exitCode: exitCodes.internalError};
}
