#!/usr/bin/env node
// A stand-in for the `hermes` CLI: the real launcher runs it exactly as it would run Hermes, so the
// demo and the tests exercise real processes without Hermes or API keys. It poses as one release
// (env FAKE_HERMES_VERSION: 0.19.0, 0.20.0, 0.20.6, the default, or 0.21.5), answers `--version` and
// `chat --help` as that release does, accepts its `chat -q` flags and refuses the rest as its
// argparse does, and reports in its three output modes (text, -Q, --format stream-json). What it
// does is steered by `[fake:KEY=VALUE]` directives in the query (directives.ts; list below), or,
// with env FAKE_HERMES_SCRIPT=PATH, by recorded model answers (script.ts): then it also reads the
// home's config.yaml as Hermes does (hermes-config.ts) and runs a terminal tool's command for real.
// In both modes it records the session in $HERMES_HOME's state.db as Hermes does (state-db.ts).
import {appendFileSync, existsSync, readFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import {parseCommandLine, type ChatCommand} from './command-line.js';
import {parseDirectives, type Directives} from './directives.js';
import {topLevelUsage} from './help-text.js';
import {opensTui, noTtyMessage} from './interface.js';
import {readConfig, runHome, sessionCap, startWarnings, takeSessionSlot} from './release-021.js';
import {handleInterrupts} from './interrupt.js';
import {makeReporter, outputMode, write, type Reporter} from './reporters.js';
import {recordingReporter} from './recording-reporter.js';
import {readScript, ScriptError} from './script.js';
import {scriptedRun} from './scripted-run.js';
import {startSession, toolCall, type Session} from './session.js';
import {recordHome} from './state-db.js';
import {hostileLines, printBulk, readStdin, startChatter, startGrandchild} from './test-devices.js';
import {selectFakeVersion} from './versions.js';

const directivesHelp = `fake hermes: pose as another release with FAKE_HERMES_VERSION=0.19.0|0.20.0|0.20.6|0.21.5 (default 0.20.6);
steer it with directives in the query, e.g. [fake:duration=1] [fake:steps=N] [fake:answer=TEXT]
  [fake:fail] or [fake:fail=PROVIDER ERROR]  the model call fails (text mode still exits 0, as Hermes)
  [fake:exit=N] [fake:tool-error] or [fake:tool-error=N]  [fake:model-used=NAME] [fake:tokens=IN,OUT] [fake:cost=USD]
  [fake:forever] [fake:until-file=PATH] (steps until PATH exists, then answers)
  [fake:term-delay=SECONDS] [fake:term-exit] [fake:ignore-term] [fake:grandchild] [fake:ready]
  [fake:lines=N] [fake:bytes=N] [fake:line-bytes=B] [fake:escapes] [fake:echo-args] [fake:stdin] [fake:chatter=S]
  [fake:after-file=PATH] (its lines/bytes only once PATH exists; with until-file, they stop once that exists)
env FAKE_HERMES_TUI_HANDOFF=1: a Hermes without the no-TTY gate (display.interface: tui or HERMES_TUI=1 open the TUI, which exits 0)`;

async function readQuery(command: ChatCommand): Promise<string | {error: string}> {
	if (command.queryFile === undefined) return command.query!;
	try {
		if (command.queryFile !== '-') return readFileSync(command.queryFile, 'utf8');
		let text = '';
		for await (const chunk of process.stdin) text += (chunk as Buffer).toString('utf8');
		return text;
	} catch (error) {
		// Not observed on a real Hermes (no release with --query-file was runnable here).
		return {error: `Error: cannot read --query-file ${command.queryFile}: ${error instanceof Error ? error.message : String(error)}`};
	}
}

/**
 * Each step is one tool call: started, a pause, finished. With `until-file` the steps go on for as
 * long as the file is missing (checked every 50 ms), so a task ends exactly when a test says so.
 */
async function runSteps(session: Session, reporter: Reporter, directives: Directives): Promise<'done' | 'max-turns'> {
	const runaway = directives.has('forever') || directives.has('ignore-term');
	const steps = Math.max(1, Math.floor(directives.number('steps', 6)));
	const count = directives.has('fail') ? Math.ceil(steps / 2) : steps;
	const untilFile = directives.text('until-file');
	// A runaway, or a run waiting for a file, must not spin even when told to be quick.
	const pauseMs = (directives.number('duration', 3) * 1000) / steps;
	const stepMs = runaway || untilFile !== undefined ? Math.max(pauseMs, 100) : pauseMs;
	const more = (index: number) => (untilFile === undefined ? runaway || index < count : !existsSync(untilFile));
	for (let index = 0; more(index); index++) {
		if (session.command.maxTurns !== undefined && index >= session.command.maxTurns) {
			// The turn budget is spent: Hermes says so on stdout (even under -Q) and asks for a summary.
			if (outputMode(session) !== 'stream-json') await write(`⚠️  Reached maximum iterations (${session.command.maxTurns}). Requesting summary...\n`);
			return 'max-turns';
		}

		const call = toolCall(session, index);
		session.toolCalls.push(call);
		const started = Date.now();
		await reporter.toolStarted(call);
		if (untilFile === undefined) {
			await sleep(stepMs);
		} else {
			while (Date.now() - started < stepMs && !existsSync(untilFile)) await sleep(Math.min(50, stepMs));
		}

		await reporter.toolFinished(call, Date.now() - started);
	}

	return 'done';
}

async function main(argv: readonly string[]): Promise<number> {
	const argvFile = process.env['FAKE_HERMES_ARGV_FILE'];
	if (argvFile) appendFileSync(argvFile, `${JSON.stringify(argv)}\n`);
	const version = selectFakeVersion(process.env['FAKE_HERMES_VERSION']);
	if (typeof version === 'string') {
		await write(`${version}\n`, process.stderr);
		return 2;
	}

	const parsed = parseCommandLine(argv, version, () => `${topLevelUsage(version)}\n\n${directivesHelp}\n`);
	if (parsed.kind === 'print') {
		await write(parsed.stdout);
		return 0;
	}

	if (parsed.kind === 'fail') {
		await write(parsed.stderr, process.stderr);
		return parsed.exitCode;
	}

	const command = parsed.command;
	if (opensTui(command, process.env)) {
		await write(noTtyMessage);
		return 0;
	}

	const home = runHome(command, process.env);
	const config = readConfig(home, version);
	if (version.newer) {
		for (const line of startWarnings(command, process.env, config, home)) await write(`${line}\n`, process.stderr);
	}

	const cap = sessionCap(config.value);
	const refused = cap === undefined ? undefined : takeSessionSlot(home, cap, version);
	if (refused !== undefined) {
		await write(refused, process.stderr);
		return 1;
	}

	const query = await readQuery(command);
	if (typeof query !== 'string') {
		await write(`${query.error}\n`, process.stderr);
		return 2;
	}

	const scriptFile = process.env['FAKE_HERMES_SCRIPT'];
	if (scriptFile) {
		try {
			return await scriptedRun(command, query, readScript(scriptFile), version);
		} catch (error) {
			if (!(error instanceof ScriptError)) throw error;
			await write(`${error.message}\n`, process.stderr);
			return 2;
		}
	}

	const directives = parseDirectives(query);
	const session = startSession(command, query, directives, version.version);
	const reporter = recordingReporter(makeReporter(session), session, {
		provider: command.provider ?? 'auto',
		baseUrl: null,
		home: recordHome(process.env, command.profile),
		cwd: process.cwd(),
		costUsd: directives.has('cost') ? directives.number('cost', 0) : undefined,
	});
	handleInterrupts(directives, () => reporter.interrupted());
	const bulk = directives.has('lines') || directives.has('bytes');
	const exitOverride = directives.has('exit') ? Math.floor(directives.number('exit', 0)) : undefined;

	if (directives.has('chatter')) startChatter(directives);
	if (directives.has('echo-args')) await write(`ARGV ${JSON.stringify(argv)}\n`);
	// The bulk test devices want exactly their bytes on stdout; stream-json still frames them.
	if (!bulk || outputMode(session) === 'stream-json') await reporter.start();
	if (directives.has('grandchild')) await write(`grandchild pid ${await startGrandchild()}\n`);
	if (directives.has('stdin')) await write(`stdin: ${await readStdin()} bytes\n`);
	if (directives.has('ready')) await write('READY\n');
	if (directives.has('escapes')) await write(`${hostileLines.join('\n')}\n`);

	let exitCode: number;
	if (bulk) {
		const afterFile = directives.text('after-file');
		while (afterFile !== undefined && !existsSync(afterFile)) await sleep(50);
		await printBulk(directives);
		exitCode = outputMode(session) === 'stream-json' ? await reporter.answered('', exitOverride) : (exitOverride ?? 0);
	} else {
		const steps = await runSteps(session, reporter, directives);
		// From 0.21.5 a run that ran out of turns exits 1 (its summary is still the reply).
		const ranOut = steps === 'max-turns' && version.newer ? 1 : undefined;
		if (directives.has('fail')) {
			const summary = directives.text('fail') || 'HTTP 429: rate limited';
			exitCode = await reporter.failed({summary, message: `API call failed after 3 retries: ${summary}`}, exitOverride);
		} else {
			const goal = directives.goal.length > 80 ? `${directives.goal.slice(0, 79)}…` : directives.goal;
			exitCode = await reporter.answered(directives.text('answer') ?? `Fake answer: ${goal || 'done'}`, exitOverride ?? ranOut);
		}
	}

	while (directives.has('forever') || directives.has('ignore-term')) await sleep(1000);
	return exitCode;
}

// A reader that went away (EPIPE) ends us, as it would end Hermes.
process.stdout.on('error', () => process.exit(1));

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.stderr.write(`fake hermes crashed: ${error instanceof Error ? error.stack : String(error)}\n`);
		process.exitCode = 1;
	},
);
