// Hermes's command line as argparse reads it, for the flags a `chat -q` run uses: the same flags
// per release, the same errors (usage + `hermes: error: …`, exit 2), the same leniencies (`-qVALUE`,
// `--flag=VALUE`, unique prefixes of long flags, a value with a space may start with "-"). A launcher
// bug must fail against the fake exactly as it would against Hermes.
// Past ~300 lines because argparse's rules are one algorithm (option specs, prefix matching, the
// errors and the profile scan that runs before it), and a fake that splits them would drift apart.
import {chatHelp, chatUsage, topLevelUsage} from './help-text.js';
import {versionText, type FakeVersion} from './versions.js';

export type ChatCommand = {
	profile?: string;
	query?: string;
	queryFile?: string;
	model?: string;
	provider?: string;
	/** Any text: Hermes ignores a level it does not know. */
	reasoning?: string;
	toolsets?: string;
	skills: string[];
	maxTurns?: number;
	runBudget?: number;
	source?: string;
	quiet: boolean;
	format: 'text' | 'stream-json';
	worktree: boolean;
	yolo: boolean;
	/** `--cli` / `--tui`: which interface an interactive session would open (interface.ts). */
	cli: boolean;
	tui: boolean;
};

export type CommandLine =
	| {kind: 'chat'; command: ChatCommand}
	/** Help or version: print, exit 0. */
	| {kind: 'print'; stdout: string}
	| {kind: 'fail'; stderr: string; exitCode: number};

type Field = 'query' | 'queryFile' | 'model' | 'provider' | 'reasoning' | 'toolsets' | 'maxTurns' | 'runBudget' | 'source' | 'format';
type OptionSpec = {
	/** In declaration order: argparse names an option by these joined with "/". */
	flags: readonly string[];
	take:
		| {kind: 'value'; field: Field | null; type?: 'int' | 'float'; choices?: readonly string[]}
		| {kind: 'skills'}
		| {kind: 'help'}
		| {kind: 'version'}
		| {kind: 'switch'; field: Toggle | null};
	/** Members of one mutually exclusive group. */
	exclusive?: boolean;
	when?: (version: FakeVersion) => boolean;
};

type Toggle = 'quiet' | 'worktree' | 'yolo' | 'cli' | 'tui';
const value = (field: Field | null, extra: {type?: 'int' | 'float'; choices?: readonly string[]} = {}) => ({kind: 'value' as const, field, ...extra});
const toggle = (field: Toggle | null) => ({kind: 'switch' as const, field});
const withReasoning = (version: FakeVersion) => version.reasoning;
const withStreamJson = (version: FakeVersion) => version.streamJson;
// Switches that change nothing the fake could show.
const harmless = ['--accept-hooks', '--pass-session-id', '--ignore-user-config', '--ignore-rules', '--safe-mode', '--dev'].map((flag): OptionSpec => ({flags: [flag], take: toggle(null)}));
// Every release's top-level and chat parsers have both (recorded 0.19.0/0.20.0 help).
const interfaces: readonly OptionSpec[] = [{flags: ['--tui'], take: toggle('tui')}, {flags: ['--cli'], take: toggle('cli')}];

// The top-level parser takes these before `chat` too (`hermes -m MODEL chat -q …` works).
const topLevelOptions: readonly OptionSpec[] = [
	{flags: ['-h', '--help'], take: {kind: 'help'}},
	{flags: ['--version', '-V'], take: {kind: 'version'}},
	{flags: ['-m', '--model'], take: value('model')},
	{flags: ['--provider'], take: value('provider')},
	{flags: ['--reasoning'], take: value('reasoning'), when: withReasoning},
	{flags: ['-t', '--toolsets'], take: value('toolsets')},
	{flags: ['--worktree', '-w'], take: toggle('worktree')},
	{flags: ['--skills', '-s'], take: {kind: 'skills'}},
	{flags: ['--yolo'], take: toggle('yolo')},
	...harmless,
	...interfaces,
];

const chatOptions: readonly OptionSpec[] = [
	{flags: ['-h', '--help'], take: {kind: 'help'}},
	{flags: ['-q', '--query'], take: value('query'), exclusive: true},
	{flags: ['--query-file'], take: value('queryFile'), exclusive: true, when: withStreamJson},
	{flags: ['--image'], take: value(null)},
	{flags: ['-m', '--model'], take: value('model')},
	{flags: ['-t', '--toolsets'], take: value('toolsets')},
	{flags: ['--reasoning'], take: value('reasoning'), when: withReasoning},
	{flags: ['-s', '--skills'], take: {kind: 'skills'}},
	{flags: ['--provider'], take: value('provider')},
	{flags: ['-v', '--verbose'], take: toggle(null)},
	{flags: ['-Q', '--quiet'], take: toggle('quiet')},
	{flags: ['--format'], take: value('format', {choices: ['text', 'stream-json']}), when: withStreamJson},
	{flags: ['--worktree', '-w'], take: toggle('worktree')},
	{flags: ['--checkpoints'], take: toggle(null)},
	{flags: ['--max-turns'], take: value('maxTurns', {type: 'int'})},
	{flags: ['--run-budget'], take: value('runBudget', {type: 'float'}), when: withStreamJson},
	{flags: ['--yolo'], take: toggle('yolo')},
	...harmless,
	{flags: ['--source'], take: value('source')},
	...interfaces,
];

class ArgparseError extends Error {
	constructor(
		readonly parser: 'top' | 'chat',
		message: string,
	) {
		super(message);
	}
}

type Found = {spec: OptionSpec; flag: string; attached?: string};

/** argparse's _parse_optional: an option (maybe with a value attached), a positional, or an unknown option. */
function classify(arg: string, specs: readonly OptionSpec[], parser: 'top' | 'chat', allLongFlags: readonly string[]): Found | 'positional' | 'unknown' {
	if (!arg.startsWith('-') || arg === '-') return 'positional';
	const byFlag = (flag: string) => specs.find((spec) => spec.flags.includes(flag));
	const exact = byFlag(arg);
	if (exact) return {spec: exact, flag: arg};
	const equals = arg.indexOf('=');
	if (equals > 0 && byFlag(arg.slice(0, equals))) return {spec: byFlag(arg.slice(0, equals))!, flag: arg.slice(0, equals), attached: arg.slice(equals + 1)};
	if (arg.startsWith('--')) {
		const name = equals > 0 ? arg.slice(0, equals) : arg;
		// Prefixes are matched against all of Hermes's flags, also those the fake does not take.
		const matches = allLongFlags.filter((flag) => flag.startsWith(name));
		if (matches.length > 1) throw new ArgparseError(parser, `ambiguous option: ${name} could match ${matches.join(', ')}`);
		const spec = matches.length === 1 ? byFlag(matches[0]!) : undefined;
		if (spec) return {spec, flag: matches[0]!, ...(equals > 0 ? {attached: arg.slice(equals + 1)} : {})};
	} else if (byFlag(arg.slice(0, 2))) {
		return {spec: byFlag(arg.slice(0, 2))!, flag: arg.slice(0, 2), attached: arg.slice(2)};
	}

	if (/^-\d+$|^-\d*\.\d+$/.test(arg) || arg.includes(' ')) return 'positional';
	return 'unknown';
}

const emptyCommand = (): ChatCommand => ({skills: [], quiet: false, format: 'text', worktree: false, yolo: false, cli: false, tui: false});

function convert(spec: OptionSpec, raw: string, parser: 'top' | 'chat'): string | number {
	const take = spec.take;
	const name = `argument ${spec.flags.join('/')}`;
	if (take.kind !== 'value') return raw;
	if (take.choices && !take.choices.includes(raw)) {
		throw new ArgparseError(parser, `${name}: invalid choice: '${raw}' (choose from ${take.choices.map((choice) => `'${choice}'`).join(', ')})`);
	}

	if (take.type === 'int') {
		if (!/^\s*[-+]?\d+\s*$/.test(raw)) throw new ArgparseError(parser, `${name}: invalid int value: '${raw}'`);
		return Number.parseInt(raw, 10);
	}

	if (take.type === 'float') {
		if (!/^\s*[-+]?((\d+\.?\d*|\.\d+)(e[-+]?\d+)?|inf(inity)?|nan)\s*$/i.test(raw)) throw new ArgparseError(parser, `${name}: invalid float value: '${raw}'`);
		return Number(raw.trim().replace(/^([-+]?)inf(inity)?$/i, '$1Infinity'));
	}

	return raw;
}

type Outcome = {command: ChatCommand; chat: boolean; version: boolean; help?: 'top' | 'chat'; extras: string[]};

function parseArguments(argv: readonly string[], version: FakeVersion): Outcome {
	const outcome: Outcome = {command: emptyCommand(), chat: false, version: false, extras: []};
	let exclusiveSeen: OptionSpec | undefined;
	const longFlagsIn = (usage: string) => [...new Set(usage.match(/--[a-z][a-z0-9-]*/g))];
	// The usage names one spelling per option; the help, all (the top-level help is not in the fake).
	const longFlags = {top: [...longFlagsIn(topLevelUsage(version)), '--help', '--oneshot', '--model', '--toolsets'], chat: longFlagsIn(chatHelp(version))};
	// The top-level parser reads every argument once before handing the rest to `chat`, so a prefix
	// that could be two of its flags is its error wherever it stands.
	const topSpecs = topLevelOptions.filter((spec) => spec.when?.(version) ?? true);
	for (const arg of argv) {
		if (arg === '--') break;
		if (arg.startsWith('--')) classify(arg, topSpecs, 'top', longFlags.top);
	}

	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index]!;
		const parser = outcome.chat ? 'chat' : 'top';
		const specs = (outcome.chat ? chatOptions : topLevelOptions).filter((spec) => spec.when?.(version) ?? true);
		if (arg === '--') {
			outcome.extras.push(...argv.slice(index));
			break;
		}

		const found = classify(arg, specs, parser, longFlags[parser]);
		if (found === 'unknown') {
			outcome.extras.push(arg);
			continue;
		}

		if (found === 'positional') {
			if (outcome.chat) {
				outcome.extras.push(arg);
			} else if (arg === 'chat') {
				outcome.chat = true;
			} else {
				const choices = version.commands.map((command) => `'${command}'`).join(', ');
				throw new ArgparseError('top', `argument command: invalid choice: '${arg}' (choose from ${choices})`);
			}

			continue;
		}

		const {spec, flag, attached} = found;
		const name = `argument ${spec.flags.join('/')}`;
		if (spec.exclusive) {
			if (exclusiveSeen && exclusiveSeen !== spec) throw new ArgparseError(parser, `${name}: not allowed with argument ${exclusiveSeen.flags.join('/')}`);
			exclusiveSeen = spec;
		}

		const take = spec.take;
		if (take.kind === 'help') {
			outcome.help = parser;
			return outcome;
		}

		if (take.kind === 'switch' || take.kind === 'version') {
			if (attached !== undefined && attached !== '') {
				// `-Qw` is -Q then -w; `-Qx` (no -x) and `--quiet=x` are errors.
				if (flag.startsWith('--') || typeof classify(`-${attached}`, specs, parser, []) !== 'object') {
					throw new ArgparseError(parser, `${name}: ignored explicit argument '${attached}'`);
				}

				argv = [...argv.slice(0, index + 1), `-${attached}`, ...argv.slice(index + 1)];
			}

			if (take.kind === 'version') outcome.version = true;
			else if (take.field !== null) outcome.command[take.field] = true;
			continue;
		}

		let raw = attached;
		if (raw === undefined) {
			const next = argv[index + 1];
			if (next === undefined || next === '--' || classify(next, specs, parser, longFlags[parser]) !== 'positional') throw new ArgparseError(parser, `${name}: expected one argument`);
			raw = next;
			index++;
		}

		if (take.kind === 'skills') {
			outcome.command.skills.push(raw);
		} else if (take.kind === 'value' && take.field !== null) {
			(outcome.command as Record<Field, string | number | undefined>)[take.field] = convert(spec, raw, parser);
		}
	}

	return outcome;
}

const profilePattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// The flags whose value Hermes's profile pre-parser skips (hermes_cli/main.py _apply_profile_override).
const profileScanValueFlags = new Set(['-z', '--oneshot', '-m', '--model', '--provider', '-t', '--toolsets', '-r', '--resume', '-s', '--skills', '--usage-file']);

/**
 * Hermes reads `-p NAME` / `--profile NAME` / `--profile=NAME` (the first one, anywhere) before
 * argparse and removes it. A `-p` value that is no valid name is left in place, for argparse to refuse.
 */
function takeProfile(argv: readonly string[]): {argv: string[]; profile?: string} | {error: string} {
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index]!;
		if (arg === '--') break;
		if ((arg === '-p' || arg === '--profile') && index + 1 < argv.length) {
			const name = argv[index + 1]!;
			if (!profilePattern.test(name)) break;
			return {argv: [...argv.slice(0, index), ...argv.slice(index + 2)], profile: name};
		}

		if (arg.startsWith('--profile=')) {
			const name = arg.slice('--profile='.length).trim().toLowerCase();
			if (name === '') return {error: 'Error: profile name cannot be empty'};
			if (!profilePattern.test(name)) return {error: `Error: Invalid profile name '${name}'. Must match [a-z0-9][a-z0-9_-]{0,63}`};
			return {argv: [...argv.slice(0, index), ...argv.slice(index + 1)], profile: name};
		}

		if (profileScanValueFlags.has(arg)) index++;
		else if ((arg === '-c' || arg === '--continue') && !argv[index + 1]?.startsWith('-')) index++;
	}

	return {argv: [...argv]};
}

export function parseCommandLine(argv: readonly string[], version: FakeVersion, topLevelHelp: () => string): CommandLine {
	const profiled = takeProfile(argv);
	if ('error' in profiled) return {kind: 'fail', stderr: `${profiled.error}\n`, exitCode: 1};
	let outcome: Outcome;
	try {
		outcome = parseArguments(profiled.argv, version);
		if (outcome.help) return {kind: 'print', stdout: outcome.help === 'chat' ? chatHelp(version) : topLevelHelp()};
		if (outcome.extras.length > 0) throw new ArgparseError('top', `unrecognized arguments: ${outcome.extras.join(' ')}`);
		if (outcome.version) return {kind: 'print', stdout: versionText(version, process.env)};
		if (!outcome.chat) throw new ArgparseError('top', 'the fake hermes runs only `chat -q QUERY` (it has no interactive session)');
	} catch (error) {
		if (!(error instanceof ArgparseError)) throw error;
		const [usage, prog] = error.parser === 'chat' ? [chatUsage(version), 'hermes chat'] : [topLevelUsage(version), 'hermes'];
		return {kind: 'fail', stderr: `${usage}\n${prog}: error: ${error.message}\n`, exitCode: 2};
	}

	const command = outcome.command;
	if (profiled.profile !== undefined) command.profile = profiled.profile;
	const hasQuery = command.query !== undefined || command.queryFile !== undefined;
	// As upstream's stream_json_requested: checked after argparse, on stderr without a usage.
	if (command.format === 'stream-json' && !hasQuery) return {kind: 'fail', stderr: 'Error: --format stream-json requires -q/--query.\n', exitCode: 2};
	if (!hasQuery) {
		return {kind: 'fail', stderr: `${chatUsage(version)}\nhermes chat: error: the fake hermes needs -q QUERY (it has no interactive session)\n`, exitCode: 2};
	}

	return {kind: 'chat', command};
}
