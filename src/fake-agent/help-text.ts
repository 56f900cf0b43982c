// What `hermes chat --help` and argparse's usage lines say, per release. The option blocks are the
// real help's, as argparse lays them out at 80 columns; the fake's output matches the installed
// 0.19.0 and 0.20.0 byte for byte (0.20.6's extra options were laid out the same way), because the
// launcher reads this help to learn which flags exist.
import type {FakeVersion} from './versions.js';

type PerVersion = string | ((version: FakeVersion) => string);
type HelpEntry = {usage: PerVersion; help: PerVersion; when?: (version: FakeVersion) => boolean};

const text = (value: PerVersion, version: FakeVersion) => (typeof value === 'string' ? value : value(version));

const chatOptions: readonly HelpEntry[] = [
	{usage: '[-h]', help: `  -h, --help            show this help message and exit`},
	{usage: (v) => (v.streamJson ? '[-q QUERY | --query-file PATH]' : '[-q QUERY]'), help: `  -q QUERY, --query QUERY
                        Single query (non-interactive mode)`},
	{usage: '', help: `  --query-file PATH     Read the single query from a file instead of the
                        command line ('-' reads stdin). Safe for arbitrary
                        text: nothing is shell-interpreted, so quotes, $(...),
                        and backticks are preserved verbatim. Mutually
                        exclusive with -q.`, when: (v) => v.streamJson},
	{usage: '[--image IMAGE]', help: `  --image IMAGE         Optional local image path to attach to a single query`},
	{usage: '[-m MODEL]', help: `  -m MODEL, --model MODEL
                        Model to use (e.g., anthropic/claude-sonnet-4)`},
	{usage: '[-t TOOLSETS]', help: `  -t TOOLSETS, --toolsets TOOLSETS
                        Comma-separated toolsets to enable`},
	{usage: '[--reasoning LEVEL]', help: `  --reasoning LEVEL     Reasoning effort for this session: none, minimal, low,
                        medium, high, xhigh, max, or ultra. Overrides
                        agent.reasoning_effort for this run only (same levels
                        as the /reasoning slash command).`, when: (v) => v.reasoning},
	{usage: '[-s SKILLS]', help: `  -s SKILLS, --skills SKILLS
                        Preload one or more skills for the session (repeat
                        flag or comma-separate)`},
	{usage: '[--provider PROVIDER]', help: `  --provider PROVIDER   Inference provider (default: auto). Built-in or a
                        user-defined name from \`providers:\` in config.yaml.`},
	{usage: '[-v]', help: `  -v, --verbose         Verbose output`},
	{usage: '[-Q]', help: `  -Q, --quiet           Quiet mode for programmatic use: suppress banner,
                        spinner, and tool previews. Only output the final
                        response and session info.`},
	{usage: '[--format {text,stream-json}]', help: `  --format {text,stream-json}
                        Output format for single-query mode (-q). 'text'
                        prints the final response as plain text (default).
                        'stream-json' emits newline-delimited JSON events
                        (JSONL), implies --quiet, and cannot be combined with
                        --tui.`, when: (v) => v.streamJson},
	{usage: '[--resume SESSION_ID]', help: `  --resume SESSION_ID, -r SESSION_ID
                        Resume a previous session by ID (shown on exit)`},
	{usage: '[--no-restore-cwd]', help: `  --no-restore-cwd      Don't cd into a resumed session's recorded working
                        directory.`},
	{usage: '[--continue [SESSION_NAME]]', help: `  --continue [SESSION_NAME], -c [SESSION_NAME]
                        Resume a session by name, or the most recent if no
                        name given`},
	{usage: '[--worktree]', help: `  --worktree, -w        Run in an isolated git worktree (for parallel agents
                        on the same repo)`},
	{usage: '[--accept-hooks]', help: `  --accept-hooks        Auto-approve any unseen shell hooks declared in
                        config.yaml without a TTY prompt (see also
                        HERMES_ACCEPT_HOOKS env var and hooks_auto_accept: in
                        config.yaml).`},
	{usage: '[--checkpoints]', help: `  --checkpoints         Enable filesystem checkpoints before destructive file
                        operations (use /rollback to restore)`},
	{usage: '[--max-turns N]', help: (v) => `  --max-turns N         Maximum tool-calling iterations per conversation turn
                        (default: ${v.maxTurnsDefault}, or agent.max_turns in config)`},
	{usage: '[--run-budget SECONDS]', help: `  --run-budget SECONDS  Optional wall-clock budget in seconds for each
                        conversation run. At 80% elapsed the agent gets a one-
                        time wrap-up notice, and implicit provider stale
                        timeouts are capped to the remaining budget so one
                        hung call can't consume the run. Unset = off. Also
                        configurable as agent.run_budget_seconds in
                        config.yaml. Intended for one-shot/eval invocations
                        with a hard ceiling.`, when: (v) => v.streamJson},
	{usage: '[--yolo]', help: `  --yolo                Bypass all dangerous command approval prompts (use at
                        your own risk)`},
	{usage: '[--pass-session-id]', help: `  --pass-session-id     Include the session ID in the agent's system prompt`},
	{usage: '[--ignore-user-config]', help: `  --ignore-user-config  Ignore ~/.hermes/config.yaml and fall back to built-in
                        defaults (credentials in .env are still loaded).
                        Useful for isolated CI runs, reproduction, and third-
                        party integrations.`},
	{usage: '[--ignore-rules]', help: `  --ignore-rules        Skip auto-injection of AGENTS.md, SOUL.md,
                        .cursorrules, memory, and preloaded skills. Combine
                        with --ignore-user-config for a fully isolated run.`},
	{usage: '[--safe-mode]', help: `  --safe-mode           Troubleshooting mode: disable ALL customizations —
                        user config, AGENTS.md/memory injection, plugins, and
                        MCP servers (implies --ignore-user-config and
                        --ignore-rules). Use to isolate whether a problem
                        comes from your setup or from Hermes itself.`},
	{usage: '[--source SOURCE]', help: `  --source SOURCE       Session source tag for filtering (default: cli). Use
                        'tool' for third-party integrations that should not
                        appear in user session lists.`},
	{usage: '[--tui]', help: `  --tui                 Launch the modern TUI instead of the classic REPL`},
	{usage: '[--cli]', help: `  --cli                 Force the classic prompt_toolkit REPL (overrides
                        display.interface=tui)`},
	{usage: '[--dev]', help: `  --dev                 With --tui: run TypeScript sources via tsx (skip dist
                        build)`},
];

const topLevelOptions: readonly HelpEntry[] = [
	'[-h]', '[--version]', '[-z PROMPT]', '[--usage-file PATH]', '[-m MODEL]', '[--provider PROVIDER]',
	{usage: '[--reasoning LEVEL]', help: '', when: (version: FakeVersion) => version.reasoning},
	'[-t TOOLSETS]', '[--resume SESSION]', '[--no-restore-cwd]', '[--continue [SESSION_NAME]]', '[--worktree]',
	'[--accept-hooks]', '[--skills SKILLS]', '[--yolo]', '[--pass-session-id]', '[--ignore-user-config]',
	'[--ignore-rules]', '[--safe-mode]', '[--tui]', '[--cli]', '[--dev]',
].map((entry) => (typeof entry === 'string' ? {usage: entry, help: ''} : entry));

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

const present = (entries: readonly HelpEntry[], version: FakeVersion) => entries.filter((entry) => entry.when?.(version) ?? true);

export function chatUsage(version: FakeVersion): string {
	const parts = present(chatOptions, version).map((entry) => text(entry.usage, version)).filter((part) => part !== '');
	return usage('hermes chat', parts);
}

export function topLevelUsage(version: FakeVersion): string {
	const parts = present(topLevelOptions, version).map((entry) => text(entry.usage, version));
	return usage('hermes', parts, [`{${version.commands.join(',')}}`, '...']);
}

export function chatHelp(version: FakeVersion): string {
	const options = present(chatOptions, version).map((entry) => text(entry.help, version));
	return `${chatUsage(version)}\n\nStart an interactive chat session with Hermes Agent\n\noptions:\n${options.join('\n')}\n`;
}
