#!/usr/bin/env node
// argv → command. The only place that calls process.exit, and the only place that turns an
// error into an exit code: 2 for bad input (nothing started), 70 for a crash of our own.
// Started by bin.ts once it has checked the Node version.
// Past ~300 lines because it is the one list of commands and their options (commander's program),
// which a reader and `--help` both want in one place; what each command does is in commands/.
import {readFileSync} from 'node:fs';
import {Argument, Command, CommanderError, Option} from 'commander';
import {gcCommand, warnAboutOrphans} from './commands/gc.js';
import {addRouteOptions, attachOptions, cancelOptions, configOptions, mcpOptions, setupOptions, doctorOptions, gcOptions, logsOptions, lsOptions, optionsOf, spendOptions, removeRouteOptions, routeEditOptions, runOptions, tuiOptions, waitOptions, workerOptions} from './commands/flags.js';
import {addHelp, refuseUnknownSubcommand} from './commands/help.js';
import {endQuietlyWhenClosed, flushed, readAll, type CommandIO} from './commands/io.js';
import {errnoCode, exitCodes, InputError} from './core/errors.js';
import {killUnfinishedGroupsNow} from './core/process/group.js';
import {dashboardAgentNice} from './core/process/priority.js';
import {terminalSafe} from './core/output/visible-text.js';
import {packageJsonPath} from './package-files.js';

const noColor = process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '';

const io: CommandIO & {stdin: NodeJS.ReadStream} = {
	stdout: process.stdout,
	stderr: process.stderr,
	stdin: process.stdin,
	// A copy: the subagents get the environment as it was, even where we adjust ours below.
	env: {...process.env},
	stdinIsTTY: process.stdin.isTTY ?? false,
	readStdin: async () => readAll(process.stdin),
	color: !noColor,
};

endQuietlyWhenClosed(process.stdout, process.stderr, code => process.exit(code));

function batchOptions(command: Command): Command {
	return command
		.argument('[tasks]', 'tasks: a JSON/YAML file, `-` for stdin, or inline JSON (\'[{"goal":"..."}]\'); stdin when omitted and piped')
		.option('--config <path>', 'Hermes config file (default: $HERMES_HOME/config.yaml)')
		.option('--hermes-bin <path>', 'the hermes binary (default: $HERMES_BIN, else `hermes` on PATH)')
		.option('-j, --concurrency <n>', 'tasks running at once (default: delegate.yaml, else Hermes\'s delegation.max_concurrent_children, else 3)')
		.option('--sequential', 'one task at a time (also HERMES_ORCHESTRATOR_MODE=sequential)')
		.option('--grace <seconds>', 'SIGTERM → SIGKILL grace period when stopping a task (default 5; decimals allowed)')
		.option('--timeout <seconds>', 'stop any task running longer than this (a task\'s own "timeout" wins)')
		.option('--fail-fast', 'after the first failure, cancel the other tasks')
		.option('--log-limit <size>', 'most bytes one task\'s log keeps, its first and last half, e.g. 512MB (default: delegate.yaml, else 256MiB; 0 = no limit)')
		.option('--budget-usd <usd>', 'the batch\'s budget in USD (Hermes\'s cost figures): at 80 % a warning, when reached no further task starts (queued ones end refused)')
		.option('--budget-tokens <n>', 'the batch\'s budget in tokens (input + output): as --budget-usd; delegate.yaml adds per-route budgets and budget_action')
		.option('--stuck-timeout <seconds>', 'stop a task with neither output nor tool activity for this long: the cascade, status timed_out (default: never)')
		.option('--strict', 'refuse the whole batch if any task names an unknown route');
}

/** `tui` and `demo`: the dashboard's own flags on top of the batch's. */
/** How NATS is reached, for every command that uses it; `--nats` itself is the command's own. */
function natsAuthOptions(command: Command): Command {
	return command
		.option('--nats-creds <file>', 'a NATS credentials file (.creds: JWT and NKey seed) to connect with; a password or token goes in $HERMES_DELEGATE_NATS_PASSWORD_FILE / $HERMES_DELEGATE_NATS_TOKEN_FILE, never in the URL (docs/fleet-security.md)')
		.option('--nats-tls-ca <file>', 'connect with TLS, trusting the server certificate this CA (PEM) signed')
		.option('--nats-tls-cert <file>', 'with --nats-tls-key: a client certificate (PEM), for a server that asks for one')
		.option('--nats-tls-key <file>', 'the client certificate\'s key (PEM)');
}

function dashboardOptions(command: Command): Command {
	return batchOptions(command)
		.option('--theme <name|path>', 'dashboard theme: dark, light, no-color, or a JSON file (NO_COLOR forces no-color)')
		.option('--exit-when-done', 'leave the dashboard by itself when the batch is finished')
		.option('--no-mouse', 'leave the mouse to the terminal: no click to focus, double click to zoom or wheel to scroll (also delegate.yaml `mouse: false`)')
		.option('--agent-nice <n>', `CPU niceness of the agents, so that the dashboard answers while they flood or spin (0-19; default ${dashboardAgentNice}; 0 leaves them as they are)`);
}

// Each command's module is imported by its action, never up front: a process loads only the code
// of the command it runs. The dashboard (`tui`, `attach`) is a client of the runner host, and
// with `run`'s, `config`'s and `doctor`'s modules imported here it loaded the runner, the config
// editor and state.db's native reader too, ~70 ms of CPU at every start (bench/RESULTS.md).
const configEdits = async () => import('./commands/config-edit.js');

// Ink and React take about half a second to load; `run` and `config` never need them.
async function loadTui() {
	// Ink draws no live frames when it sees CI set (checked once, at import). An operator whose
	// shell exports CI=true still has a terminal in front of them; the subagents keep the variable.
	if (process.stdout.isTTY) {
		delete process.env['CI'];
		delete process.env['CONTINUOUS_INTEGRATION'];
	}

	return (await import('./commands/tui.js')).tuiCommand;
}

/** `attach` is the dashboard: what loadTui does for the terminal applies to it too. */
async function loadAttach() {
	await loadTui();
	return (await import('./commands/attach.js')).attachCommand;
}

export function buildProgram(): Command {
	const program = new Command('hermes-delegate')
		.description('Run and watch batches of Hermes Agent subagents, each on its own model or profile.')
		.version(packageVersion())
		.showHelpAfterError('(run with --help for usage)')
		.configureOutput({writeErr: text => process.stderr.write(terminalSafe(text))})
		.exitOverride();

	natsAuthOptions(batchOptions(program.command('run').description('run a batch headless and print JSON results'))
		.option('--dry-run', 'print the routing plan and start nothing: a table on a terminal (id, name, route, model, reason, warnings), JSON with the argv when piped or with --json')
		.option('--json', 'with --dry-run: the plan as JSON even on a terminal')
		.option('--jsonl', 'stream one JSON event per line as things happen')
		.option('--demo', 'run the built-in demo batch on the simulated agent (no Hermes, no API keys)')
		.option('--detach', 'start the batch under a runner host and print its run id at once; `wait RUN` prints the results, `attach RUN` shows it')
		.option('--nats <url>', 'run the tasks on worker hosts (`hermes-delegate worker --nats URL`) through this NATS server with JetStream'))
		.addHelpText('after', '\nWith --detach: 0 started (the run id on stdout) · 2 bad input, nothing started.\nExit codes: 0 all succeeded · 1 any failed, cancelled, timed out, refused or lost (its worker host went silent, --nats) · 2 bad input, batch refused, or with --nats: NATS unreachable or no live worker (nothing started) · 70 internal error of hermes-delegate (a bug: please report it) · 130 interrupted')
		.action(async (tasks: string | undefined, options: Record<string, unknown>) => {
			const flags = optionsOf(runOptions, options, 'run');
			process.exitCode = flags.detach
				? await (await import('./commands/run-detach.js')).runDetached(tasks, flags, io)
				: await (await import('./commands/run.js')).runCommand(tasks, flags, io);
		});

	natsAuthOptions(dashboardOptions(program.command('tui').description('run a batch in the live dashboard'))
		.option('--nats <url>', 'run the tasks on worker hosts (`hermes-delegate worker --nats URL`) through this NATS server with JetStream'))
		.addHelpText('after', '\nIn the dashboard, press ? for the keys. Exit codes as for `run` (see `run --help`).')
		.action(async (tasks: string | undefined, options: Record<string, unknown>) => {
			process.exitCode = await (await loadTui())(tasks, optionsOf(tuiOptions, options, 'tui'), io);
		});

	dashboardOptions(program.command('demo').description('the dashboard on the built-in simulated agent: no Hermes or API keys needed'))
		.action(async (tasks: string | undefined, options: Record<string, unknown>) => {
			process.exitCode = await (await loadTui())(tasks, {...optionsOf(tuiOptions, options, 'demo'), demo: true}, io);
		});

	program.command('logs')
		.description('print a task\'s log made safe for the terminal; without TASK, list the run\'s tasks')
		.argument('[run]', 'a run id (default: the newest run)')
		.argument('[task]', 'a task id (t03) or name; TASK.N (t03.2) for its Nth attempt (default: the newest)')
		.option('-f, --follow', 'keep printing what the task writes until it ends, on into a later attempt (or Ctrl+C)')
		.option('--attempt <n>', 'the task\'s Nth attempt (a re-routed task runs again as attempt 2, 3, ...); default: the newest')
		.option('--raw', 'the log\'s bytes exactly as the agent printed them: escape sequences, and stream-json as JSON lines')
		.addHelpText('after', '\nLogs are in $HERMES_HOME/delegate/runs/<run>/logs/<task>.log (attempt N: <task>.N.log). Exit codes: 0 printed · 2 no such run or task')
		.action(async (run: string | undefined, task: string | undefined, options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/logs.js')).logsCommand(run, task, optionsOf(logsOptions, options, 'logs'), io);
		});

	program.command('doctor')
		.description('probe the installed Hermes and check the config, profiles and home for what would change a batch (starts no subagent)')
		.option('--config <path>', 'Hermes config file (default: $HERMES_HOME/config.yaml)')
		.option('--hermes-bin <path>', 'the hermes binary (default: $HERMES_BIN, else `hermes` on PATH)')
		.option('--json', 'as JSON, for scripts')
		.addHelpText('after', '\nExit codes: 0 nothing wrong (warnings are fine) · 1 a problem that stops or changes a batch · 70 internal error')
		.action(async (options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/doctor.js')).doctorCommand(optionsOf(doctorOptions, options, 'doctor'), io);
		});

	const config = program.command('config')
		.description('show or change the routing configuration in Hermes\'s config.yaml (`config show` without a subcommand)')
		.option('--show', 'print the active mode and each mode\'s routes and defaults (the default action; same as `config show`)')
		.option('--json', 'as JSON, for scripts')
		.addOption(new Option('--config <path>', 'Hermes config file (default: $HERMES_HOME/config.yaml)'))
		.addHelpText('after', '\nEach change prints the lines it changed; a bad value exits 2 and changes nothing.')
		.action(async (options: Record<string, unknown>) => {
			process.exitCode = (await import('./commands/config.js')).configCommand(optionsOf(configOptions, options, 'config'), io);
		});
	const configPathOption = () => new Option('--config <path>', 'Hermes config file (default: $HERMES_HOME/config.yaml)');
	const editOptions = (command: Command) => command
		.option('--description <text>', 'what the route is for: the words tasks are matched against')
		.option('--model <model>', 'model route: the model')
		.option('--provider <provider>', 'model route: the provider (e.g. openrouter)')
		.option('--reasoning <level>', 'model route: reasoning effort (none, minimal, low, medium, high, xhigh, max, ultra)')
		.option('--default', 'make it the default route of its mode')
		.addOption(configPathOption());
	config.command('show').description('print the routing configuration (as `config --show`)').option('--json', 'as JSON, for scripts').addOption(configPathOption())
		.action(async (_options: unknown, command: Command) => {
			process.exitCode = (await import('./commands/config.js')).configCommand(optionsOf(configOptions, command.optsWithGlobals(), 'config show'), io);
		});
	config.command('set-mode').description('switch the active routing mode; each mode keeps its routes').argument('<mode>', 'model_map, profile_routes or default').addOption(configPathOption())
		.action(async (mode: string, _options: unknown, command: Command) => {
			process.exitCode = (await configEdits()).setModeCommand(mode, optionsOf(configOptions, command.optsWithGlobals(), 'config set-mode'), io);
		});
	editOptions(config.command('route').description('change a route: its description, model, provider, reasoning, or make it the default').argument('<name>', 'the route'))
		.option('--in <list>', 'model_map or profile_routes, when both have a route of that name')
		.option('--clear <field...>', 'model route: remove optional keys so Hermes\'s own setting applies (provider, base_url, reasoning_effort, service_tier, fallback_providers, api_key, api_mode)')
		.action(async (name: string, _options: unknown, command: Command) => {
			process.exitCode = (await configEdits()).routeCommand(name, optionsOf(routeEditOptions, command.optsWithGlobals(), 'config route'), io);
		});
	editOptions(config.command('add-route').description('add a model route (--model and --provider) or a profile route (a profile under $HERMES_HOME/profiles/)').argument('<name>', 'the route name (for a profile route: the profile)'))
		.action(async (name: string, _options: unknown, command: Command) => {
			process.exitCode = (await configEdits()).addRouteCommand(name, optionsOf(addRouteOptions, command.optsWithGlobals(), 'config add-route'), io);
		});
	config.command('remove-route').description('remove a route (not the default: make another the default first)').argument('<name>', 'the route').option('--in <list>', 'model_map or profile_routes, when both have a route of that name').addOption(configPathOption())
		.action(async (name: string, _options: unknown, command: Command) => {
			process.exitCode = (await configEdits()).removeRouteCommand(name, optionsOf(removeRouteOptions, command.optsWithGlobals(), 'config remove-route'), io);
		});

	program.command('attach')
		.description('the dashboard on a batch a runner host serves (started by tui, demo or run --detach), from any terminal; on a finished run, read-only from its run folder')
		.argument('[run]', 'a run id, live or finished (default: the live run; a choice when several are live)')
		.option('--theme <name|path>', 'dashboard theme: dark, light, no-color, or a JSON file (NO_COLOR forces no-color)')
		.option('--exit-when-done', 'leave the dashboard by itself when the batch is finished (a finished run: at once)')
		.option('--no-mouse', 'leave the mouse to the terminal: no click to focus, double click to zoom or wheel to scroll (also delegate.yaml `mouse: false`)')
		.addHelpText('after', '\nLeaving the dashboard (closing the terminal included) leaves the batch running, unless you quit it with q → y. A finished run opens read-only: panes, zoom, search and spend as recorded; cancel, re-route, routes and mode say "this run has finished: read-only". Exit codes: as for `run` once the batch has finished · 0 detached · 1 the runner host died first · 2 no such run, or one without results to show (swept by gc, unrecorded, its host died)')
		.action(async (run: string | undefined, options: Record<string, unknown>) => {
			process.exitCode = await (await loadAttach())(run, optionsOf(attachOptions, options, 'attach'), io);
		});

	program.command('ls')
		.description('the recent runs: live (a runner host serves them: the attach command), finished, or owner died (then the gc command)')
		.option('--json', 'as JSON, for scripts')
		.addHelpText('after', '\nEach run: its id, state, start, tasks by status, clients attached. Exit codes: 0 listed')
		.action(async (options: Record<string, unknown>) => {
			process.exitCode = (await import('./commands/ls.js')).lsCommand(optionsOf(lsOptions, options, 'ls'), io);
		});

	program.command('spend')
		.description('a run\'s spend from Hermes\'s state.db, per route, per model and for the batch: the dashboard\'s $ table')
		.argument('[run]', 'a run id (default: the newest run of this HERMES_HOME)')
		.option('--json', 'as JSON: {run_id, from, spend: {total, by_route, by_model}, warnings}; unknown numbers are null, never 0')
		.addHelpText('after', '\nA live run is read through its runner host; a finished one from results.json; a run no host serves from the rows in state.db. ? is unknown, ≥ a lower bound (some attempts unknown), unpriced: counts Hermes has no price for. Exit codes: 0 printed · 2 no such run')
		.action(async (run: string | undefined, options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/spend.js')).spendCommand(run, optionsOf(spendOptions, options, 'spend'), io);
		});

	program.command('wait')
		.description('wait until a run has finished, then print its results JSON exactly as `run` does')
		.argument('<run>', 'a run id (see `hermes-delegate ls`)')
		.option('--timeout <seconds>', 'give up after this long (exit 124); the run goes on')
		.option('--jsonl', 'the run\'s recorded events as `run --jsonl` prints them (planned, started, finished, … batch.finished; no telemetry), the same whether the run is live or finished')
		.addHelpText('after', '\nExit codes: as for `run` (0 all succeeded · 1 any failed, cancelled, timed out or refused, or the run ended without results · 130 interrupted) · 2 no such run · 124 --timeout ran out')
		.action(async (run: string, options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/wait.js')).waitCommand(run, optionsOf(waitOptions, options, 'wait'), io);
		});

	program.command('cancel')
		.description('stop tasks of a live run (none named: the whole batch) with the kill cascade, through its runner host')
		.argument('<run>', 'a run id (see `hermes-delegate ls`)')
		.argument('[tasks...]', 'task ids (t03, or 3) or names; none: every task')
		.option('--kill', 'SIGKILL now, no grace period')
		.addHelpText('after', '\nSays what is sent to whom, waits until those tasks have ended and says how. Exit codes: 0 stopped · 1 a named task had ended already · 2 no such live run or task')
		.action(async (run: string, tasks: string[], options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/cancel.js')).cancelCommand(run, tasks, optionsOf(cancelOptions, options, 'cancel'), io);
		});

	natsAuthOptions(program.command('worker')
		.description('take tasks of batches started elsewhere with `run --nats URL` and run them on this host')
		.requiredOption('--nats <url>', 'the NATS server with JetStream, e.g. nats://10.0.0.5:4222')
		.option('-j, --concurrency <n>', 'tasks this host runs at once (default 4)')
		.option('--name <name>', 'this worker\'s name in results (`host`) and messages (default: the host name)')
		.option('--hermes-bin <path>', 'the hermes binary (default: $HERMES_BIN, else `hermes` on PATH)')
		.option('--heartbeat <seconds>', 'how often it tells it is alive; a runner host declares it lost after 3 missed (default 2)'))
		.addHelpText('after', '\nIts own HERMES_HOME, profiles and keys are used; no credentials travel over NATS. Logs go to this host\'s $HERMES_HOME/delegate/runs/.\nExit codes: 0 stopped by SIGINT/SIGTERM after its tasks ended · 2 bad flags, no usable hermes, or NATS unreachable')
		.action(async (options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/worker.js')).workerCommand(optionsOf(workerOptions, options, 'worker'), io);
		});

	program.command('fleet').description('the keys that say who belongs to a fleet of runner hosts and workers (docs/fleet-security.md)')
		.command('key').description('make a fleet member\'s private key; prints the line for the fleet\'s trust file')
		.requiredOption('--role <role>', 'host (a runner host: run, tui) or worker')
		.requiredOption('--name <name>', 'the member\'s name (a worker: its --name)')
		.option('--out <file>', 'where the key goes (default: $HERMES_DELEGATE_FLEET_KEY, else $HERMES_HOME/delegate/fleet/key.pem)')
		.action(async (options: Record<string, unknown>) => {
			const fleet = await import('./commands/fleet.js');
			process.exitCode = await fleet.fleetKeyCommand(optionsOf(fleet.fleetKeyOptions, options, 'fleet key'), io);
		});

	program.command('mcp')
		.description('serve the delegate tools to an agent over MCP (stdio): Hermes attaches it with `hermes-delegate setup hermes`')
		.option('--config <path>', 'Hermes config file (default: $HERMES_HOME/config.yaml)')
		.option('--hermes-bin <path>', 'the hermes binary (default: $HERMES_BIN, else `hermes` on PATH)')
		.option('-j, --concurrency <n>', 'tasks of one batch running at once (default as for `run`)')
		.option('--grace <seconds>', 'SIGTERM → SIGKILL grace period when stopping a task (default 5)')
		.option('--timeout <seconds>', 'stop any task running longer than this (a task\'s own timeout_s wins)')
		.option('--budget-usd <usd>', 'each batch\'s budget in USD, as for `run`')
		.option('--budget-tokens <n>', 'each batch\'s budget in tokens, as for `run`')
		.option('--log-limit <size>', 'most bytes one task\'s log keeps (default: delegate.yaml, else 256MiB)')
		.option('--stuck-timeout <seconds>', 'stop a task with neither output nor tool activity for this long')
		.action(async (options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/mcp.js')).mcpCommand(optionsOf(mcpOptions, options, 'mcp'), io, packageVersion());
		});

	program.command('setup')
		.description('register hermes-delegate with an agent: `setup hermes` adds the MCP server to Hermes\'s config.yaml and installs a skill')
		.argument('<agent>', 'the agent to set up: hermes')
		.option('--profile <name>', 'the Hermes profile to set up (default: the home itself)')
		.option('--dry-run', 'show what would change and change nothing')
		.action(async (agent: string, options: Record<string, unknown>) => {
			process.exitCode = await (await import('./commands/setup.js')).setupCommand(agent, optionsOf(setupOptions, options, 'setup'), io);
		});

	// The runner host (commands/host.ts): started by tui, demo and run --detach, never by hand.
	program.command('__host', {hidden: true})
		.action(async () => {
			process.exitCode = await (await import('./commands/host.js')).hostCommand({env: io.env, stdin: process.stdin});
		});

	program.command('completion')
		.description('print a completion script for your shell: commands, options, run ids and task ids')
		.addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
		.addHelpText('after', '\nThe script asks hermes-delegate itself at each Tab, so it completes the run ids and task ids of the runs there are now.')
		.action(async (shell: 'bash' | 'zsh' | 'fish') => {
			process.exitCode = (await import('./commands/completion.js')).completionCommand(shell, io);
		});

	// What the completion scripts call at each Tab: the words typed so far, after `--`.
	program.command('__complete', {hidden: true})
		.argument('[words...]')
		.action(async (words: string[]) => {
			process.exitCode = (await import('./commands/completion.js')).completeCommand(program, words, io);
		});

	// The JSON Schemas' source (scripts/docs.mjs writes them into schemas/).
	program.command('__schemas', {hidden: true})
		.action(async () => {
			const {jsonSchemas} = await import('./commands/schemas.js');
			io.stdout.write(`${JSON.stringify(jsonSchemas(), null, '\t')}\n`);
		});

	// The reference pages' source (scripts/docs.mjs): every command's help, as JSON.
	program.command('__reference', {hidden: true})
		.action(async () => {
			const {commandReference} = await import('./commands/reference.js');
			io.stdout.write(`${JSON.stringify(commandReference(program), null, '\t')}\n`);
		});

	program.command('gc')
		.description('find and end processes left running by a hermes-delegate that was killed (kill -9)')
		.option('--dry-run', 'list them and signal nothing')
		.option('--grace <seconds>', 'SIGTERM → SIGKILL grace period (default from delegate.yaml, else 5)')
		.action(async (options: Record<string, unknown>) => {
			process.exitCode = await gcCommand(optionsOf(gcOptions, options, 'gc'), io);
		});

	// Every other command says so when a killed run left processes behind.
	program.hook('preAction', (_program, command) => {
		refuseUnknownSubcommand(command);
		if (command.name() !== 'gc' && !command.name().startsWith('__')) warnAboutOrphans(io);
	});

	addHelp(program);
	return program;
}

/** Set by scripts/build.mjs to the commit dist/ was built from ('' outside git); absent in tests that load src/. */
declare const __HERMES_DELEGATE_COMMIT__: string | undefined;

/** `0.2.0`, or `0.2.0 (git abc1234def)` for a build from a git checkout. */
function packageVersion(): string {
	const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {version: string};
	const commit = typeof __HERMES_DELEGATE_COMMIT__ === 'string' ? __HERMES_DELEGATE_COMMIT__ : '';
	return commit === '' ? packageJson.version : `${packageJson.version} (git ${commit})`;
}

async function main(): Promise<void> {
	try {
		await buildProgram().parseAsync(process.argv);
	} catch (error) {
		process.exitCode = report(error);
	}
}

function report(error: unknown): number {
	if (error instanceof CommanderError) {
		// --help and --version end here too, successfully; commander has printed them already.
		return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
	}

	if (error instanceof InputError) {
		// Messages quote task files and configs: made safe for the terminal at this one place.
		process.stderr.write(`hermes-delegate: ${terminalSafe(error.describe())}\n`);
		return exitCodes.usage;
	}

	// Out of file descriptors before the room check for tasks could say so (reading package.json
	// for --version, say: Node 24 itself takes a few more than Node 20, so loading gets that far).
	const code = errnoCode(error);
	if (code === 'EMFILE' || code === 'ENFILE') {
		process.stderr.write(`hermes-delegate: too few open files allowed to run hermes-delegate (${code}: ${code === 'EMFILE' ? 'the ulimit -n of this process' : 'the whole system'} is used up)\n  fix: raise the open-files limit, e.g. \`ulimit -n 1024\`, then run it again\n`);
		return exitCodes.usage;
	}

	process.stderr.write(`hermes-delegate: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
	return exitCodes.internalError;
}

// Last line of defence: whatever ends this process (an error nobody expected included), no
// subagent group it started may outlive it. On a normal exit every group is already gone.
process.on('exit', () => {
	const killed = killUnfinishedGroupsNow();
	if (killed.length > 0) {
		process.stderr.write(`hermes-delegate: exiting with ${killed.length} subagent process group(s) still alive; sent SIGKILL to ${killed.join(', ')}\n`);
	}
});

await main();
// Every byte must reach a slow reader first; then Ink, timers or a stuck stdin must never keep a
// finished command alive.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(process.exitCode ?? 0);
