// `hermes-delegate completion bash|zsh|fish`: a script for the shell that asks the CLI itself what
// may come next (the hidden `__complete -- WORDS…`): commands and options from commander's own
// definitions (so a command added to src/cli.ts completes with nothing added here), run ids of
// this HERMES_HOME and the demo's (live ones where only a live run will do), task ids of the run
// named, and the few fixed values (themes, modes, shells).
import {readdirSync} from 'node:fs';
import type {Argument, Command, Option} from 'commander';
import {findRun, readRun} from '../core/run-folder/history.js';
import {listRecentRuns, runHomes} from '../client/live-runs.js';
import {themesDir} from '../package-files.js';
import {InputError} from '../core/errors.js';

export const shells = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof shells)[number];

/** Commands that act on a live run only: their run ids are the live ones. */
const liveOnly = new Set(['attach', 'cancel']);

type Hidden = {_hidden?: boolean; hidden?: boolean};
const visibleCommands = (command: Command) => command.commands.filter(child => !(child as Command & Hidden)._hidden && child.name() !== 'help');
const visibleOptions = (command: Command) => command.options.filter(option => !(option as Option & Hidden).hidden);
const takesValue = (option: Option) => option.required || option.optional;

/** What may come at the last word of `words` (the words after `hermes-delegate`, the last one being typed). */
export function complete(program: Command, words: readonly string[], env: NodeJS.ProcessEnv): string[] {
	const typed = words.at(-1) ?? '';
	let command = program;
	const operands: string[] = [];
	let valueOf: Option | undefined;
	for (const word of words.slice(0, -1)) {
		if (valueOf !== undefined) {
			valueOf = undefined;
			continue;
		}

		if (word.startsWith('-')) {
			const option = visibleOptions(command).find(candidate => candidate.long === word.split('=')[0] || candidate.short === word);
			if (option !== undefined && takesValue(option) && !word.includes('=')) valueOf = option;
			continue;
		}

		const child = operands.length === 0 ? visibleCommands(command).find(candidate => candidate.name() === word || candidate.aliases().includes(word)) : undefined;
		if (child === undefined) operands.push(word);
		else command = child;
	}

	const candidates = valueOf === undefined
		? (typed.startsWith('-') ? optionsOf(command) : [...(operands.length === 0 ? visibleCommands(command).map(child => child.name()) : []), ...operandValues(command, operands, env)])
		: optionValues(valueOf);
	return [...new Set(candidates)].filter(candidate => candidate.startsWith(typed));
}

function optionsOf(command: Command): string[] {
	return [...visibleOptions(command).flatMap(option => [option.long, option.short]), '--help'].filter((flag): flag is string => flag !== undefined);
}

function optionValues(option: Option): string[] {
	if (option.long === '--theme') return themeNames();
	if (option.long === '--in') return ['model_map', 'profile_routes'];
	if (option.argChoices) return option.argChoices;
	return []; // a file, a number, a URL: the shell's own completion
}

function operandValues(command: Command, operands: readonly string[], env: NodeJS.ProcessEnv): string[] {
	const argument: Argument | undefined = command.registeredArguments[operands.length] ?? (command.registeredArguments.at(-1)?.variadic ? command.registeredArguments.at(-1) : undefined);
	if (argument === undefined) return [];
	if (argument.argChoices) return argument.argChoices;
	switch (argument.name()) {
		case 'run': {
			// `logs t03` leaves the run out (the newest): its first word may be a task as well.
			return [...runIds(env, liveOnly.has(command.name())), ...(command.name() === 'logs' ? taskIds(env, undefined) : [])];
		}

		case 'task':
		case 'tasks': {
			// `logs [run] [task]` may leave the run out (the newest); `cancel <run> [tasks...]` names it.
			const run = operands.find(operand => /^\d{8}-\d{6}-[\da-f]{6}$/.test(operand));
			return command.name() === 'logs' || command.name() === 'cancel' ? taskIds(env, run) : [];
		}

		case 'mode': {
			return ['model_map', 'profile_routes', 'default'];
		}

		case 'shell': {
			return [...shells];
		}

		default: {
			return [];
		}
	}
}

function runIds(env: NodeJS.ProcessEnv, live: boolean): string[] {
	return listRecentRuns(runHomes(env), {limit: 20}).filter(run => !live || run.state === 'live').map(run => run.runId);
}

function taskIds(env: NodeJS.ProcessEnv, runId: string | undefined): string[] {
	for (const home of runHomes(env)) {
		try {
			return readRun(findRun(home, runId)).tasks.map(task => task.id);
		} catch (error) {
			if (!(error instanceof InputError)) throw error; // not in this home: the next one
		}
	}

	return [];
}

function themeNames(): string[] {
	try {
		return readdirSync(themesDir).filter(name => name.endsWith('.json')).map(name => name.slice(0, -'.json'.length));
	} catch {
		return ['dark', 'light', 'no-color'];
	}
}

/** The script for `shell`, which calls `hermes-delegate __complete -- WORDS…` at each Tab. */
export function completionScript(shell: Shell): string {
	switch (shell) {
		case 'bash': {
			return `# hermes-delegate completion for bash. Load it now:  source <(hermes-delegate completion bash)
# or for every shell:  hermes-delegate completion bash > ~/.local/share/bash-completion/completions/hermes-delegate
_hermes_delegate() {
	local IFS=$'\\n'
	local candidates
	candidates=$(hermes-delegate __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
	COMPREPLY=($(compgen -W "$candidates" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _hermes_delegate hermes-delegate
`;
		}

		case 'zsh': {
			return `#compdef hermes-delegate
# hermes-delegate completion for zsh. Load it now:  source <(hermes-delegate completion zsh)
# or for every shell:  hermes-delegate completion zsh > "\${fpath[1]}/_hermes-delegate"
_hermes_delegate() {
	local -a candidates
	candidates=("\${(@f)$(hermes-delegate __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
	candidates=(\${candidates:#})
	if (( \${#candidates} )); then
		compadd -a candidates
	else
		_files
	fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
	_hermes_delegate "$@"
else
	compdef _hermes_delegate hermes-delegate
fi
`;
		}

		case 'fish': {
			return `# hermes-delegate completion for fish. Load it now:  hermes-delegate completion fish | source
# or for every shell:  hermes-delegate completion fish > ~/.config/fish/completions/hermes-delegate.fish
function __hermes_delegate_complete
	set -l candidates (hermes-delegate __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)
	if test (count $candidates) -gt 0
		printf '%s\\n' $candidates
	else
		__fish_complete_path (commandline -ct)
	end
end
complete -c hermes-delegate -f -a '(__hermes_delegate_complete)'
`;
		}
	}
}

/** The shell is one of `shells`: commander checks the argument's choices before this runs. */
export function completionCommand(shell: Shell, io: {stdout: NodeJS.WritableStream}): number {
	io.stdout.write(completionScript(shell));
	return 0;
}

export function completeCommand(program: Command, words: readonly string[], io: {stdout: NodeJS.WritableStream; env: NodeJS.ProcessEnv}): number {
	const candidates = complete(program, words, io.env);
	if (candidates.length > 0) io.stdout.write(`${candidates.join('\n')}\n`);
	return 0;
}
