// What `--help` adds to the CLI's own definitions (src/cli.ts): examples under every command,
// the long option lists of the batch commands in groups, and "did you mean" for a mistyped
// subcommand of a command that also acts alone (`config shwo`). Kept apart from the definitions
// so that adding a command there stays one change; test/e2e/help.test.ts fails when a visible
// command has no examples here.
import type {Command} from 'commander';
import {closest} from '../core/text/suggest.js';

const demoRun = '20261130-011109-1fe57d';

/** Examples by command path (`config route`), each `words  # what it does`; `hermes-delegate` goes in front unless the line starts with `$ `. */
export const examples: Record<string, string[]> = {
	'': [
		'demo  # the dashboard on a simulated batch: no Hermes, no API keys',
		'run tasks.yaml --dry-run  # which route each task would get, and why; starts nothing',
		'tui tasks.yaml  # run a batch in the live dashboard',
		'run --help  # every option of a command, with examples',
	],
	run: [
		'run tasks.yaml  # run a task file (JSON or YAML); the results JSON on stdout',
		'run tasks.yaml --dry-run  # the plan: each task\'s route and the reason; starts nothing',
		'run \'[{"goal":"Summarise README.md","characteristic":"quick"}]\'  # inline tasks',
		'$ generate-tasks | hermes-delegate run --jsonl  # tasks on stdin (from any program); one event per line',
		'run tasks.yaml -j 6 --timeout 900 --budget-usd 2  # 6 at once, 15 min each at most, $2 for the batch',
		'run tasks.yaml --detach  # start it under a runner host and print its run id; see `wait`, `attach`',
		'run --demo  # the demo batch headless (exits 1: one task fails on purpose)',
	],
	tui: [
		'tui tasks.yaml  # the batch in the dashboard; press ? for the keys',
		'tui tasks.yaml -j 6 --grace 10 --theme light',
		'tui tasks.yaml --nats nats://10.0.0.5:4222  # tasks run on worker hosts',
	],
	demo: [
		'demo  # eight simulated subagents: one fails, one runs away (cancel it: c, y), one is refused',
		'demo --theme no-color --exit-when-done',
	],
	logs: [
		'logs  # the newest run\'s tasks: id, status, title, log path',
		'logs t03  # task t03 of the newest run, its newest attempt',
		'logs t03.1  # its first attempt',
		`logs ${demoRun} fix-login -f  # follow a running task until it ends`,
		'logs t03 --raw | less  # the exact bytes, escape sequences included',
	],
	doctor: [
		'doctor  # the installed Hermes, its flags, each route as it would run, each problem with its fix',
		'doctor --hermes-bin ~/.local/bin/hermes --json',
	],
	config: [
		'config  # the active mode, its routes and defaults',
		'config set-mode profile_routes',
		'config route deep --reasoning xhigh',
		'config add-route mid --description "Most everyday work." --model deepseek/deepseek-v4-pro --provider openrouter',
	],
	'config show': ['config show', 'config show --json | jq .modes'],
	'config set-mode': ['config set-mode profile_routes  # run each task as one of your Hermes profiles', 'config set-mode default  # every subagent on the parent\'s model (Hermes\'s own delegation)'],
	'config route': [
		'config route deep --description "Slow and careful: hard debugging, design." --reasoning xhigh',
		'config route fast --model google/gemini-3.1-flash --provider openrouter --default',
		'config route deep --clear reasoning_effort  # Hermes\'s own setting applies again',
	],
	'config add-route': [
		'config add-route mid --description "Most everyday work." --model deepseek/deepseek-v4-pro --provider openrouter',
		'config add-route researcher --description "Web research."  # a profile route: profiles/researcher/ must exist',
	],
	'config remove-route': ['config remove-route mid', 'config remove-route coder --in profile_routes'],
	attach: ['attach  # the live run (a choice when several are live)', `attach ${demoRun}  # live: steer it; finished: read-only from its run folder`, 'attach --theme light'],
	ls: ['ls', 'ls --json | jq -r \'.[] | select(.state == "live") | .run_id\''],
	spend: ['spend  # the newest run\'s spend per route, per model and in all', `spend ${demoRun} --json`],
	wait: [`wait ${demoRun}  # block until it has finished, then print its results JSON`, `wait ${demoRun} --timeout 600`, `wait ${demoRun} --jsonl  # its recorded events, the same live or finished`],
	cancel: [`cancel ${demoRun}  # the whole batch, with the kill cascade`, `cancel ${demoRun} t03 fix-login`, `cancel ${demoRun} t06 --kill  # SIGKILL now, no grace period`],
	worker: ['worker --nats nats://10.0.0.5:4222', 'worker --nats nats://10.0.0.5:4222 -j 8 --name gpu-box --nats-creds worker.creds'],
	gc: ['gc --dry-run  # list what killed runs left running; signal nothing', 'gc  # end it: SIGTERM, the grace period, SIGKILL', 'gc --grace 1'],
	mcp: [
		'mcp  # serve the delegate tools over stdio (an agent starts it: see `setup hermes`)',
		'mcp -j 6 --budget-usd 2  # every batch the agent starts: 6 tasks at once, $2 each batch',
	],
	setup: [
		'setup hermes --dry-run  # the lines it would add to config.yaml, and the skill it would install',
		'setup hermes  # register the MCP server in $HERMES_HOME/config.yaml and install the skill',
		'setup hermes --profile coder  # the same in the profile coder\'s own home',
	],
	fleet: ['fleet key --role worker --name gpu-box  # on a worker: its key, and the line for the trust file'],
	'fleet key': [
		'fleet key --role host --name laptop  # on a runner host',
		'fleet key --role worker --name gpu-box --out /etc/hermes-delegate/key.pem',
	],
	completion: [
		'completion bash > ~/.local/share/bash-completion/completions/hermes-delegate',
		'completion zsh > "${fpath[1]}/_hermes-delegate"',
		'completion fish > ~/.config/fish/completions/hermes-delegate.fish',
	],
};

/** The long option lists (run, tui, demo, worker) in groups, by long flag; the rest stay under Options. */
const optionGroups: Record<string, string> = {
	'--config': 'Tasks, Hermes and routes:',
	'--hermes-bin': 'Tasks, Hermes and routes:',
	'--strict': 'Tasks, Hermes and routes:',
	'--concurrency': 'How tasks run:',
	'--sequential': 'How tasks run:',
	'--timeout': 'How tasks run:',
	'--stuck-timeout': 'How tasks run:',
	'--grace': 'How tasks run:',
	'--fail-fast': 'How tasks run:',
	'--budget-usd': 'Budgets and logs:',
	'--budget-tokens': 'Budgets and logs:',
	'--log-limit': 'Budgets and logs:',
	'--dry-run': 'Output:',
	'--json': 'Output:',
	'--jsonl': 'Output:',
	'--demo': 'Output:',
	'--detach': 'Output:',
	'--theme': 'Dashboard:',
	'--exit-when-done': 'Dashboard:',
	'--agent-nice': 'Dashboard:',
	'--nats': 'Worker hosts (NATS):',
	'--nats-creds': 'Worker hosts (NATS):',
	'--nats-tls-ca': 'Worker hosts (NATS):',
	'--nats-tls-cert': 'Worker hosts (NATS):',
	'--nats-tls-key': 'Worker hosts (NATS):',
};
const groupedCommands = new Set(['run', 'tui', 'demo', 'worker']);

/** The program's commands in groups, by name; a command not named here is listed under Commands. */
const commandGroups: Record<string, string> = {
	run: 'Run a batch:',
	tui: 'Run a batch:',
	demo: 'Run a batch:',
	attach: 'While it runs and after:',
	ls: 'While it runs and after:',
	wait: 'While it runs and after:',
	cancel: 'While it runs and after:',
	logs: 'While it runs and after:',
	spend: 'While it runs and after:',
	config: 'Set up and look after:',
	doctor: 'Set up and look after:',
	gc: 'Set up and look after:',
	completion: 'Set up and look after:',
	setup: 'Set up and look after:',
	mcp: 'Let the agent delegate:',
	worker: 'Many hosts:',
	fleet: 'Many hosts:',
};

/** The words after `hermes-delegate` that name a command: '' for the program, 'config route'. */
export function commandPath(command: Command): string {
	const names: string[] = [];
	for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
	return names.join(' ');
}

/** Adds the examples and option groups to every command of the program, subcommands included. */
export function addHelp(program: Command): void {
	const visit = (command: Command) => {
		const path = commandPath(command);
		if (groupedCommands.has(path)) {
			for (const option of command.options) {
				const group = option.long === undefined ? undefined : optionGroups[option.long];
				if (group !== undefined) option.helpGroup(group);
			}
		}

		const group = command.parent === program ? commandGroups[command.name()] : undefined;
		if (group !== undefined) command.helpGroup(group);
		const lines = examples[path];
		if (lines !== undefined) command.addHelpText('after', `\nExamples:\n${lines.map(line => `  $ ${line.startsWith('$ ') ? line.slice(2) : `hermes-delegate ${line}`}`).join('\n')}`);
		// A command that acts alone and has subcommands (`config`) takes no words of its own: one
		// given is a mistyped subcommand, refused by refuseUnknownSubcommand with a suggestion.
		if (command.commands.length > 0 && command.parent !== null) command.allowExcessArguments(true);
		for (const child of command.commands) visit(child);
	};

	visit(program);
}

/** `config shwo`: commander's own unknown-command error, with "did you mean" as for `hermes-delegate rnu`. */
export function refuseUnknownSubcommand(command: Command): void {
	const [word] = command.args;
	if (command.commands.length === 0 || word === undefined) return;
	const names = command.commands.filter(child => !(child as Command & {_hidden?: boolean})._hidden).map(child => child.name());
	const guess = closest(word, names);
	command.error(`error: unknown command '${word}' for '${commandPath(command)}'${guess === undefined ? ` (its commands: ${names.join(', ')})` : `\n(Did you mean ${guess}?)`}`, {code: 'commander.unknownCommand'});
}
