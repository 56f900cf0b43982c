// What the fake's `hermes chat --help` and argparse's usage lines say, per release. The options,
// their metavars and their order are each release's own (test/contract/help.test.ts holds them
// against the recorded real help), because the launcher learns from this help which flags exist;
// the descriptions are ours, laid out as argparse lays out a help at 80 columns.
import type {FakeVersion} from './versions.js';

type PerVersion = string | ((version: FakeVersion) => string);
/** An option's part of the synopsis ('' when another entry's part covers it), in the releases that have it. */
type UsageEntry = {usage: PerVersion; when?: (version: FakeVersion) => boolean};
/** `invocation`: the option line's start, spellings and metavars exactly as the release prints them. */
type HelpEntry = UsageEntry & {invocation: string; description: PerVersion};

const text = (value: PerVersion, version: FakeVersion) => (typeof value === 'string' ? value : value(version));

const chatOptions: readonly HelpEntry[] = [
	{usage: '[-h]', invocation: '-h, --help', description: 'print this help and exit'},
	{usage: (v) => (v.streamJson ? '[-q QUERY | --query-file PATH]' : '[-q QUERY]'), invocation: '-q QUERY, --query QUERY', description: 'ask one question, print the answer and exit (no interactive session)'},
	{usage: '', invocation: '--query-file PATH', when: (v) => v.streamJson, description: "take the single query from the file PATH ('-': from stdin) rather than from the command line; its text reaches the model as it is, with no shell in between. Not together with -q."},
	{usage: '[--image IMAGE]', invocation: '--image IMAGE', description: 'a local image file to send along with the single query'},
	{usage: '[-m MODEL]', invocation: '-m MODEL, --model MODEL', description: 'the model that answers, as provider/name; overrides the configured one'},
	{usage: '[-t TOOLSETS]', invocation: '-t TOOLSETS, --toolsets TOOLSETS', description: 'the toolsets to turn on, separated by commas'},
	{usage: '[--reasoning LEVEL]', invocation: '--reasoning LEVEL', when: (v) => v.reasoning, description: 'how much the model reasons in this run, one of none, minimal, low, medium, high, xhigh, max and ultra; this run only, whatever agent.reasoning_effort says'},
	{usage: '[-s SKILLS]', invocation: '-s SKILLS, --skills SKILLS', description: 'skills to load when the session starts; give the flag again, or separate the names with commas'},
	{usage: '[--provider PROVIDER]', invocation: '--provider PROVIDER', description: 'who serves the model (auto when left out): a built-in provider, or one that config.yaml defines'},
	{usage: '[-v]', invocation: '-v, --verbose', description: 'say more about what happens'},
	{usage: '[-Q]', invocation: '-Q, --quiet', description: 'for scripts: no banner, spinner or tool lines; print the reply alone, then the session id'},
	{usage: '[--format {text,stream-json}]', invocation: '--format {text,stream-json}', when: (v) => v.streamJson, description: 'how single-query mode (-q) prints: text, the plain reply (the default), or stream-json, one JSON event per line, which implies --quiet and rules out --tui'},
	{usage: '[--resume SESSION_ID]', invocation: '--resume SESSION_ID, -r SESSION_ID', description: 'carry on an earlier session, named by the id printed when it ended'},
	{usage: '[--no-restore-cwd]', invocation: '--no-restore-cwd', description: 'on resuming, stay in this folder instead of going back to the one the session ran in'},
	{usage: '[--continue [SESSION_NAME]]', invocation: '--continue [SESSION_NAME], -c [SESSION_NAME]', description: 'carry on the session of that name, or the latest session when no name follows'},
	{usage: '[--worktree]', invocation: '--worktree, -w', description: 'work in a git worktree of its own, so that several agents can share one repository'},
	{usage: '[--accept-hooks]', invocation: '--accept-hooks', description: 'trust shell hooks from config.yaml not seen before without asking on a terminal (HERMES_ACCEPT_HOOKS and hooks_auto_accept: in config.yaml do the same)'},
	{usage: '[--checkpoints]', invocation: '--checkpoints', description: 'snapshot files before an operation that could destroy them, so /rollback can bring them back'},
	{usage: '[--max-turns N]', invocation: '--max-turns N', description: (v) => `at most N rounds of tool calls in one turn (default: ${v.maxTurnsDefault}, unless agent.max_turns in config.yaml says otherwise)`},
	{usage: '[--run-budget SECONDS]', invocation: '--run-budget SECONDS', when: (v) => v.streamJson, description: 'a soft time limit for each run, in seconds: at 80% of it the agent is told once to finish up, and no provider call may wait longer than the time left. Off unless set, here or as agent.run_budget_seconds in config.yaml.'},
	{usage: '[--yolo]', invocation: '--yolo', description: 'run risky commands without asking for approval first'},
	{usage: '[--pass-session-id]', invocation: '--pass-session-id', description: "put the session id into the agent's system prompt"},
	{usage: '[--ignore-user-config]', invocation: '--ignore-user-config', description: 'leave ~/.hermes/config.yaml unread and use the built-in settings; the keys in .env still load'},
	{usage: '[--ignore-rules]', invocation: '--ignore-rules', description: 'inject none of AGENTS.md, SOUL.md, .cursorrules, memory and preloaded skills'},
	{usage: '[--safe-mode]', invocation: '--safe-mode', description: 'start with nothing of your own: no user config, rules, memory, plugins or MCP servers (so --ignore-user-config and --ignore-rules as well)'},
	{usage: '[--source SOURCE]', invocation: '--source SOURCE', description: "the source stored with the session (default: cli); 'tool' keeps a program's runs out of the user's list of sessions"},
	{usage: '[--tui]', invocation: '--tui', description: 'open the full-screen interface rather than the classic prompt'},
	{usage: '[--cli]', invocation: '--cli', description: 'open the classic prompt_toolkit prompt, even when display.interface is tui'},
	{usage: '[--dev]', invocation: '--dev', description: 'with --tui: run its TypeScript sources through tsx rather than the built bundle'},
];

const topLevelOptions: readonly UsageEntry[] = [
	'[-h]', '[--version]', '[-z PROMPT]', '[--usage-file PATH]', '[-m MODEL]', '[--provider PROVIDER]',
	{usage: '[--reasoning LEVEL]', when: (version: FakeVersion) => version.reasoning},
	'[-t TOOLSETS]', '[--resume SESSION]', '[--no-restore-cwd]', '[--continue [SESSION_NAME]]', '[--worktree]',
	'[--accept-hooks]', '[--skills SKILLS]', '[--yolo]', '[--pass-session-id]', '[--ignore-user-config]',
	'[--ignore-rules]', '[--safe-mode]', '[--tui]', '[--cli]', '[--dev]',
].map((entry) => (typeof entry === 'string' ? {usage: entry} : entry));

const width = 78; // argparse: $COLUMNS (80 when unset or not a terminal) minus 2

/** argparse's usage layout: options filled greedily after the prog, positionals on lines of their own. */
function usage(prog: string, optionParts: readonly string[], positionalParts: readonly string[] = []): string {
	const indent = ' '.repeat('usage: '.length + prog.length + 1);
	const fill = (parts: readonly string[], startLength: number) => {
		const lines: string[] = [];
		let line: string[] = [];
		let length = startLength;
		for (const part of parts) {
			if (length + 1 + part.length > width && line.length > 0) {
				lines.push(line.join(' '));
				line = [];
				length = indent.length - 1;
			}

			line.push(part);
			length += part.length + 1;
		}

		if (line.length > 0) lines.push(line.join(' '));
		return lines;
	};

	const lines = [...fill([prog, ...optionParts], 'usage: '.length - 1), ...positionalParts.flatMap((part) => fill([part], indent.length - 1))];
	return `usage: ${lines.join(`\n${indent}`)}`;
}

const present = <Entry extends UsageEntry>(entries: readonly Entry[], version: FakeVersion) => entries.filter((entry) => entry.when?.(version) ?? true);

export function chatUsage(version: FakeVersion): string {
	const parts = present(chatOptions, version).map((entry) => text(entry.usage, version)).filter((part) => part !== '');
	return usage('hermes chat', parts);
}

export function topLevelUsage(version: FakeVersion): string {
	const parts = present(topLevelOptions, version).map((entry) => text(entry.usage, version));
	return usage('hermes', parts, [`{${version.commands.join(',')}}`, '...']);
}

const helpColumn = 24; // argparse's max_help_position: where every description starts

/** Greedy word wrap, as argparse's textwrap does (whitespace collapsed first). */
function wrap(words: string, columns: number): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of words.split(/\s+/).filter(Boolean)) {
		if (line !== '' && line.length + 1 + word.length > columns) {
			lines.push(line);
			line = word;
		} else {
			line = line === '' ? word : `${line} ${word}`;
		}
	}

	if (line !== '') lines.push(line);
	return lines;
}

/** One option as argparse prints it: on the invocation's line when that fits in the column, else below it. */
function optionLines(invocation: string, description: string): string {
	const lines = wrap(description, width - helpColumn);
	const head = `  ${invocation}`;
	const indent = ' '.repeat(helpColumn);
	const first = head.length <= helpColumn - 2 ? `${head.padEnd(helpColumn)}${lines.shift() ?? ''}` : head;
	return [first, ...lines.map((line) => `${indent}${line}`)].join('\n');
}

export function chatHelp(version: FakeVersion): string {
	const options = present(chatOptions, version).map((entry) => optionLines(entry.invocation, text(entry.description, version)));
	return `${chatUsage(version)}\n\nAnswer with the agent: here, one single query (-q) per run.\n\noptions:\n${options.join('\n')}\n`;
}
