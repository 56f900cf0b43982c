// One `chat -q` run in the recorded-answers mode (script.ts): the checks Hermes makes before the
// agent starts (provider, profile, skills, toolsets, -w), then the conversation as the script's
// answers make it (replies, tool calls run for real, HTTP errors and refused connections with
// Hermes's retries), reported through the same reporters as the directive mode.
import {spawn} from 'node:child_process';
import {appendFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import type {ChatCommand} from './command-line.js';
import {resolveEndpoint, unknownSkills, type Endpoint} from './hermes-config.js';
import {handleInterrupts} from './interrupt.js';
import {makeReporter, outputMode, write, type Failure, type Reporter} from './reporters.js';
import {crlf, richLines} from './rich-text.js';
import {defaultReply, fillReply, type Answer, type Script} from './script.js';
import {startSession, type Session, type ToolCall} from './session.js';
import {parseDirectives} from './directives.js';
import {recordingReporter} from './recording-reporter.js';
import type {FakeVersion} from './versions.js';
import {endWorktree, startWorktree} from './worktree.js';

// The toolsets Hermes knows (hermes_cli toolset names); any other name is warned about and dropped.
const knownToolsets = new Set(['terminal', 'web', 'file', 'browser', 'vision', 'image_gen', 'code_execution', 'delegation', 'memory', 'session_search', 'skills', 'todo', 'clarify', 'cronjob', 'tts', 'moa', 'homeassistant', 'hermes-cli']);

type PhaseName = 'init' | 'request' | 'tool' | 'done';
type Phase = {
	name: PhaseName;
	tool?: {pid: number; call: ToolCall; startedAt: number};
	/** Where the first SIGTERM/SIGINT found the run: from then on the agent does nothing more. */
	interruptedIn?: PhaseName;
};

/** After an interrupt the agent stops; interrupt.ts ends the process. */
const halted = (phase: Phase) => (phase.interruptedIn ? new Promise<never>(() => {}) : Promise.resolve());

function recordEvent(script: Script, event: Record<string, unknown>): void {
	if (script.eventsFile) appendFileSync(script.eventsFile, `${JSON.stringify(event)}\n`);
}

// The openai SDK's class for each status, as Hermes's retry log names it.
const errorClasses: Record<number, string> = {400: 'BadRequestError', 401: 'AuthenticationError', 403: 'PermissionDeniedError', 404: 'NotFoundError', 409: 'ConflictError', 422: 'UnprocessableEntityError', 429: 'RateLimitError'};
const errorClass = (status: number) => errorClasses[status] ?? (status >= 500 ? 'InternalServerError' : 'APIStatusError');
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** Hermes's retry log block for one failed attempt. */
function attemptBlock(endpoint: Endpoint, attempt: number, kind: string, error: string): string[] {
	return [
		`⚠️  API call failed (attempt ${attempt}/${endpoint.maxRetries}): ${kind}`,
		`   🔌 Provider: ${endpoint.provider}  Model: ${endpoint.model}`,
		`   🌐 Endpoint: ${endpoint.baseUrl}`,
		`   📝 Error: ${error}`,
		'   ⏱️  Elapsed: 0.01s  Context: 2 msgs, ~1,200 tokens',
	];
}

const reasoningLevels = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra']);

/**
 * What Hermes's request would carry, as far as hermes-delegate depends on it (the recorded
 * `requests`): the API path, the model, port and key, streaming (not the --max-turns summary), the
 * message count (system + user, two per tool call, one more asking for the summary), the
 * reasoning level (an unknown one is dropped; `none` also turns thinking off). 0.20.0 speaks the
 * Responses API to --provider openai-api.
 */
function requestShape(session: Session, endpoint: Endpoint, version: FakeVersion, summary: boolean): Record<string, unknown> {
	const level = version.reasoning && session.command.reasoning !== undefined && reasoningLevels.has(session.command.reasoning) ? session.command.reasoning : undefined;
	const responses = endpoint.provider === 'openai-api' && version.version !== '0.19.0';
	const calls = session.toolCalls.length;
	return {
		path: responses ? '/v1/responses' : '/v1/chat/completions',
		model: endpoint.model,
		port: endpoint.port,
		auth: endpoint.auth,
		stream: !summary,
		messages: responses ? 0 : 2 + 2 * calls + (summary ? 1 : 0),
		has_tool_result: calls > 0,
		reasoning_effort: level ?? null,
		think: level === 'none' ? false : null,
	};
}

type Turn = {kind: 'answer'; answer: Answer} | {kind: 'failed'; failure: Failure};

/**
 * One model call with Hermes's retries: an HTTP error that can be retried is tried again up to
 * agent.api_max_retries times; a refused connection gets one more "last primary attempt" after the
 * client is rebuilt (conn-refused-*-retries1). The count in the message never exceeds the setting.
 */
function modelCall(next: () => Answer, endpoint: Endpoint): Turn {
	const log: string[] = [];
	let attempts = 0;
	let rebuilt = false;
	for (;;) {
		const answer = next();
		if (answer.kind === 'reply' || answer.kind === 'tool_call') return {kind: 'answer', answer};
		attempts++;
		const summary = answer.kind === 'refused' ? 'Connection error.' : `HTTP ${answer.status}: ${answer.message}`;
		const kind = answer.kind === 'refused' ? 'APIConnectionError' : `${errorClass(answer.status)} [HTTP ${answer.status}]`;
		const last = attempts >= endpoint.maxRetries || (answer.kind === 'status' && !retryable(answer.status));
		if (answer.kind === 'refused' && last && !rebuilt) {
			rebuilt = true;
			log.unshift(`🔁 Transient APIConnectionError on ${endpoint.provider} — rebuilt client, waiting 4s before one last primary attempt.`);
			log.push(...attemptBlock(endpoint, Math.min(attempts, endpoint.maxRetries), kind, summary));
			attempts--;
			continue;
		}

		log.push(...attemptBlock(endpoint, Math.min(attempts, endpoint.maxRetries), kind, summary));
		if (last) {
			const count = Math.min(attempts, endpoint.maxRetries);
			log.push(`❌ API failed after ${count} retries — ${summary}`, `   💀 Final error: ${summary}`);
			return {kind: 'failed', failure: {summary, message: `API call failed after ${count} retries: ${summary}`, log}};
		}

		log.push(`⏳ Retrying in 0.1s (attempt ${attempts}/${endpoint.maxRetries})...`);
	}
}

function runTool(call: ToolCall, command: string, cwd: string, onStart: (pid: number) => void): Promise<number> {
	// Hermes's terminal tool runs the command through bash in a session of its own, so a SIGKILL
	// of hermes's group leaves it running (sigkill-during-tool); the extra line keeps bash from
	// exec-ing the command, so bash is there with the command in its command line, as in Hermes.
	const child = spawn('bash', ['-c', `builtin cd -- "$1" || exit 126\neval "$2"\nexit $?`, 'hermes-tool', cwd, command], {detached: true, stdio: ['ignore', 'pipe', 'pipe']});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	onStart(child.pid!);
	return new Promise((resolve) => {
		child.on('close', (code, signal) => {
			call.output = JSON.stringify({output: output.trimEnd(), exit_code: code ?? 128 + signalNumber(signal), error: null});
			resolve(code ?? 128 + signalNumber(signal));
		});
	});
}

const signalNumber = (signal: NodeJS.Signals | null) => (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : signal === 'SIGKILL' ? 9 : 0);

/** Signals as Hermes takes them in each phase (see interrupt.ts for how the process then ends). */
function installInterrupts(phase: Phase, session: Session, reporter: Reporter): void {
	const quiet = outputMode(session) !== 'text';
	const onSignal = () => {
		if (phase.interruptedIn) return;
		phase.interruptedIn = phase.name;
		const tool = phase.tool;
		if (phase.name === 'tool' && tool) {
			// Hermes stops the tool's shell itself: it has a session of its own, our group's signal missed it.
			try {
				process.kill(-tool.pid, 'SIGINT');
			} catch {}

			tool.call.exitCode = 130;
			if (!quiet) process.stdout.write(`  ┊ ${tool.call.label}  ${((Date.now() - tool.startedAt) / 1000).toFixed(1)}s [exit 130]${crlf}`);
		} else if (phase.name === 'request' && !quiet) {
			process.stdout.write(`⚡ Interrupted during API call.${crlf}`);
		}
	};

	// Registered before interrupt.ts's own listeners, so this runs first.
	process.on('SIGTERM', onSignal);
	process.on('SIGINT', onSignal);
	const conversation = () => phase.interruptedIn === 'request' || phase.interruptedIn === 'tool';
	handleInterrupts(
		{has: (key) => key === 'term-exit' && quiet && conversation(), text: () => undefined, number: (_key, fallback) => fallback, goal: ''},
		() => reporter.interrupted(),
	);
}

async function conversation(script: Script, session: Session, reporter: Reporter, endpoint: Endpoint, phase: Phase, cwd: string, version: FakeVersion): Promise<number> {
	const maxTurns = session.command.maxTurns ?? version.maxTurnsDefault;
	const answers = [...script.answers];
	let requests = 0;
	// A refused connection stays refused: nobody starts listening between two attempts.
	const next = (summary = false): Answer => {
		requests++;
		recordEvent(script, {phase: 'request', index: requests, home: endpoint.home, ...requestShape(session, endpoint, version, summary)});
		const answer = answers[0]?.kind === 'refused' ? answers[0] : answers.shift();
		return answer ?? {kind: 'reply', text: defaultReply, delayS: 0};
	};

	let iterations = 0;
	for (;;) {
		phase.name = 'request';
		const turn = modelCall(next, endpoint);
		if (turn.kind === 'failed') return reporter.failed(turn.failure, undefined);
		const answer = turn.answer;
		if (answer.kind === 'reply') {
			if (answer.delayS > 0) await sleep(answer.delayS * 1000);
			await halted(phase);
			const used = session.usage ?? {input: 0, output: 0, calls: 0};
			if (answer.usage) session.usage = {input: used.input + answer.usage.input, output: used.output + answer.usage.output, calls: used.calls + 1};
			phase.name = 'done';
			return reporter.answered(fillReply(answer.text, endpoint.model, endpoint.port), undefined);
		}

		if (answer.kind !== 'tool_call') throw new Error('unreachable');
		iterations++;
		const call: ToolCall = {
			index: session.toolCalls.length,
			name: answer.name,
			id: `call_${session.toolCalls.length}`,
			input: {command: answer.command},
			output: '',
			isError: false,
			label: `💻 $         ${answer.command}`,
			preparing: answer.name === 'terminal' ? '💻 preparing terminal…' : undefined,
		};
		session.toolCalls.push(call);
		await reporter.toolStarted(call);
		const startedAt = Date.now();
		if (answer.name === 'terminal') {
			phase.name = 'tool';
			const exitCode = await runTool(call, answer.command, cwd, (pid) => {
				phase.tool = {pid, call, startedAt};
				recordEvent(script, {phase: 'tool', pid});
			});
			await halted(phase);
			if (exitCode !== 0) call.exitCode = exitCode;
		} else {
			call.isError = true;
			call.output = JSON.stringify({error: `Unknown tool: ${answer.name}`});
		}

		phase.name = 'request';
		phase.tool = undefined;
		await reporter.toolFinished(call, Date.now() - startedAt);
		if (iterations >= maxTurns) {
			// The turn budget is spent: Hermes says so on stdout, even under -Q, and asks for a summary.
			if (outputMode(session) !== 'stream-json') await write(`⚠️  Reached maximum iterations (${maxTurns}). Requesting summary...${outputMode(session) === 'text' ? crlf : '\n'}`);
			const summary = next(true);
			phase.name = 'done';
			// The summary's usage never reaches Hermes's session row (flag-max-turns-1-tool: zeros, no billing).
			session.summaryAsked = true;
			// From 0.21.5 a run that ran out of turns exits 1 (upstream PR 112545: `completed: False`).
			if (summary.kind === 'reply') return reporter.answered(fillReply(summary.text, endpoint.model, endpoint.port), version.newer ? 1 : undefined);
			return reporter.failed({summary: 'no summary', message: 'The model gave no summary.'}, undefined);
		}
	}
}

export async function scriptedRun(command: ChatCommand, query: string, script: Script, version: FakeVersion): Promise<number> {
	const quiet = command.format === 'stream-json' || command.quiet;
	const resolved = resolveEndpoint(command, process.env);
	if ('error' in resolved && resolved.error === 'profile') {
		await write(resolved.stderr, process.stderr);
		return 1;
	}

	// Checked before the agent starts: a message (through Rich in text mode), no session.
	if ('error' in resolved) {
		if (quiet) {
			await write(richLines(resolved.message));
			return 1;
		}

		await write(`Query: ${query}\n${richLines(resolved.message)}\nGoodbye! ⚕\n`);
		return 0;
	}

	const endpoint = resolved.endpoint;
	const missing = unknownSkills(endpoint.home, command.skills);
	if (missing.length > 0) {
		await write(`Error: Unknown skill(s): ${missing.join(', ')}\n`);
		return 1;
	}

	let cwd = process.cwd();
	const worktree = command.worktree ? await startWorktree(cwd) : undefined;
	if (worktree?.kind === 'refused') {
		// Exit 0, red even with NO_COLOR on a pipe: as recorded (flag-worktree-nogit).
		await write(worktree.stdout);
		return 0;
	}

	if (worktree) {
		await write(worktree.stdout);
		cwd = worktree.path;
	}

	const unknownSets = (command.toolsets ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '' && !knownToolsets.has(name));
	if (unknownSets.length > 0) await write(`Warning: Unknown toolsets: ${unknownSets.join(', ')}\n`);

	const session = startSession(command, query.trim(), parseDirectives(''), version.version);
	session.model = endpoint.model;
	session.usage = {input: 0, output: 0, calls: 0};
	const reporter = recordingReporter(makeReporter(session), session, {provider: endpoint.billingProvider, baseUrl: endpoint.baseUrl || null, home: process.env['HERMES_HOME'] ? endpoint.home : undefined, cwd});
	const phase: Phase = {name: 'init'};
	installInterrupts(phase, session, reporter);
	await reporter.start();
	recordEvent(script, {phase: 'init'});
	if (script.initS > 0) await sleep(script.initS * 1000);
	await halted(phase);
	const exitCode = await conversation(script, session, reporter, endpoint, phase, cwd, version);
	if (worktree) await write(await endWorktree(worktree));
	return exitCode;
}
