// Everything `run` and `tui` share before the first process starts: settings, task input,
// Hermes config, the routing plan and the binary. Any problem here is an InputError (exit 2)
// and nothing has been started.
import {loadHermesConfig, defaultConfigPath, type LoadedConfig} from '../core/config/config.js';
import {createDemoHome, demoTasks} from '../core/input/demo.js';
import {InputError} from '../core/errors.js';
import {sessionCapReader} from '../core/hermes/session-cap.js';
import {checkHomeConfigs} from '../core/config/home-configs.js';
import {resolveHermesHome} from '../core/hermes/home.js';
import {defaultCachePath, probeHermes, unprobed} from '../core/hermes/probe.js';
import {fitConcurrencyToOpenFiles} from '../core/process/open-files.js';
import {requestedHermesBin, resolveHermesBin} from '../core/hermes/launcher.js';
import {planBatch} from '../core/plan/routing.js';
import {batchConcurrency, loadSettings, parseLogLimit, settingsPath} from '../core/config/settings.js';
import {createRunFolder, type RunFolder} from '../core/run-folder/folder.js';
import {BatchRunner} from '../core/run/runner.js';
import type {TaskExecutor} from '../core/run/executor.js';
import {budgetLimits, unknownRouteBudgetWarnings, unpricedWarnings, type BudgetLimit} from '../core/run/budgets.js';
import {parseTasks} from '../core/input/tasks.js';
import {decodeUtf8, inputLimits, readBoundedFile} from '../core/text/read-text.js';
import {safeExcerpt} from '../core/output/visible-text.js';
import {fakeAgentPath} from '../package-files.js';
import type {DelegateSettings, HermesCapabilities, RoutePlan, TaskSpec} from '../core/types.js';
import {parseNumber, type BatchOptions} from './flags.js';
import type {PrepareContext} from './io.js';
import {errnoCode, messageOf} from '../core/errors.js';

export type PreparedBatch = {
	hermesHome: string;
	settings: DelegateSettings;
	config: LoadedConfig;
	tasks: TaskSpec[];
	plan: RoutePlan;
	/** The plan's warnings that did not come from planning (the config's, the open-files limit's): a re-plan keeps them. */
	outsideWarnings: string[];
	concurrency: number;
	graceMs: number;
	timeoutMs: number | undefined;
	failFast: boolean;
	/** Most bytes one task's log keeps; 0 = no limit. */
	logLimitBytes: number;
	/** --budget-usd/--budget-tokens and delegate.yaml's per-route budgets. */
	budgets: BudgetLimit[];
	/** --stuck-timeout in ms: a task quiet this long is stopped (timed_out). */
	stuckTimeoutMs: number | undefined;
	/** The whole environment of the subagents (the demo points them at its own HERMES_HOME). */
	env: NodeJS.ProcessEnv;
	/** The binary as asked for (a name to find on PATH, or a path), before it is checked. */
	requestedBin: string;
	/** The binary, found and usable, or why not (a dry run reports it; a real run stops on it). */
	bin: BinCheck;
	/** What that binary can do; the plan was made against it. */
	capabilities: HermesCapabilities;
	/** The checked, absolute binary; an InputError when it is missing or not executable. */
	resolveBin(): string;
};

export type BinCheck = {path: string; ok: true} | {path: string; ok: false; problem: string};

/** How a batch for worker hosts is planned: their Hermes, their slots, and the tasks none of them can run refused. */
export type RemotePlanning = {capabilities: HermesCapabilities; slots: number; refuseUnfit: (plan: RoutePlan) => RoutePlan};

/**
 * remote: the batch runs on worker hosts (`run --nats`): it is planned against what their Hermes
 * can do, and no local binary is needed.
 */
export async function prepareBatch(taskArg: string | undefined, options: BatchOptions, context: PrepareContext, remote?: RemotePlanning): Promise<PreparedBatch> {
	const demo = options.demo ? createDemoHome(context.env) : undefined;
	const hermesHome = demo?.hermesHome ?? resolveHermesHome(context.env);
	const settings = loadSettings(settingsPath(hermesHome));
	const tasks = demo && taskArg === undefined
		? demoTasks({runawayTimeoutSeconds: context.demoRunawaySeconds})
		: await readTasks(taskArg, context);
	const config = loadHermesConfig({configPath: options.config ?? demo?.configPath ?? defaultConfigPath(hermesHome), hermesHome, explicit: options.config !== undefined});
	// Every flag is checked before the binary is asked anything: bad input runs nothing at all.
	const sequential = options.sequential ?? context.env['HERMES_ORCHESTRATOR_MODE'] === 'sequential';
	const requested = options.concurrency === undefined
		? (sequential ? 1 : remote?.slots ?? batchConcurrency(settings, config.delegation.builtin.max_concurrent_children))
		: (options.sequential ? 1 : parseNumber(options.concurrency, '--concurrency', {integer: true, min: 1}));
	const graceSeconds = options.grace === undefined ? settings.graceSeconds : parseNumber(options.grace, '--grace', {min: 0});
	const timeout = options.timeout === undefined ? undefined : parseNumber(options.timeout, '--timeout', {min: 0, exclusiveMin: true});
	const budgetUsd = options.budgetUsd === undefined ? undefined : parseNumber(options.budgetUsd, '--budget-usd', {min: 0, exclusiveMin: true});
	const budgetTokens = options.budgetTokens === undefined ? undefined : parseNumber(options.budgetTokens, '--budget-tokens', {integer: true, min: 1});
	const stuckTimeout = options.stuckTimeout === undefined ? undefined : parseNumber(options.stuckTimeout, '--stuck-timeout', {min: 0, exclusiveMin: true});
	const logLimit = options.logLimit === undefined ? settings.logLimitBytes : parseLogLimit(options.logLimit);
	if (typeof logLimit !== 'number') {
		throw new InputError(`--log-limit: ${logLimit.problem}`, {}, logLimit.fix);
	}

	const env = demo ? {...context.env, HERMES_HOME: demo.hermesHome} : {...context.env};
	const useFake = demo !== undefined && !options.hermesBin;
	const resolveBin = () => remote ? remote.capabilities.bin : useFake ? fakeAgentPath : resolveHermesBin(options.hermesBin, context.env);
	const requestedBin = remote ? remote.capabilities.bin : useFake ? fakeAgentPath : requestedHermesBin(options.hermesBin, context.env);
	const bin = checkBin(resolveBin, requestedBin);
	// The flags differ between Hermes releases: the plan (what is passed, what is refused) is made
	// against the binary that will run it.
	const capabilities = remote?.capabilities ?? (bin.ok
		? await probeHermes(bin.path, {env, cachePath: defaultCachePath(context.env)})
		: unprobed(requestedBin, bin.problem));
	const planned = planBatch({tasks, delegation: config.delegation, settings, capabilities});
	const plan = remote ? remote.refuseUnfit(planned) : planned;
	// The homes the tasks run in here (a worker host's are its own): Hermes must read each as written.
	if (!remote) checkHomeConfigs(hermesHome, plan.tasks.filter(task => !task.decision.refused).map(task => task.effective.profile ?? 'default'), config.delegation.source.path);
	const outsideWarnings = [...config.warnings];
	plan.warnings.unshift(...config.warnings);

	const refused = plan.tasks.filter(task => task.decision.refused);
	if (options.strict && refused.length > 0) {
		throw new InputError(
			`--strict: ${refused.length} task${refused.length > 1 ? 's' : ''} refused, so nothing was started:\n${refused.map(task => `  task ${task.id} (${safeExcerpt(task.spec.name ?? task.spec.goal, 40)}): ${task.decision.reason}`).join('\n')}`,
			{},
			'fix the route names in the tasks, or run without --strict to run the others',
		);
	}

	// Fewer at once, with a warning, rather than a batch that crashes on EMFILE.
	const {concurrency, warning: openFilesWarning} = fitConcurrencyToOpenFiles(requested, plan.tasks.filter(task => !task.decision.refused).length);
	if (openFilesWarning) {
		plan.warnings.push(openFilesWarning);
		outsideWarnings.push(openFilesWarning);
	}

	const budgets = budgetLimits({usd: budgetUsd, tokens: budgetTokens, routeBudgets: settings.routeBudgets, action: settings.budgetAction});
	// Said before anything starts, and kept by a re-plan like the config's warnings.
	const unpriced = [...unknownRouteBudgetWarnings(budgets, config.delegation, settingsPath(hermesHome)), ...unpricedWarnings(budgets, plan.tasks)];
	plan.warnings.push(...unpriced);
	outsideWarnings.push(...unpriced);

	return {
		hermesHome,
		settings,
		config,
		tasks,
		plan,
		outsideWarnings,
		concurrency,
		graceMs: Math.round(graceSeconds * 1000),
		timeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
		failFast: options.failFast ?? false,
		logLimitBytes: logLimit,
		budgets,
		stuckTimeoutMs: stuckTimeout === undefined ? undefined : Math.round(stuckTimeout * 1000),
		env,
		requestedBin,
		bin,
		capabilities,
		resolveBin,
	};
}

function checkBin(resolve: () => string, requested: string): BinCheck {
	try {
		return {path: resolve(), ok: true};
	} catch (error) {
		if (!(error instanceof InputError)) {
			throw error;
		}

		return {path: requested, ok: false, problem: error.fix ? `${error.message}; fix: ${error.fix}` : error.message};
	}
}

/** Runs `make`; if it throws, `cleanup` runs before the error goes on. */
export function withCleanup<T>(make: () => T, cleanup: () => void): T {
	try {
		return make();
	} catch (error) {
		cleanup();
		throw error;
	}
}

/** The last step before processes start: the binary is checked, the run folder made. */
export function createRunner(batch: PreparedBatch, options: {display: boolean; retryAfterFinish?: boolean; agentNice?: number; executor?: (folder: RunFolder) => TaskExecutor}): {runner: BatchRunner; folder: RunFolder} {
	const hermesBin = batch.resolveBin();
	const folder = createRunFolder(batch.hermesHome);
	const runner = new BatchRunner(batch.plan, {
		hermesBin,
		capabilities: batch.capabilities,
		folder,
		concurrency: batch.concurrency,
		graceMs: batch.graceMs,
		timeoutMs: batch.timeoutMs,
		failFast: batch.failFast,
		env: batch.env,
		display: options.display,
		retryAfterFinish: options.retryAfterFinish,
		agentNice: options.agentNice,
		logLimitBytes: batch.logLimitBytes,
		budgets: batch.budgets,
		concurrencyPerProvider: batch.settings.concurrencyPerProvider,
		// Hermes refuses a session over its home's max_concurrent_sessions: never start more than that.
		sessionCaps: sessionCapReader(batch.hermesHome),
		stuckAfterMs: batch.settings.stuckAfterMs,
		stuckTimeoutMs: batch.stuckTimeoutMs,
		routing: {settings: batch.settings, outsideWarnings: batch.outsideWarnings},
		executor: options.executor?.(folder),
	});
	return {runner, folder};
}

async function readTasks(taskArg: string | undefined, context: PrepareContext) {
	if (taskArg === undefined && context.stdinIsTTY) {
		throw new InputError('no tasks given', {}, 'pass a tasks file, `-` for stdin, or inline JSON: hermes-delegate run \'[{"goal":"..."}]\' (or try --demo)');
	}

	if (taskArg === undefined || taskArg === '-') {
		return parseTasks(await context.readStdin(), {label: '<stdin>'});
	}

	const trimmed = taskArg.trimStart();
	if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
		return parseTasks(taskArg, {label: '<inline>'});
	}

	let bytes: Buffer;
	try {
		bytes = readBoundedFile(taskArg, inputLimits.tasks);
	} catch (error) {
		if (error instanceof InputError) throw error;
		const code = errnoCode(error);
		throw new InputError(
			code === 'ENOENT' ? 'no such tasks file' : code === 'EISDIR' ? 'is a directory, not a tasks file' : `cannot read tasks file: ${messageOf(error)}`,
			{file: taskArg},
			'give a path to a JSON/YAML tasks file, `-` for stdin, or inline JSON starting with [',
		);
	}

	return parseTasks(decodeUtf8(bytes, taskArg), {label: taskArg});
}
